package azure

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// configRecording is testdata/config.pi.json: what pi-ai 1.6.0's
// resolveAzureBaseUrl and resolveDeploymentName made of each input
// (recorded by internal/provider/providertest/oracle/record-config.mjs).
type configRecording struct {
	BaseURLs []struct {
		Name         string            `json:"name"`
		Env          map[string]string `json:"env"`
		ModelBaseURL string            `json:"modelBaseURL"`
		BaseURL      string            `json:"baseURL"`
		ResourceName string            `json:"resourceName"`
		Want         string            `json:"want"`
		Err          string            `json:"err"`
	} `json:"baseURLs"`
	Deployments []struct {
		Name string `json:"name"`
		Map  string `json:"map"`
		ID   string `json:"id"`
		Want string `json:"want"`
	} `json:"deployments"`
}

func readConfig(t *testing.T) configRecording {
	var rec configRecording
	require.NoError(t, json.Unmarshal(providertest.ReadTestdata(t, "config.pi.json"), &rec))
	require.NotEmpty(t, rec.BaseURLs)
	return rec
}

// TestResolveBaseURL: the Options, then AZURE_OPENAI_BASE_URL, then a
// resource name, then the model's BaseURL; an Azure host's root
// normalized to /openai/v1, as pi-ai does.
func TestResolveBaseURL(t *testing.T) {
	for _, c := range readConfig(t).BaseURLs {
		t.Run(c.Name, func(t *testing.T) {
			o := Options{BaseURL: c.BaseURL, ResourceName: c.ResourceName, Getenv: func(k string) string { return c.Env[k] }}
			got, err := o.ResolveBaseURL(agentcore.Model{ID: "m", BaseURL: c.ModelBaseURL})
			if c.Err != "" {
				require.Error(t, err)
				assert.Equal(t, c.Err, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.Want, got)
		})
	}
	_, err := Options{Getenv: providertest.NoEnv}.ResolveBaseURL(agentcore.Model{})
	assert.ErrorIs(t, err, ErrNoBaseURL)
}

// TestResolveDeployment: the Options' map first, then
// AZURE_OPENAI_DEPLOYMENT_NAME_MAP as pi-ai parses it, then the model ID.
func TestResolveDeployment(t *testing.T) {
	for _, c := range readConfig(t).Deployments {
		t.Run(c.Name, func(t *testing.T) {
			o := Options{Getenv: func(k string) string {
				if k == EnvDeploymentMap {
					return c.Map
				}
				return ""
			}}
			assert.Equal(t, c.Want, o.ResolveDeployment(agentcore.Model{ID: c.ID}))
		})
	}
	o := Options{Deployments: map[string]string{"gpt-4o": "mine"}, Getenv: func(string) string { return "gpt-4o=env" }}
	assert.Equal(t, "mine", o.ResolveDeployment(agentcore.Model{ID: "gpt-4o"}))
}

// TestAuthentication: a key is sent as api-key; without one, Token's
// bearer; without either the request fails as pi-ai's does, unsent.
func TestAuthentication(t *testing.T) {
	token := func(context.Context) (string, error) { return "entra-token", nil }
	tests := []struct {
		name, key string
		token     func(context.Context) (string, error)
		want      http.Header // nil: no request
		text      string
	}{
		{name: "key", key: "k1", want: http.Header{"Api-Key": {"k1"}}},
		{name: "key over token", key: "k1", token: token, want: http.Header{"Api-Key": {"k1"}}},
		{name: "token", token: token, want: http.Header{"Authorization": {"Bearer entra-token"}}},
		{name: "token error", token: func(context.Context) (string, error) { return "", errors.New("expired") }, text: "Azure OpenAI token: expired"},
		{name: "neither", text: "No API key for provider: azure"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got http.Header
			srv := providertest.Serve(t, func(w http.ResponseWriter, r *http.Request) {
				got = r.Header.Clone()
				w.Header().Set("Content-Type", "text/event-stream")
				w.Write(providertest.ReadTestdata(t, "stream", "text.sse"))
			})
			fn := StreamFn(Options{BaseURL: srv.URL, Token: tt.token, HTTPClient: srv.Client(), Getenv: providertest.NoEnv})
			_, final := providertest.Collect(fn(t.Context(), testTarget(t).Model, providertest.HiRequest(), agentcore.StreamOptions{APIKey: tt.key}), nil)
			require.NotNil(t, final)
			if tt.want == nil {
				assert.Nil(t, got, "a request was sent")
				assert.Equal(t, tt.text, final.ErrorMessage)
				return
			}
			require.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
			assert.Equal(t, tt.want.Get("Authorization"), got.Get("Authorization"), "only one credential is sent")
			assert.Equal(t, tt.want.Get("Api-Key"), got.Get("Api-Key"), "only one credential is sent")
		})
	}
}

// TestTokenNeverLeavesTheOrigin: a redirect to another origin is refused
// before anything (the bearer token above all) is sent there.
func TestTokenNeverLeavesTheOrigin(t *testing.T) {
	text := providertest.ReadTestdata(t, "stream", "text.sse")
	token := func(context.Context) (string, error) { return "entra-token", nil }
	providertest.Redirects(t, testTarget(t).Model, agentcore.StreamOptions{}, func(base string, client *http.Client) agentcore.StreamFn {
		return StreamFn(Options{BaseURL: base, HTTPClient: client, Token: token, Getenv: providertest.NoEnv})
	}, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(text)
	})
}
