package google

import (
	"cmp"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/pi-go/agentcore"
)

// DefaultBaseURL is the API root used when neither [Options.BaseURL] nor
// [agentcore.Model.BaseURL] is set, pi-ai's base URL for Google's models.
// Requests go to BaseURL + "/models/" + model ID +
// ":streamGenerateContent?alt=sse".
const DefaultBaseURL = "https://generativelanguage.googleapis.com/v1beta"

// Options configure [StreamFn]. The zero value talks to
// generativelanguage.googleapis.com with the per-request key.
type Options struct {
	// BaseURL is the API root including its version, such as
	// "http://localhost:8080/v1beta". Empty uses the model's BaseURL, else
	// [DefaultBaseURL].
	BaseURL string
	// APIKey is the fallback key, sent as x-goog-api-key when a request's
	// [agentcore.StreamOptions.APIKey] is empty. A request with no key and
	// no x-goog-api-key or authorization header fails without being sent.
	APIKey string
	// Headers are added to every request, after the model's Headers and
	// before the request's [agentcore.StreamOptions.Headers]; later ones
	// win, an empty value removes one, and any of them may replace
	// x-goog-api-key. The map is copied.
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
}

// baseURL is the API root for model.
func (o Options) baseURL(model agentcore.Model) string {
	return cmp.Or(o.BaseURL, model.BaseURL, DefaultBaseURL)
}

// endpoint is the streaming URL of model under base, the model named as
// Google's SDK names it: "models/ID" unless the ID already starts with
// "models/" or "tunedModels/", escaped for a URL path. An empty ID, or one
// that could leave its path ("..", "?", "&"), is refused with the SDK's
// words.
func endpoint(base, modelID string) (string, error) {
	switch {
	case modelID == "":
		return "", errors.New("model is required and must be a string")
	case strings.Contains(modelID, "..") || strings.ContainsAny(modelID, "?&"):
		return "", errors.New("invalid model parameter")
	}
	name := modelID
	if !strings.HasPrefix(name, "models/") && !strings.HasPrefix(name, "tunedModels/") {
		name = "models/" + name
	}
	name = (&url.URL{Path: name}).EscapedPath()
	return strings.TrimSuffix(base, "/") + "/" + name + ":streamGenerateContent?alt=sse", nil
}
