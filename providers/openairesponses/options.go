package openairesponses

import (
	"cmp"
	"net/http"
	"strings"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider"
	"github.com/pi-go/agentcore/providers/internal/variant"
)

// DefaultBaseURL is the API root used when neither [Options.BaseURL] nor
// [agentcore.Model.BaseURL] is set.
const DefaultBaseURL = "https://api.openai.com/v1"

// Options configure [StreamFn]. The zero value talks to api.openai.com
// with the per-request key and pi-ai's defaults.
//
// Server differences that belong to a model (pi-ai keeps them in the
// model's compat settings) are read from [agentcore.Model.Compat], a JSON
// object with pi-ai's keys; absent keys take pi-ai's defaults. The keys
// read are:
//
//	supportsDeveloperRole            bool    instructions as role "developer" for reasoning models; default true
//	supportsMidConvoSystemMessages   bool    later system messages sent in place; default false (collapsed into the first)
//	promptCacheKeyMode               string  "disabled" never sends the SessionID as prompt_cache_key; default "auto"
//	supportsLongCacheRetention       bool    CacheRetention "long" sends "prompt_cache_retention": "24h"; default true
//	supportsExplicitPromptCacheMode  bool    send prompt_cache_options instead of prompt_cache_retention; default false
//	supportsMaxOutputTokens          bool    send max_output_tokens; default true
//	supportsStrictMode               bool    send "strict": false with each tool; default false
//	sessionAffinityFormat            string  "openrouter" (x-session-id), "openai" (session-id and x-client-request-id) or other (x-client-request-id); default "openrouter" for OpenRouter, else "openai"
//
// Other keys are ignored; Compat that is not a JSON object fails every
// request with an error message.
type Options struct {
	// BaseURL is the API root, such as "http://localhost:8080/v1";
	// requests go to BaseURL + "/responses". Empty uses the model's
	// BaseURL, else [DefaultBaseURL].
	BaseURL string
	// APIKey is the fallback key, used when a request's
	// [agentcore.StreamOptions.APIKey] is empty. With no key at all a
	// request fails ("No API key for provider: NAME") unless its headers
	// carry an Authorization, as pi-ai's does.
	APIKey string
	// Headers are added to every request, after the model's Headers and
	// the session headers and before the request's
	// [agentcore.StreamOptions.Headers]; later ones win, and an empty value
	// removes a header. The map is copied.
	Headers map[string]string
	// HTTPClient sends the requests; nil means [http.DefaultClient]. Its
	// Timeout, if any, bounds a whole streamed response: prefer ctx and
	// [agentcore.StreamOptions.Timeout].
	// Whatever its CheckRedirect, a redirect to another origin than the
	// request URL's is refused with [agentcore.ErrCrossOriginRedirect]
	// (see the package doc's "Hostile servers"); HTTPClient itself is not
	// changed.
	HTTPClient *http.Client
	// MaxResponseBytes caps the content one response may build: the bytes
	// of its text, thinking, signatures and tool calls (IDs, names and
	// argument text). A response past it ends as an error with the content
	// that fit, its Err wrapping [agentcore.ErrResponseTooLarge] and its
	// text "Response too large: more than N bytes of content". Zero means
	// [agentcore.DefaultMaxResponseBytes] (16 MiB); negative, no cap.
	// The same cap bounds the bytes a compressed body (gzip, which Go's
	// transport asks for and inflates) may inflate to: past them the
	// response ends with the same error, its text "Response too large:
	// more than N bytes inflated from a compressed body".
	MaxResponseBytes int64
	// IdleTimeout bounds each wait for the server, as the proxy client's
	// does: for the response's headers, then at each read of its body (counted only while the stream waits for it, not while
	// the consumer handles an event): a server that sends nothing for
	// that long ends the response as an error, its Err wrapping
	// [agentcore.ErrStreamIdleTimeout] and its text "Stream idle timeout:
	// no data from the server for D". Zero means
	// [agentcore.DefaultStreamIdleTimeout] (10 minutes); negative, none
	// (ctx alone bounds the stream).
	IdleTimeout time.Duration
	// ServiceTier, when not empty, is sent as service_tier ("auto",
	// "default", "flex", "priority"). The cost of a response is priced at
	// the tier the response reports (else this one): half for "flex",
	// double for "priority" (2.5 times for gpt-5.5).
	ServiceTier string
	// ReasoningSummary is sent as reasoning.summary for reasoning models
	// ("auto", "concise", "detailed"); empty means "auto". As in pi-ai's
	// stream options, a summary asked for with no thinking level asks for
	// effort "medium".
	ReasoningSummary string
}

