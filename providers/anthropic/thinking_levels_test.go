package anthropic

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// TestThinkingReadsTheLevelMap checks the thinking fields sent for models
// with pi-ai's level maps: the adaptive effort comes from the map, and a
// model whose map makes off unsupported gets no thinking field when off.
func TestThinkingReadsTheLevelMap(t *testing.T) {
	str := func(s string) *string { return &s }
	fable := agentcore.Model{ID: "claude-fable-5", Provider: "anthropic", API: "anthropic-messages", Reasoning: true, MaxTokens: 128000,
		Compat:           json.RawMessage(`{"forceAdaptiveThinking":true}`),
		ThinkingLevelMap: agentcore.ThinkingLevelMap{agentcore.ThinkingOff: nil, agentcore.ThinkingXHigh: str("xhigh"), agentcore.ThinkingMax: str("max")},
	}
	plain := fable
	plain.ThinkingLevelMap = nil
	tests := []struct {
		name  string
		model agentcore.Model
		level agentcore.ThinkingLevel
		want  string // the thinking and output_config fields, as JSON
	}{
		{"mapped xhigh", fable, agentcore.ThinkingXHigh, `{"thinking":{"type":"adaptive","display":"summarized"},"output_config":{"effort":"xhigh"}}`},
		{"unmapped low", fable, agentcore.ThinkingLow, `{"thinking":{"type":"adaptive","display":"summarized"},"output_config":{"effort":"low"}}`},
		{"no map, xhigh is high", plain, agentcore.ThinkingXHigh, `{"thinking":{"type":"adaptive","display":"summarized"},"output_config":{"effort":"high"}}`},
		{"off unsupported", fable, "", `{}`},
		{"off", plain, "", `{"thinking":{"type":"disabled"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := resolveSettings(tt.model, DefaultBaseURL)
			require.NoError(t, err)
			body, err := json.Marshal(buildRequest(tt.model, nil, agentcore.StreamOptions{Reasoning: tt.level}, s).body)
			require.NoError(t, err)
			var fields map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(body, &fields))
			got := map[string]json.RawMessage{}
			for _, k := range []string{"thinking", "output_config"} {
				if v, ok := fields[k]; ok {
					got[k] = v
				}
			}
			gotJSON, err := json.Marshal(got)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(gotJSON))
		})
	}
}
