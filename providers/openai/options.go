package openai

import (
	"cmp"
	"net/http"
	"strings"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider"
)

// DefaultBaseURL is the API root used when neither [Options.BaseURL] nor
// [agentcore.Model.BaseURL] is set.
const DefaultBaseURL = "https://api.openai.com/v1"

// SystemMessageMode says how the transcript's system messages reach the
// server. The zero value is [SystemMessagesAuto].
type SystemMessageMode int

const (
	// SystemMessagesAuto follows the model, as pi-ai does: in place when
	// Model.Compat sets "supportsMidConvoSystemMessages": true, else
	// collapsed. It is the zero value.
	SystemMessagesAuto SystemMessageMode = iota
	// SystemMessagesCollapse replays every system message into one leading
	// system prompt ([agentcore.CollapseSystemMessages]) and drops the
	// others: the form every Chat Completions server accepts.
	SystemMessagesCollapse
	// SystemMessagesInPlace sends each system message where it is in the
	// transcript. The leading one carries the whole prompt; a later one
	// carries its appended text and its section changes, framed by name
	// ("Updated system prompt section ..."). For servers that take system
	// messages mid-conversation.
	SystemMessagesInPlace
)

// Options configure [StreamFn]. The zero value talks to api.openai.com with
// the per-request key and pi-ai's defaults for a standard server.
//
// Server differences that belong to a model (pi-ai keeps them in the
// model's compat settings) are read from [agentcore.Model.Compat], a JSON
// object with pi-ai's keys; absent keys take pi-ai's defaults for a
// standard server. The keys read are:
//
//	supportsMidConvoSystemMessages  bool    system messages in place (see SystemMessages); default false
//	supportsDeveloperRole           bool    the prompt as role "developer" for reasoning models; default true for OpenAI's API (provider "openai" or a base URL at api.openai.com), else false
//	supportsStore                   bool    send "store": false; default true
//	supportsReasoningEffort         bool    send "reasoning_effort" for reasoning models; default true
//	supportsUsageInStreaming        bool    send "stream_options": {"include_usage": true}; default true
//	maxTokensField                  string  "max_completion_tokens" (default) or "max_tokens"
//	requiresToolResultName          bool    send the tool name with each tool result; default false
//	supportsLongCacheRetention      bool    for CacheRetention "long", send "prompt_cache_retention": "24h" and the prompt_cache_key; default true
//	promptCacheKeyMode              string  "enabled" or "disabled" sends the SessionID as prompt_cache_key always or never; default (auto) to api.openai.com, and for "long" retention
//	sendSessionAffinityHeaders      bool    send the SessionID as headers (see sessionAffinityFormat); default true for OpenRouter
//	sessionAffinityFormat           string  "openrouter" (x-session-id) or other (session_id, x-client-request-id and x-session-affinity); default "openrouter" for OpenRouter
//	thinkingFormat                  string  "openrouter" sends the level as "reasoning": {"effort": LEVEL} (when off, the model's ThinkingLevelMap value for off or "none", and nothing when the map makes off unsupported) instead of reasoning_effort; default "openrouter" for OpenRouter, else "openai" (reasoning_effort); the other formats of pi-ai are read as "openai"
//
// Other keys are ignored; Compat that is not a JSON object fails every
// request with an error message.
type Options struct {
	// BaseURL is the API root, such as "http://localhost:8080/v1"; requests
	// go to BaseURL + "/chat/completions". Empty uses the model's BaseURL,
	// else [DefaultBaseURL].
	BaseURL string
	// APIKey is the fallback key, used when a request's
	// [agentcore.StreamOptions.APIKey] (set from [agentcore.Hooks.GetAPIKey]
	// or the agent's stream options) is empty. With no key at all the
	// request carries no Authorization header, for local servers.
	APIKey string
	// Headers are added to every request, after the model's Headers and
	// before the request's [agentcore.StreamOptions.Headers]; later ones
	// win, and any of them may replace Authorization. The map is copied.
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
	// SystemMessages says how system messages are sent; the zero value
	// follows the model's Compat, else collapses them.
	SystemMessages SystemMessageMode
}

