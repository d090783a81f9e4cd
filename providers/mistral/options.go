package mistral

import (
	"cmp"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider"
)

// DefaultBaseURL is the API root used when neither [Options.BaseURL] nor
// [agentcore.Model.BaseURL] is set, pi-ai's for Mistral's models.
const DefaultBaseURL = "https://api.mistral.ai"

// Options configure [StreamFn]. The zero value talks to api.mistral.ai
// with the per-request key.
//
// A model's compat settings ([agentcore.Model.Compat], pi-ai's keys) that
// this package reads is supportsMidConvoSystemMessages: later system
// messages sent in place (default false: collapsed into the first).
type Options struct {
	// BaseURL is the API root, such as "http://localhost:8080"; requests
	// go to BaseURL + "/v1/chat/completions". Empty uses the model's
	// BaseURL, else [DefaultBaseURL].
	BaseURL string
	// APIKey is the fallback key, used when a request's
	// [agentcore.StreamOptions.APIKey] is empty; it is sent as a bearer.
	// A request with no key fails unsent ("No API key for provider:
	// NAME"), as pi-ai's does.
	APIKey string
	// Headers are added to every request, after the model's Headers and
	// before the request's [agentcore.StreamOptions.Headers]; later ones
	// win, and an empty value removes a header. An x-affinity header in
	// any of them replaces the session's. The map is copied.
	Headers map[string]string
	// HTTPClient sends the requests; nil means [http.DefaultClient]. A
	// redirect to another origin than the request URL's is refused with
	// [agentcore.ErrCrossOriginRedirect], so that the key never leaves
	// it; HTTPClient itself is not changed.
	HTTPClient *http.Client
	// MaxResponseBytes caps the content one response may build (text,
	// thinking and tool calls); past it the response ends as an error
	// wrapping [agentcore.ErrResponseTooLarge]. Zero means
	// [agentcore.DefaultMaxResponseBytes]; negative, no cap.
	// The same cap bounds the bytes a compressed body (gzip, which Go's
	// transport asks for and inflates) may inflate to: past them the
	// response ends with the same error, its text "Response too large:
	// more than N bytes inflated from a compressed body".
	MaxResponseBytes int64
	// IdleTimeout bounds each wait for the server, as the proxy client's
	// does: for the response's headers, then at each read of its body; past it the response ends as an error wrapping
	// [agentcore.ErrStreamIdleTimeout]. Zero means
	// [agentcore.DefaultStreamIdleTimeout]; negative, none.
	IdleTimeout time.Duration
}

// endpoint is the chat completions URL under the API root for model, as
// pi-ai resolves it: the root's path without trailing slashes, then
// /v1/chat/completions; the root's query and fragment are dropped.
func (o Options) endpoint(model agentcore.Model) string {
	base := cmp.Or(o.BaseURL, model.BaseURL, DefaultBaseURL)
	u, err := url.Parse(base)
	if err != nil {
		return strings.TrimRight(base, "/") + "/v1/chat/completions"
	}
	u.Path = strings.TrimRight(u.Path, "/") + "/v1/chat/completions"
	u.RawPath, u.RawQuery, u.Fragment, u.ForceQuery = "", "", "", false
	return u.String()
}

// settings are the model's compat settings with pi-ai's defaults applied.
type settings struct {
	inPlace bool // later system messages sent in place
}

// resolveSettings reads the compat settings of model.
func resolveSettings(model agentcore.Model) (settings, error) {
	var c struct {
		SupportsMidConvoSystemMessages *bool `json:"supportsMidConvoSystemMessages"`
	}
	if err := provider.Compat(model, &c); err != nil {
		return settings{}, err
	}
	return settings{inPlace: provider.Flag(c.SupportsMidConvoSystemMessages, false)}, nil
}
