package bedrock

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pi-go/agentcore"
)

// TestEffortsReadTheLevelMap checks the efforts sent for Claude and GPT
// models with and without a thinking level map, as pi-ai's
// buildAdditionalModelRequestFields decides them.
func TestEffortsReadTheLevelMap(t *testing.T) {
	str := func(s string) *string { return &s }
	mapped := agentcore.ThinkingLevelMap{agentcore.ThinkingMedium: str("mid"), agentcore.ThinkingXHigh: str("top"), agentcore.ThinkingLow: nil}
	model := func(id string, m agentcore.ThinkingLevelMap) agentcore.Model {
		return agentcore.Model{ID: id, Provider: "amazon-bedrock", API: "bedrock-converse-stream", Reasoning: true, ThinkingLevelMap: m}
	}
	tests := []struct {
		name  string
		model agentcore.Model
		level agentcore.ThinkingLevel
		want  string
	}{
		{"claude, mapped", model("anthropic.claude-opus-4-6-v1", mapped), agentcore.ThinkingMedium, `"output_config":{"effort":"mid"}`},
		{"claude, mapped to nil", model("anthropic.claude-opus-4-6-v1", mapped), agentcore.ThinkingLow, `"output_config":{"effort":"low"}`},
		{"claude, no map", model("anthropic.claude-opus-4-6-v1", nil), agentcore.ThinkingMinimal, `"output_config":{"effort":"low"}`},
		{"claude, xhigh mapped", model("anthropic.claude-opus-4-6-v1", mapped), agentcore.ThinkingXHigh, `"output_config":{"effort":"top"}`},
		{"claude, native xhigh wins", model("anthropic.claude-opus-4-7", mapped), agentcore.ThinkingXHigh, `"output_config":{"effort":"xhigh"}`},
		{"gpt, mapped", model("openai.gpt-5.6-sol", mapped), agentcore.ThinkingMedium, `{"reasoning":{"effort":"mid"}}`},
		{"gpt, no map", model("openai.gpt-5.6-sol", nil), agentcore.ThinkingMinimal, `{"reasoning":{"effort":"low"}}`},
		{"gpt-oss ignores the map", model("openai.gpt-oss-120b-1:0", mapped), agentcore.ThinkingMedium, `{"reasoning_effort":"medium"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fields := additionalFields(tt.model, tt.level, 0, settings{})
			assert.True(t, json.Valid(fields))
			assert.Contains(t, string(fields), tt.want)
		})
	}
}
