package anthropic

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// TestResponseFormatWire checks output_config.format on recorded wire traffic: the
// request body with the schema (testdata/response_format), and the
// streamed JSON text decoded into the answer.
func TestResponseFormatWire(t *testing.T) {
	model := agentcore.Model{ID: "claude-test", Provider: "anthropic", API: "anthropic-messages", MaxTokens: 4096}
	providertest.ResponseFormatWire(t, model, "", func(url string) agentcore.StreamFn {
		return StreamFn(Options{BaseURL: url, APIKey: "k"})
	})
}

// TestResponseFormatBesideEffort checks that the format joins the effort
// of adaptive thinking in one output_config.
func TestResponseFormatBesideEffort(t *testing.T) {
	model := agentcore.Model{ID: "claude-opus-4-6", Provider: "anthropic", API: "anthropic-messages", Reasoning: true, MaxTokens: 64000,
		Compat: json.RawMessage(`{"forceAdaptiveThinking":true}`)}
	s, err := resolveSettings(model, DefaultBaseURL)
	require.NoError(t, err)
	so := agentcore.StreamOptions{Reasoning: agentcore.ThinkingHigh, ResponseFormat: &agentcore.ResponseFormat{Schema: json.RawMessage(`{"type":"object"}`)}}
	body, err := json.Marshal(buildRequest(model, nil, so, s).body)
	require.NoError(t, err)
	var fields struct {
		OutputConfig json.RawMessage `json:"output_config"`
	}
	require.NoError(t, json.Unmarshal(body, &fields))
	assert.JSONEq(t, `{"effort":"high","format":{"type":"json_schema","schema":{"type":"object"}}}`, string(fields.OutputConfig))
}
