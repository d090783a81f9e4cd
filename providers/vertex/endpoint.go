package vertex

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/providers/internal/variant"
)

// The environment variables pi-ai reads for Vertex AI.
const (
	EnvProject       = "GOOGLE_CLOUD_PROJECT"
	EnvGCloudProject = "GCLOUD_PROJECT"
	EnvLocation      = "GOOGLE_CLOUD_LOCATION"
)

// The errors of a request that cannot be sent. ErrNoProject's and
// ErrNoLocation's texts are pi-ai's.
var (
	ErrNoProject     = errors.New("Vertex AI requires a project ID. Set GOOGLE_CLOUD_PROJECT/GCLOUD_PROJECT or pass project in options.")
	ErrNoLocation    = errors.New("Vertex AI requires a location. Set GOOGLE_CLOUD_LOCATION or pass location in options.")
	ErrNoCredentials = errors.New("Vertex AI requires credentials: an API key (GOOGLE_CLOUD_API_KEY) or a token from vertex.Options.Token (Application Default Credentials)")
)

// apiVersion is the Vertex AI API version pi-ai asks for.
const apiVersion = "v1"

// credentialsMarker is the key pi's login stores for credentials other
// than a key; like a placeholder ("<authenticated>"), it is no key.
const credentialsMarker = "gcp-vertex-credentials"

// placeholder matches a key that stands for credentials elsewhere.
var placeholder = regexp.MustCompile(`^<[^>]+>$`)

// versionSegment matches a path segment naming an API version.
var versionSegment = regexp.MustCompile(`^v\d+(?:beta\d*)?$`)

// multiRegions are the locations served at aiplatform.LOCATION.rep.googleapis.com.
var multiRegions = map[string]bool{"us": true, "eu": true}

// key returns the request's key as pi-ai takes it: trimmed, and "" for a
// placeholder or the credentials marker.
func key(k string) string {
	k = strings.TrimSpace(k)
	if k == credentialsMarker || placeholder.MatchString(k) {
		return ""
	}
	return k
}

// ResolveURL returns the URL of a streaming request for model, as pi-ai
// (through Google's SDK) builds it: with a key, the express endpoint
// https://aiplatform.googleapis.com/v1/publishers/google/models/ID; without
// one, the project's (Options or GOOGLE_CLOUD_PROJECT, GCLOUD_PROJECT) in
// its location (Options or GOOGLE_CLOUD_LOCATION):
// https://LOCATION-aiplatform.googleapis.com/v1/projects/P/locations/L/...,
// aiplatform.googleapis.com for "global", aiplatform.LOCATION.rep.googleapis.com
// for "us" and "eu". A custom base URL (see [Options.BaseURL]) replaces
// either, without the project's path. The model is named as the SDK names
// it: "publishers/google/models/ID", "publishers/P/models/M" for "P/M",
// as given when it starts with "publishers/", "projects/" or "models/".
// It fails with [ErrNoProject] or [ErrNoLocation], or for a model ID that
// is empty or could leave its path.
func (o Options) ResolveURL(model agentcore.Model, withKey bool) (string, error) {
	name, err := modelPath(model.ID)
	if err != nil {
		return "", err
	}
	project, location := "", ""
	if !withKey {
		if project = cmp.Or(o.Project, o.getenv(EnvProject), o.getenv(EnvGCloudProject)); project == "" {
			return "", ErrNoProject
		}
		if location = cmp.Or(o.Location, o.getenv(EnvLocation)); location == "" {
			return "", ErrNoLocation
		}
	}
	name = (&url.URL{Path: name}).EscapedPath() + ":streamGenerateContent?alt=sse"
	if base := customBase(cmp.Or(o.BaseURL, model.BaseURL)); base != "" {
		if !hasVersion(base) {
			base += "/" + apiVersion
		}
		return base + "/" + name, nil
	}
	switch {
	case withKey, location == "global":
		return "https://aiplatform.googleapis.com/" + apiVersion + "/" + projectPath(project, location) + name, nil
	case multiRegions[location]:
		return "https://aiplatform." + location + ".rep.googleapis.com/" + apiVersion + "/" + projectPath(project, location) + name, nil
	}
	return "https://" + location + "-aiplatform.googleapis.com/" + apiVersion + "/" + projectPath(project, location) + name, nil
}

// projectPath is the resource path of a project's location, "" for the
// express endpoint (no project).
func projectPath(project, location string) string {
	if project == "" {
		return ""
	}
	return "projects/" + project + "/locations/" + location + "/"
}

// customBase is a base URL that replaces Vertex's endpoints, without one
// trailing slash; "" for none (empty, or a template with "{location}").
func customBase(base string) string {
	base = strings.TrimSpace(base)
	if base == "" || strings.Contains(base, "{location}") {
		return ""
	}
	return strings.TrimSuffix(base, "/")
}

// hasVersion reports whether a base URL's path names an API version.
func hasVersion(base string) bool {
	path := base
	if u, err := url.Parse(base); err == nil && u.Host != "" {
		path = u.Path
	}
	for seg := range strings.SplitSeq(path, "/") {
		if versionSegment.MatchString(seg) {
			return true
		}
	}
	return false
}

// modelPath names a model as Google's SDK names it for Vertex.
func modelPath(id string) (string, error) {
	switch {
	case id == "":
		return "", errors.New("model is required and must be a string")
	case strings.Contains(id, "..") || strings.ContainsAny(id, "?&"):
		return "", errors.New("invalid model parameter")
	case strings.HasPrefix(id, "publishers/"), strings.HasPrefix(id, "projects/"), strings.HasPrefix(id, "models/"):
		return id, nil
	}
	if publisher, rest, ok := strings.Cut(id, "/"); ok {
		model, _, _ := strings.Cut(rest, "/")
		return "publishers/" + publisher + "/models/" + model, nil
	}
	return "publishers/google/models/" + id, nil
}

// endpoint resolves one request's URL and authentication: a key as
// x-goog-api-key, else a bearer token from Token.
func (o Options) endpoint(ctx context.Context, model agentcore.Model, k string) (variant.Endpoint, error) {
	k = key(k)
	u, err := o.ResolveURL(model, k != "")
	if err != nil {
		return variant.Endpoint{}, err
	}
	ep := variant.Endpoint{URL: u, Auth: http.Header{}}
	switch {
	case k != "":
		ep.Auth.Set("X-Goog-Api-Key", k)
		return ep, nil
	case o.Token == nil:
		return variant.Endpoint{}, ErrNoCredentials
	}
	token, err := o.Token(ctx)
	if err != nil {
		return variant.Endpoint{}, fmt.Errorf("Vertex AI token: %w", err)
	}
	ep.Auth.Set("Authorization", "Bearer "+token)
	return ep, nil
}