// settings are the model's compat settings with pi-ai's defaults applied.
type settings struct {
	developerRole  bool
	inPlace        bool
	cacheKey       bool // promptCacheKeyMode is not "disabled"
	longCache      bool
	explicitCache  bool
	maxOutput      bool
	strict         bool
	affinityFormat string
	// noSessionHeaders sends no session headers (Azure).
	noSessionHeaders bool
	// cacheKeyAlways sends the SessionID as prompt_cache_key whatever
	// the CacheRetention (Azure).
	cacheKeyAlways bool
	// toolCallProvider is one more provider whose "call|item" tool-call
	// IDs are kept (Azure's).
	toolCallProvider string
}

// compatJSON is the subset of pi-ai's compat settings this package reads.
type compatJSON struct {
	SupportsDeveloperRole           *bool  `json:"supportsDeveloperRole"`
	SupportsMidConvoSystemMessages  *bool  `json:"supportsMidConvoSystemMessages"`
	PromptCacheKeyMode              string `json:"promptCacheKeyMode"`
	SupportsLongCacheRetention      *bool  `json:"supportsLongCacheRetention"`
	SupportsExplicitPromptCacheMode *bool  `json:"supportsExplicitPromptCacheMode"`
	SupportsMaxOutputTokens         *bool  `json:"supportsMaxOutputTokens"`
	SupportsStrictMode              *bool  `json:"supportsStrictMode"`
	SessionAffinityFormat           string `json:"sessionAffinityFormat"`
}

// sendsCacheKey reports whether a request of session, with a cache
// retention, sends it as prompt_cache_key: unless there is none, the
// model's compat disables it, or the retention is "none" (which Azure
// ignores).
func (s settings) sendsCacheKey(session, retention string) bool {
	return session != "" && s.cacheKey && (retention != "none" || s.cacheKeyAlways)
}

// keepsItemIDs reports whether the "call|item" tool-call IDs of a
// provider keep their item part: OpenAI's own providers', and the
// variant's.
func (s settings) keepsItemIDs(provider string) bool {
	return toolCallProviders[provider] || (s.toolCallProvider != "" && provider == s.toolCallProvider)
}

// resolveSettings reads the compat settings of model, served at base, as
// OpenAI's API takes them or, with a variant, as pi-ai's Azure module
// does: strict tools unless turned off, no cache retention or cache
// options, max_output_tokens whenever there is a cap, no session headers,
// and the SessionID as prompt_cache_key whatever the retention.
func resolveSettings(model agentcore.Model, base string, v *variant.Responses) (settings, error) {
	var c compatJSON
	if err := provider.Compat(model, &c); err != nil {
		return settings{}, err
	}
	if v != nil {
		return settings{
			developerRole:    provider.Flag(c.SupportsDeveloperRole, true),
			inPlace:          provider.Flag(c.SupportsMidConvoSystemMessages, false),
			cacheKey:         c.PromptCacheKeyMode != "disabled",
			maxOutput:        true,
			strict:           provider.Flag(c.SupportsStrictMode, true),
			noSessionHeaders: true,
			cacheKeyAlways:   true,
			toolCallProvider: v.ToolCallProvider,
		}, nil
	}
	format := c.SessionAffinityFormat
	if format == "" {
		format = "openai"
		if provider.IsOpenRouter(model, base) {
			format = "openrouter"
		}
	}
	return settings{
		developerRole:  provider.Flag(c.SupportsDeveloperRole, true),
		inPlace:        provider.Flag(c.SupportsMidConvoSystemMessages, false),
		cacheKey:       c.PromptCacheKeyMode != "disabled",
		longCache:      provider.Flag(c.SupportsLongCacheRetention, true),
		explicitCache:  provider.Flag(c.SupportsExplicitPromptCacheMode, false),
		maxOutput:      provider.Flag(c.SupportsMaxOutputTokens, true),
		strict:         provider.Flag(c.SupportsStrictMode, false),
		affinityFormat: format,
	}, nil
}

// baseURL is the API root for model.
func (o Options) baseURL(model agentcore.Model) string {
	return cmp.Or(o.BaseURL, model.BaseURL, DefaultBaseURL)
}

// endpoint is the responses URL under base.
func endpoint(base string) string {
	return strings.TrimRight(base, "/") + "/responses"
}

// chatGPTSignIn reports whether a request for model with key is made with
// a Sign in with ChatGPT token rather than an API key (which starts with
// "sk-"): such requests go to OpenAI's API without the fields it rejects
// (prompt cache retention and options, max_output_tokens, temperature).
func chatGPTSignIn(model agentcore.Model, base, key string) bool {
	return model.Provider == "openai" && base == DefaultBaseURL && key != "" && !strings.HasPrefix(key, "sk-")
}
