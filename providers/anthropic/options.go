package anthropic

import (
	"cmp"
	"net/http"
	"strings"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider"
)

// DefaultBaseURL is the API root used when neither [Options.BaseURL] nor
// [agentcore.Model.BaseURL] is set. Requests go to BaseURL +
// "/v1/messages?beta=true", where pi-ai posts them.
const DefaultBaseURL = "https://api.anthropic.com"

// DefaultVersion is the anthropic-version header sent when
// [Options.Version] is empty.
const DefaultVersion = "2023-06-01"

// DefaultMaxTokens stands in for [agentcore.Model.MaxTokens] when the
// model does not set it. The API requires max_tokens; pi-ai reads it from
// its model catalog, which this package does not have, so set the model's
// MaxTokens to its output limit.
const DefaultMaxTokens = 8192

// Options configure [StreamFn]. The zero value talks to api.anthropic.com
// with the per-request key.
//
// Differences that belong to a model or a gateway (pi-ai keeps them in
// the model's compat settings) are read from [agentcore.Model.Compat], a
// JSON object with pi-ai's keys; absent keys take pi-ai's defaults:
//
//	supportsMidConvoSystemMessages   bool    later system messages sent in place as role "system"; default false (collapsed into the prompt)
//	forceAdaptiveThinking            bool    adaptive thinking with an effort instead of a token budget; default false
//	supportsEagerToolInputStreaming  bool    "eager_input_streaming" on tools, else the fine-grained tool streaming beta; default true
//	supportsLongCacheRetention       bool    the 1h cache TTL for CacheRetention "long"; default true
//	supportsCacheControlOnTools      bool    a cache breakpoint on the last tool; default true
//	supportsTemperature              bool    send temperature (never with thinking); default true
//	allowEmptySignature              bool    replay unsigned thinking as thinking with "signature": ""; default false (as text)
//	sendSessionAffinityHeaders       bool    send the session ID as a header; default true for OpenRouter
//	sessionAffinityFormat            string  "openrouter" (x-session-id) or other (x-session-affinity); default by provider
//
// Other keys are ignored; Compat that is not a JSON object fails every
// request with an error message.
type Options struct {
	// BaseURL is the API root, such as "http://localhost:8080"; requests
	// go to BaseURL + "/v1/messages?beta=true". Empty uses the model's
	// BaseURL, else [DefaultBaseURL].
	BaseURL string
	// APIKey is the fallback key, sent as x-api-key when a request's
	// [agentcore.StreamOptions.APIKey] (set from [agentcore.Hooks.GetAPIKey]
	// or the agent's stream options) is empty. A request with no key and no
	// authorization or x-api-key header fails without being sent.
	APIKey string
	// Version is the anthropic-version header; empty means
	// [DefaultVersion].
	Version string
	// Headers are added to every request, after the model's Headers and
	// before the request's [agentcore.StreamOptions.Headers]; later ones
	// win, and any of them may replace x-api-key. An "anthropic-beta"
	// header among the model's or the request's replaces the beta features
	// this package would ask for. The map is copied.
	Headers map[string]string
	// HTTPClient sends the requests; nil means [http.DefaultClient]. Its
	// Timeout, if any, bounds a whole streamed response: prefer ctx and
	// [agentcore.StreamOptions.Timeout].
	// Whatever its CheckRedirect, a redirect to another origin than the
	// request URL's is refused with [agentcore.ErrCrossOriginRedirect]
	// (see the package doc's "Hostile servers"); HTTPClient itself is not
	// changed. The package retries only when
	// [agentcore.StreamOptions.MaxRetries] asks: the caller of the agent
	// loop owns retries.
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
}

// baseURL is the API root for model.
func (o Options) baseURL(model agentcore.Model) string {
	return cmp.Or(o.BaseURL, model.BaseURL, DefaultBaseURL)
}

// endpoint is the messages URL under base.
func endpoint(base string) string {
	return strings.TrimRight(base, "/") + "/v1/messages?beta=true"
}

// settings are the model's compat settings with pi-ai's defaults applied.
type settings struct {
	inPlace            bool
	adaptive           bool
	eagerToolStreaming bool
	longCache          bool
	cacheOnTools       bool
	temperature        bool
	emptySignature     bool
	affinity           provider.Affinity
}

// compatJSON is the subset of pi-ai's Anthropic compat settings this
// package reads.
type compatJSON struct {
	SupportsMidConvoSystemMessages  *bool  `json:"supportsMidConvoSystemMessages"`
	ForceAdaptiveThinking           *bool  `json:"forceAdaptiveThinking"`
	SupportsEagerToolInputStreaming *bool  `json:"supportsEagerToolInputStreaming"`
	SupportsLongCacheRetention      *bool  `json:"supportsLongCacheRetention"`
	SupportsCacheControlOnTools     *bool  `json:"supportsCacheControlOnTools"`
	SupportsTemperature             *bool  `json:"supportsTemperature"`
	AllowEmptySignature             *bool  `json:"allowEmptySignature"`
	SendSessionAffinityHeaders      *bool  `json:"sendSessionAffinityHeaders"`
	SessionAffinityFormat           string `json:"sessionAffinityFormat"`
}

// resolveSettings reads model's compat settings.
func resolveSettings(model agentcore.Model, baseURL string) (settings, error) {
	var c compatJSON
	if err := provider.Compat(model, &c); err != nil {
		return settings{}, err
	}
	return settings{
		inPlace:            provider.Flag(c.SupportsMidConvoSystemMessages, false),
		adaptive:           provider.Flag(c.ForceAdaptiveThinking, false),
		eagerToolStreaming: provider.Flag(c.SupportsEagerToolInputStreaming, true),
		longCache:          provider.Flag(c.SupportsLongCacheRetention, true),
		cacheOnTools:       provider.Flag(c.SupportsCacheControlOnTools, true),
		temperature:        provider.Flag(c.SupportsTemperature, true),
		emptySignature:     provider.Flag(c.AllowEmptySignature, false),
		affinity:           provider.NewAffinity(c.SendSessionAffinityHeaders, c.SessionAffinityFormat, provider.IsOpenRouter(model, baseURL)),
	}, nil
}
