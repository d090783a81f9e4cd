package openai

import (
	"encoding/json"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/thinklevel/thinkleveltest"
)

// TestThinkingMatchesReference compares the reasoning fields of every
// catalog Chat Completions model at every level with pi-ai's, for the
// thinking formats this package speaks (openai and openrouter).
func TestThinkingMatchesReference(t *testing.T) {
	skip := thinkleveltest.SkipCompat("thinkingFormat", "openai", "openrouter")
	thinkleveltest.Check(t, []string{"reasoning", "reasoning_effort"}, skip, func(model agentcore.Model, level agentcore.ThinkingLevel) ([]byte, error) {
		s, err := resolveSettings(Options{}, model, model.BaseURL)
		if err != nil {
			return nil, err
		}
		return json.Marshal(buildRequest(model, nil, agentcore.StreamOptions{Reasoning: level}, s))
	})
}
