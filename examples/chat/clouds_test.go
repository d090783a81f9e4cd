package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSmokeClouds drives the program on Azure OpenAI, Vertex AI and
// Mistral as main does, each found by its key in the environment and
// reached through the dispatcher: the path and credential the server
// sees, and the answer.
func TestSmokeClouds(t *testing.T) {
	responses := func(w http.ResponseWriter) {
		for _, data := range []string{
			`{"type":"response.output_item.added","output_index":0,"item":{"id":"msg_1","type":"message","role":"assistant","content":[]}}`,
			`{"type":"response.output_text.delta","output_index":0,"delta":"Hello."}`,
			`{"type":"response.output_item.done","output_index":0,"item":{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"output_text","text":"Hello."}]}}`,
			`{"type":"response.completed","response":{"id":"resp_1","status":"completed","usage":{"input_tokens":1,"output_tokens":1,"total_tokens":2}}}`,
		} {
			fmt.Fprintf(w, "data: %s\n\n", data)
		}
	}
	tests := []struct {
		name, path, header, key string
		env                     func(url string) map[string]string
		answer                  func(w http.ResponseWriter)
	}{
		{name: "azure", path: "/openai/v1/responses", header: "Api-Key", key: "az-test", answer: responses,
			env: func(url string) map[string]string {
				return map[string]string{"AZURE_OPENAI_API_KEY": "az-test", "AZURE_OPENAI_BASE_URL": url + "/openai/v1"}
			}},
		{name: "mistral", path: "/v1/chat/completions", header: "Authorization", key: "Bearer mi-test",
			env: func(url string) map[string]string {
				return map[string]string{"MISTRAL_API_KEY": "mi-test", "MISTRAL_BASE_URL": url}
			},
			answer: func(w http.ResponseWriter) {
				fmt.Fprint(w, `data: {"id":"c","choices":[{"index":0,"delta":{"content":"Hello."},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				assert.Equal(t, tt.path, r.URL.Path)
				assert.Equal(t, tt.key, r.Header.Get(tt.header))
				w.Header().Set("Content-Type", "text/event-stream")
				tt.answer(w)
			}))
			t.Cleanup(srv.Close)
			env := tt.env(srv.URL)
			out := newLockedBuffer()
			require.NoError(t, run(t.Context(), strings.NewReader("Hi\n"), out, func(k string) string { return env[k] }))
			assert.Contains(t, out.String(), "Hello.\n")
		})
	}
}

func TestConfigClouds(t *testing.T) {
	tests := []struct {
		name, provider, api, baseURL string
		env                          map[string]string
	}{
		{name: "azure by key", env: map[string]string{"AZURE_OPENAI_API_KEY": "k", "AZURE_OPENAI_RESOURCE_NAME": "res"}, provider: "azure", api: "azure-openai-responses", baseURL: "https://res.openai.azure.com/openai/v1"},
		{name: "vertex by key", env: map[string]string{"GOOGLE_CLOUD_API_KEY": "k"}, provider: "google-vertex", api: "google-vertex", baseURL: "https://aiplatform.googleapis.com"},
		{name: "mistral by key", env: map[string]string{"MISTRAL_API_KEY": "k"}, provider: "mistral", api: "mistral-conversations", baseURL: "https://api.mistral.ai"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := config(func(k string) string { return tt.env[k] })
			require.NoError(t, err)
			assert.Equal(t, tt.provider, c.model.Provider)
			assert.Equal(t, tt.api, c.model.API)
			assert.Equal(t, tt.baseURL, c.baseURL)
		})
	}
}
