package azure

import (
	"context"
	"net/http"
	"time"

	"github.com/pi-go/agentcore/internal/provider"
	"github.com/pi-go/agentcore/providers/openairesponses"
)

// Options configure [StreamFn]. The zero value reads the endpoint from
// pi-ai's environment variables (AZURE_OPENAI_BASE_URL or
// AZURE_OPENAI_RESOURCE_NAME, else the model's BaseURL) and sends the
// per-request key as api-key.
type Options struct {
	// BaseURL is the resource's endpoint, such as
	// "https://my-resource.openai.azure.com" (normalized to its /openai/v1
	// root, as pi-ai does; see the package doc's "Endpoint"). Empty reads
	// AZURE_OPENAI_BASE_URL.
	BaseURL string
	// ResourceName names the resource when there is no base URL: requests
	// go to https://NAME.openai.azure.com/openai/v1. Empty reads
	// AZURE_OPENAI_RESOURCE_NAME.
	ResourceName string
	// APIVersion is sent as the api-version query parameter. Empty reads
	// AZURE_OPENAI_API_VERSION, else "v1".
	APIVersion string
	// Deployments maps model IDs to the deployment names sent as the
	// body's model, before AZURE_OPENAI_DEPLOYMENT_NAME_MAP
	// ("id=deployment,id=deployment"); a model in neither is sent by its
	// ID. The map is copied.
	Deployments map[string]string
	// APIKey is the fallback key, used when a request's
	// [agentcore.StreamOptions.APIKey] is empty. A key is sent as the
	// api-key header.
	APIKey string
	// Token, when not nil, returns a Microsoft Entra ID access token for
	// a request that has no key, sent as "Authorization: Bearer TOKEN" (to
	// the request's origin only). It is called on the goroutine ranging
	// over the stream, once per request, with the request's context; an
	// error fails the request. Nil means a request needs a key.
	Token func(ctx context.Context) (string, error)
	// Getenv reads pi-ai's environment variables; nil means [os.Getenv].
	// It is called once per request, on the goroutine ranging over the
	// stream.
	Getenv func(string) string
	// Headers are added to every request, after the model's Headers and
	// before the request's [agentcore.StreamOptions.Headers]; later ones
	// win, and an empty value removes a header (api-key included). The
	// map is copied.
	Headers map[string]string
	// HTTPClient, MaxResponseBytes and IdleTimeout are those of
	// [openairesponses.Options]: the client (nil means
	// [http.DefaultClient]; a redirect to another origin is refused, so
	// that no key or token leaves the endpoint's origin), the content cap
	// (zero means [agentcore.DefaultMaxResponseBytes]) and the idle
	// timeout (zero means [agentcore.DefaultStreamIdleTimeout]).
	HTTPClient       *http.Client
	MaxResponseBytes int64
	IdleTimeout      time.Duration
}

// getenv reads the Options' environment ([provider.Getenv]).
func (o Options) getenv(name string) string { return provider.Getenv(o.Getenv)(name) }

// codec is the Options of the Responses codec that serves Azure.
func (o Options) codec() openairesponses.Options {
	return openairesponses.Options{
		APIKey: o.APIKey, Headers: o.Headers, HTTPClient: o.HTTPClient,
		MaxResponseBytes: o.MaxResponseBytes, IdleTimeout: o.IdleTimeout,
	}
}
