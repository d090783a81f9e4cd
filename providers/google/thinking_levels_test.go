package google

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// TestThinkingForReadsTheLevelMap checks the thinking config of models
// with pi-ai's level maps (Gemini 3 cannot turn thinking off; Gemma 4
// maps levels to upper-case values) and of one without a map.
func TestThinkingForReadsTheLevelMap(t *testing.T) {
	str := func(s string) *string { return &s }
	gemini3 := agentcore.Model{ID: "gemini-3.1-pro-preview", Reasoning: true, ThinkingLevelMap: agentcore.ThinkingLevelMap{
		agentcore.ThinkingOff: nil, agentcore.ThinkingMinimal: nil, agentcore.ThinkingLow: str("low"), agentcore.ThinkingMedium: str("medium"),
		agentcore.ThinkingHigh: str("high"), agentcore.ThinkingXHigh: nil, agentcore.ThinkingMax: nil,
	}}
	gemma := agentcore.Model{ID: "gemma-4-31b-it", Reasoning: true, ThinkingLevelMap: agentcore.ThinkingLevelMap{
		agentcore.ThinkingOff: nil, agentcore.ThinkingMinimal: str("MINIMAL"), agentcore.ThinkingLow: nil, agentcore.ThinkingMedium: nil, agentcore.ThinkingHigh: str("HIGH"),
	}}
	plain := agentcore.Model{ID: "gemini-2.5-flash", Reasoning: true}
	tests := []struct {
		name  string
		model agentcore.Model
		level agentcore.ThinkingLevel
		want  string
	}{
		{"gemini 3 off is its lowest level", gemini3, "", `{"thinkingLevel":"LOW"}`},
		{"gemini 3 minimal clamps up", gemini3, agentcore.ThinkingMinimal, `{"includeThoughts":true,"thinkingLevel":"LOW"}`},
		{"gemini 3 max clamps down", gemini3, agentcore.ThinkingMax, `{"includeThoughts":true,"thinkingLevel":"HIGH"}`},
		{"gemma maps and lowers", gemma, agentcore.ThinkingLow, `{"includeThoughts":true,"thinkingLevel":"HIGH"}`},
		{"gemma off", gemma, "", `{"thinkingLevel":"MINIMAL"}`},
		{"gemma asked for off clamps to its lowest", gemma, agentcore.ThinkingOff, `{"includeThoughts":true,"thinkingLevel":"MINIMAL"}`},
		{"no map, asked for off", plain, agentcore.ThinkingOff, `{"thinkingBudget":0}`},
		{"no map, off", plain, "", `{"thinkingBudget":0}`},
		{"no map, xhigh is high", plain, agentcore.ThinkingXHigh, `{"includeThoughts":true,"thinkingBudget":24576}`},
		{"no map, unknown level", plain, "turbo", `{"thinkingBudget":0}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(thinkingFor(tt.model, agentcore.StreamOptions{Reasoning: tt.level}, false))
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(got))
		})
	}
}
