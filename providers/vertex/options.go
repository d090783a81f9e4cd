package vertex

import (
	"context"
	"net/http"
	"time"

	"github.com/pi-go/agentcore/internal/provider"
	"github.com/pi-go/agentcore/providers/google"
)

// Options configure [StreamFn]. The zero value sends a request's key to
// Vertex AI's express endpoint and, for a request without one, reads the
// project and location from pi-ai's environment variables and needs
// Token.
type Options struct {
	// Project and Location name the Google Cloud project and region
	// (such as "us-central1", "global", "eu") of requests made with a
	// token. Empty reads GOOGLE_CLOUD_PROJECT (else GCLOUD_PROJECT) and
	// GOOGLE_CLOUD_LOCATION.
	Project  string
	Location string
	// BaseURL is an API root that replaces Vertex's endpoints, such as a
	// gateway's: requests go to BaseURL (plus "/v1" unless it names a
	// version) + "/publishers/google/models/ID:streamGenerateContent". Empty
	// uses the model's BaseURL, unless that holds "{location}" (as pi-ai's
	// catalog's do) or is empty.
	BaseURL string
	// APIKey is the fallback key (a Vertex API key, pi-ai's
	// GOOGLE_CLOUD_API_KEY), used when a request's
	// [agentcore.StreamOptions.APIKey] is empty. A key is sent as
	// x-goog-api-key to the express endpoint, aiplatform.googleapis.com.
	// The placeholders "<authenticated>" and "gcp-vertex-credentials"
	// count as no key, as in pi-ai.
	APIKey string
	// Token returns an OAuth2 access token for a request without a key,
	// sent as "Authorization: Bearer TOKEN" to the request's origin only:
	// Application Default Credentials, say (the example module
	// providers/vertex/examples/adc shows golang.org/x/oauth2/google). It
	// is called on the goroutine ranging over the stream, once per
	// request, with the request's context; an error fails the request.
	// Nil means a request needs a key ([ErrNoCredentials]).
	Token func(ctx context.Context) (string, error)
	// Getenv reads pi-ai's environment variables; nil means [os.Getenv].
	// It is called once per request, on the goroutine ranging over the
	// stream.
	Getenv func(string) string
	// Headers are added to every request, after the model's Headers and
	// before the request's [agentcore.StreamOptions.Headers]; later ones
	// win, an empty value removes one, and any of them may replace the
	// key or the bearer. The map is copied.
	Headers map[string]string
	// HTTPClient, MaxResponseBytes and IdleTimeout are those of
	// [google.Options]: the client (nil means [http.DefaultClient]; a
	// redirect to another origin is refused, so that no key or token
	// leaves the endpoint's origin), the content cap (zero means
	// [agentcore.DefaultMaxResponseBytes]) and the idle timeout (zero means
	// [agentcore.DefaultStreamIdleTimeout]).
	HTTPClient       *http.Client
	MaxResponseBytes int64
	IdleTimeout      time.Duration
}

// getenv reads the Options' environment ([provider.Getenv]).
func (o Options) getenv(name string) string { return provider.Getenv(o.Getenv)(name) }

// codec is the Options of the Gemini codec that serves Vertex.
func (o Options) codec() google.Options {
	return google.Options{
		APIKey: o.APIKey, Headers: o.Headers, HTTPClient: o.HTTPClient,
		MaxResponseBytes: o.MaxResponseBytes, IdleTimeout: o.IdleTimeout,
	}
}
