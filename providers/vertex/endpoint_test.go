package vertex

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// TestResolveURL: the endpoints the recordings do not reach: the
// Options' project and location over the environment's, a custom base
// from the Options, model paths.
func TestResolveURL(t *testing.T) {
	env := func(k string) string {
		return map[string]string{EnvProject: "env-p", EnvLocation: "env-l"}[k]
	}
	tests := []struct {
		name    string
		opts    Options
		id      string
		withKey bool
		want    string
		err     string
	}{
		{name: "options over environment", opts: Options{Project: "p", Location: "asia-east1", Getenv: env}, id: "gemini-2.5-pro",
			want: "https://asia-east1-aiplatform.googleapis.com/v1/projects/p/locations/asia-east1/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse"},
		{name: "environment", opts: Options{Getenv: env}, id: "gemini-2.5-pro",
			want: "https://env-l-aiplatform.googleapis.com/v1/projects/env-p/locations/env-l/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse"},
		{name: "express", opts: Options{Getenv: providertest.NoEnv}, id: "gemini-2.5-pro", withKey: true,
			want: "https://aiplatform.googleapis.com/v1/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse"},
		{name: "custom base from the options", opts: Options{BaseURL: "https://gw.example/vertex/", Getenv: providertest.NoEnv}, id: "m", withKey: true,
			want: "https://gw.example/vertex/v1/publishers/google/models/m:streamGenerateContent?alt=sse"},
		{name: "publisher model, rest dropped", opts: Options{Getenv: providertest.NoEnv}, id: "anthropic/claude/x", withKey: true,
			want: "https://aiplatform.googleapis.com/v1/publishers/anthropic/models/claude:streamGenerateContent?alt=sse"},
		{name: "escaped", opts: Options{Getenv: providertest.NoEnv}, id: "a b", withKey: true,
			want: "https://aiplatform.googleapis.com/v1/publishers/google/models/a%20b:streamGenerateContent?alt=sse"},
		{name: "no project", opts: Options{Location: "l", Getenv: providertest.NoEnv}, id: "m", err: ErrNoProject.Error()},
		{name: "no location", opts: Options{Project: "p", Getenv: providertest.NoEnv}, id: "m", err: ErrNoLocation.Error()},
		{name: "no model", opts: Options{Getenv: providertest.NoEnv}, withKey: true, err: "model is required and must be a string"},
		{name: "model leaving its path", opts: Options{Getenv: providertest.NoEnv}, id: "../x", withKey: true, err: "invalid model parameter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.opts.ResolveURL(agentcore.Model{ID: tt.id, BaseURL: "https://{location}-aiplatform.googleapis.com"}, tt.withKey)
			if tt.err != "" {
				require.Error(t, err)
				assert.Equal(t, tt.err, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestAuthentication: a key is sent as x-goog-api-key; without one (a
// placeholder is none), Token's bearer; without either the request fails
// unsent with ErrNoCredentials.
func TestAuthentication(t *testing.T) {
	token := func(context.Context) (string, error) { return "adc", nil }
	tests := []struct {
		name, key   string
		token       func(context.Context) (string, error)
		apiKey, tok string // the headers sent; both empty: no request
		text        string
	}{
		{name: "key", key: "k1", token: token, apiKey: "k1"},
		{name: "token", token: token, tok: "Bearer adc"},
		{name: "placeholder key", key: "<authenticated>", token: token, tok: "Bearer adc"},
		{name: "token error", token: func(context.Context) (string, error) { return "", errors.New("no ADC") }, text: "Vertex AI token: no ADC"},
		{name: "neither", text: ErrNoCredentials.Error()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got http.Header
			srv := providertest.Serve(t, func(w http.ResponseWriter, r *http.Request) {
				got = r.Header.Clone()
				w.Header().Set("Content-Type", "text/event-stream")
				w.Write(providertest.ReadTestdata(t, "stream", "text.sse"))
			})
			env := func(k string) string { return map[string]string{EnvProject: "p", EnvLocation: "l"}[k] }
			fn := StreamFn(Options{BaseURL: srv.URL, Token: tt.token, HTTPClient: srv.Client(), Getenv: env})
			_, final := providertest.Collect(fn(t.Context(), testTarget(t).Model, providertest.HiRequest(), agentcore.StreamOptions{APIKey: tt.key}), nil)
			require.NotNil(t, final)
			if tt.apiKey == "" && tt.tok == "" {
				assert.Nil(t, got, "a request was sent")
				assert.Equal(t, agentcore.StopError, final.StopReason)
				assert.Equal(t, tt.text, final.ErrorMessage)
				return
			}
			require.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
			assert.Equal(t, tt.apiKey, got.Get("X-Goog-Api-Key"))
			assert.Equal(t, tt.tok, got.Get("Authorization"))
		})
	}
}
