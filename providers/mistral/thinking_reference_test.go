package mistral

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/thinklevel/thinkleveltest"
)

// TestThinkingMatchesReference compares the reasoning fields of every
// catalog Mistral model at every level with pi-ai's.
func TestThinkingMatchesReference(t *testing.T) {
	thinkleveltest.Check(t, []string{"prompt_mode", "reasoning_effort"}, nil, func(model agentcore.Model, level agentcore.ThinkingLevel) ([]byte, error) {
		req, err := buildRequest(model, nil, agentcore.StreamOptions{Reasoning: level}, settings{})
		if err != nil {
			return nil, err
		}
		return json.Marshal(req)
	})
}

// TestReasoningReadsTheLevelMap checks reasoning_effort and prompt_mode
// for models with and without a thinking level map.
func TestReasoningReadsTheLevelMap(t *testing.T) {
	str := func(s string) *string { return &s }
	mapped := agentcore.ThinkingLevelMap{agentcore.ThinkingOff: str("none"), agentcore.ThinkingMinimal: nil, agentcore.ThinkingMedium: str("mid")}
	model := func(reasoning bool, m agentcore.ThinkingLevelMap) agentcore.Model {
		return agentcore.Model{ID: "m", Provider: "mistral", API: "mistral-conversations", Reasoning: reasoning, ThinkingLevelMap: m}
	}
	tests := []struct {
		name               string
		model              agentcore.Model
		level              agentcore.ThinkingLevel
		effort, promptMode string
	}{
		{"no map, thinking", model(true, nil), agentcore.ThinkingHigh, "", "reasoning"},
		{"no map, no level", model(true, nil), "", "", ""},
		{"no map, off", model(true, nil), agentcore.ThinkingOff, "", ""},
		{"no reasoning", model(false, mapped), agentcore.ThinkingHigh, "", ""},
		{"mapped level", model(true, mapped), agentcore.ThinkingMedium, "mid", ""},
		{"unmapped level", model(true, mapped), agentcore.ThinkingLow, "high", ""},
		{"level clamped up", model(true, mapped), agentcore.ThinkingMinimal, "high", ""},
		{"no level sends off's value", model(true, mapped), "", "none", ""},
		{"off sends off's value", model(true, mapped), agentcore.ThinkingOff, "none", ""},
		{"off unmapped", model(true, agentcore.ThinkingLevelMap{}), "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := buildRequest(tt.model, nil, agentcore.StreamOptions{Reasoning: tt.level}, settings{})
			require.NoError(t, err)
			assert.Equal(t, tt.effort, req.ReasoningEffort)
			assert.Equal(t, tt.promptMode, req.PromptMode)
		})
	}
}
