package providers

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

func TestLookupModel(t *testing.T) {
	tests := []struct {
		name, model, baseURL string
		want                 agentcore.Model
		err                  error
	}{
		{name: "catalog", model: "anthropic/claude-fable-5",
			want: agentcore.Model{ID: "claude-fable-5", Provider: "anthropic", API: AnthropicMessages, BaseURL: "https://api.anthropic.com", ContextWindow: 1000000}},
		{name: "catalog at another server", model: "anthropic/claude-fable-5", baseURL: "http://127.0.0.1:9000",
			want: agentcore.Model{ID: "claude-fable-5", Provider: "anthropic", API: AnthropicMessages, BaseURL: "http://127.0.0.1:9000", ContextWindow: 1000000}},
		{name: "an ID with slashes", model: "openrouter/anthropic/claude-fable-5",
			want: agentcore.Model{ID: "anthropic/claude-fable-5", Provider: "openrouter", API: AnthropicMessages, BaseURL: "https://openrouter.ai/api", ContextWindow: 1000000}},
		{name: "local server", model: "ollama/qwen3", baseURL: "{ollama}/v1",
			want: agentcore.Model{ID: "qwen3", Provider: "ollama", API: OpenAICompletions, BaseURL: "{ollama}/v1", ContextWindow: 131072}},
		{name: "local server without a provider", model: "qwen3", baseURL: "{ollama}/v1",
			want: agentcore.Model{ID: "qwen3", Provider: LocalProvider, API: OpenAICompletions, BaseURL: "{ollama}/v1", ContextWindow: 131072}},
		{name: "unknown", model: "anthropic/nope", err: ErrUnknownModel},
		{name: "empty", model: "", baseURL: "http://127.0.0.1:8080/v1", err: ErrUnknownModel},
	}
	ollama := fakeServer(t, map[string]string{"POST /api/show": "ollama-show.json"})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.baseURL = strings.ReplaceAll(tt.baseURL, "{ollama}", ollama.URL)
			tt.want.BaseURL = strings.ReplaceAll(tt.want.BaseURL, "{ollama}", ollama.URL)
			m, err := LookupModel(context.Background(), tt.model, tt.baseURL)
			if tt.err != nil {
				assert.ErrorIs(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			got := agentcore.Model{ID: m.ID, Provider: m.Provider, API: m.API, BaseURL: m.BaseURL, ContextWindow: m.ContextWindow}
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestCatalogModelReportsCost streams a catalog model's answer through the
// dispatcher: the usage comes priced at the catalog's rates.
func TestCatalogModelReportsCost(t *testing.T) {
	seen := make(chan request, 1)
	srv := serve(t, anthropicBody, seen)
	m, err := LookupModel(context.Background(), "anthropic/claude-fable-5", srv.URL)
	require.NoError(t, err)
	msg := final(t, New(Options{NoEnvKeys: true}).Stream, m, agentcore.StreamOptions{APIKey: "k"})
	require.Equal(t, agentcore.StopStop, msg.StopReason, msg.ErrorMessage)
	<-seen
	assert.InDelta(t, 10.0/1e6+50.0/1e6, msg.Usage.Cost.Total, 1e-12, "1 input and 1 output token at $10 and $50 a million")
}
