package azure

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/providers/internal/variant"
)

// The environment variables pi-ai reads for Azure OpenAI.
const (
	EnvBaseURL        = "AZURE_OPENAI_BASE_URL"
	EnvResourceName   = "AZURE_OPENAI_RESOURCE_NAME"
	EnvAPIVersion     = "AZURE_OPENAI_API_VERSION"
	EnvDeploymentMap  = "AZURE_OPENAI_DEPLOYMENT_NAME_MAP"
	defaultAPIVersion = "v1"
)

// ErrNoBaseURL is the cause of a request with no endpoint: no
// [Options.BaseURL] or ResourceName, none in the environment, and no model
// BaseURL. Its text is pi-ai's.
var ErrNoBaseURL = errors.New("Azure OpenAI base URL is required. Set AZURE_OPENAI_BASE_URL or AZURE_OPENAI_RESOURCE_NAME, or pass azureBaseUrl, azureResourceName, or model.baseUrl.")

// azureHosts are the host suffixes of Azure's OpenAI endpoints, whose root
// is normalized to /openai/v1.
var azureHosts = []string{".openai.azure.com", ".cognitiveservices.azure.com", ".ai.azure.com"}

// ResolveBaseURL returns the API root requests for model go under, as pi-ai
// resolves it: the Options' BaseURL, else AZURE_OPENAI_BASE_URL, else
// https://RESOURCE.openai.azure.com/openai/v1 for the Options' or the
// environment's resource name, else the model's BaseURL. The root of an
// Azure host (*.openai.azure.com, *.cognitiveservices.azure.com,
// *.ai.azure.com) with no path, /openai or /openai/v1/responses becomes
// /openai/v1, its query dropped; trailing slashes are dropped. It fails
// with [ErrNoBaseURL], or for a base URL that is no absolute URL.
func (o Options) ResolveBaseURL(model agentcore.Model) (string, error) {
	base := cmp.Or(strings.TrimSpace(o.BaseURL), strings.TrimSpace(o.getenv(EnvBaseURL)))
	if base == "" {
		if name := cmp.Or(o.ResourceName, o.getenv(EnvResourceName)); name != "" {
			base = "https://" + name + ".openai.azure.com/openai/v1"
		}
	}
	base = cmp.Or(base, model.BaseURL)
	if base == "" {
		return "", ErrNoBaseURL
	}
	return normalizeBaseURL(base)
}

// normalizeBaseURL puts an Azure host's root at /openai/v1 and drops
// trailing slashes.
func normalizeBaseURL(raw string) (string, error) {
	u, err := url.Parse(strings.TrimRight(strings.TrimSpace(raw), "/"))
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", fmt.Errorf("Invalid Azure OpenAI base URL: %s", raw)
	}
	u.Host = strings.ToLower(u.Host)
	host := u.Hostname()
	isAzure := false
	for _, suffix := range azureHosts {
		isAzure = isAzure || strings.HasSuffix(host, suffix)
	}
	switch strings.TrimRight(u.Path, "/") {
	case "", "/openai", "/openai/v1/responses":
		if isAzure {
			u.Path, u.RawPath, u.RawQuery, u.ForceQuery = "/openai/v1", "", "", false
		}
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// ResolveDeployment returns the deployment name requests for model send as
// their model: the Options' Deployments entry, else the entry of
// AZURE_OPENAI_DEPLOYMENT_NAME_MAP, else the model's ID.
func (o Options) ResolveDeployment(model agentcore.Model) string {
	if d := o.Deployments[model.ID]; d != "" {
		return d
	}
	if d := parseDeploymentMap(o.getenv(EnvDeploymentMap))[model.ID]; d != "" {
		return d
	}
	return model.ID
}

// parseDeploymentMap reads "id=deployment,id=deployment" as pi-ai does:
// entries and their halves trimmed, entries without both halves skipped,
// text after a second "=" ignored.
func parseDeploymentMap(s string) map[string]string {
	m := map[string]string{}
	for entry := range strings.SplitSeq(s, ",") {
		entry = strings.TrimSpace(entry)
		parts := strings.Split(entry, "=")
		if entry == "" || len(parts) < 2 || parts[0] == "" || parts[1] == "" {
			continue
		}
		m[strings.TrimSpace(parts[0])] = strings.TrimSpace(parts[1])
	}
	return m
}

// endpoint resolves one request's URL and authentication: the API root's
// /responses with the api-version, and the key as api-key or else a
// bearer token from Token. A request with neither fails as pi-ai's does
// ("No API key for provider: NAME").
func (o Options) endpoint(ctx context.Context, model agentcore.Model, key string) (variant.Endpoint, error) {
	if key == "" && o.Token == nil {
		return variant.Endpoint{}, errors.New("No API key for provider: " + model.Provider)
	}
	base, err := o.ResolveBaseURL(model)
	if err != nil {
		return variant.Endpoint{}, err
	}
	query := url.Values{"api-version": {cmp.Or(o.APIVersion, o.getenv(EnvAPIVersion), defaultAPIVersion)}}
	ep := variant.Endpoint{URL: base + "/responses?" + query.Encode(), Auth: http.Header{}}
	if key != "" {
		ep.Auth.Set("Api-Key", key)
		return ep, nil
	}
	token, err := o.Token(ctx)
	if err != nil {
		return variant.Endpoint{}, fmt.Errorf("Azure OpenAI token: %w", err)
	}
	ep.Auth.Set("Authorization", "Bearer "+token)
	return ep, nil
}