// settings are the resolved per-request switches: the Options and the
// model's compat, with defaults applied.
type settings struct {
	inPlace         bool
	developerRole   bool
	store           bool
	reasoningEffort bool
	// openRouterReasoning sends the level as OpenRouter's reasoning
	// object instead of reasoning_effort.
	openRouterReasoning bool
	usageInStream       bool
	legacyMaxTokens     bool
	toolResultName      bool
	// cacheKeyMode is pi-ai's promptCacheKeyMode ("" for auto), openAI
	// says the server is OpenAI's API, longCache honors CacheRetention
	// "long".
	cacheKeyMode string
	openAI       bool
	longCache    bool
	// affinity names the session in headers: x-session-id in
	// OpenRouter's form, else OpenAI's three.
	affinity provider.Affinity
}

// compatJSON is the subset of pi-ai's compat settings this package reads.
type compatJSON struct {
	SupportsMidConvoSystemMessages *bool  `json:"supportsMidConvoSystemMessages"`
	SupportsDeveloperRole          *bool  `json:"supportsDeveloperRole"`
	SupportsStore                  *bool  `json:"supportsStore"`
	SupportsReasoningEffort        *bool  `json:"supportsReasoningEffort"`
	SupportsUsageInStreaming       *bool  `json:"supportsUsageInStreaming"`
	MaxTokensField                 string `json:"maxTokensField"`
	RequiresToolResultName         *bool  `json:"requiresToolResultName"`
	SupportsLongCacheRetention     *bool  `json:"supportsLongCacheRetention"`
	PromptCacheKeyMode             string `json:"promptCacheKeyMode"`
	SendSessionAffinityHeaders     *bool  `json:"sendSessionAffinityHeaders"`
	SessionAffinityFormat          string `json:"sessionAffinityFormat"`
	ThinkingFormat                 string `json:"thinkingFormat"`
}

// resolveSettings combines opts, the model's compat and the base URL.
func resolveSettings(opts Options, model agentcore.Model, baseURL string) (settings, error) {
	var c compatJSON
	if err := provider.Compat(model, &c); err != nil {
		return settings{}, err
	}
	openRouter := provider.IsOpenRouter(model, baseURL)
	s := settings{
		inPlace:         provider.Flag(c.SupportsMidConvoSystemMessages, false),
		developerRole:   provider.Flag(c.SupportsDeveloperRole, isOpenAI(model, baseURL)),
		store:           provider.Flag(c.SupportsStore, true),
		reasoningEffort: provider.Flag(c.SupportsReasoningEffort, true),
		usageInStream:   provider.Flag(c.SupportsUsageInStreaming, true),
		legacyMaxTokens: c.MaxTokensField == "max_tokens",
		toolResultName:  provider.Flag(c.RequiresToolResultName, false),
		cacheKeyMode:    c.PromptCacheKeyMode,
		openAI:          strings.Contains(baseURL, "api.openai.com"),
		longCache:       provider.Flag(c.SupportsLongCacheRetention, true),
		affinity:        provider.NewAffinity(c.SendSessionAffinityHeaders, c.SessionAffinityFormat, openRouter),

		openRouterReasoning: c.ThinkingFormat == "openrouter" || c.ThinkingFormat == "" && openRouter,
	}
	switch opts.SystemMessages {
	case SystemMessagesCollapse:
		s.inPlace = false
	case SystemMessagesInPlace:
		s.inPlace = true
	}
	return s, nil
}

// promptCacheKey reports whether a request with cache retention r sends
// its session as prompt_cache_key, as pi-ai decides: never for "none",
// always when the compat says "enabled", and by default (auto) to OpenAI's
// API and for "long" retention where it is supported.
func (s settings) promptCacheKey(r string) bool {
	switch {
	case r == "none":
		return false
	case s.cacheKeyMode == "enabled":
		return true
	case s.cacheKeyMode != "" && s.cacheKeyMode != "auto":
		return false
	}
	return s.openAI || r == "long" && s.longCache
}

// isOpenAI reports whether model is served by OpenAI's own API: the only
// server pi-ai sends role "developer" to by default, since other servers'
// chat templates may reject it.
func isOpenAI(model agentcore.Model, baseURL string) bool {
	return model.Provider == "openai" || strings.Contains(baseURL, "api.openai.com")
}

// baseURL is the API root for model.
func (o Options) baseURL(model agentcore.Model) string {
	return cmp.Or(o.BaseURL, model.BaseURL, DefaultBaseURL)
}

// endpoint is the chat completions URL under base.
func endpoint(base string) string {
	return strings.TrimRight(base, "/") + "/chat/completions"
}
