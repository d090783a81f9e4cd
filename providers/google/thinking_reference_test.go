package google

import (
	"encoding/json"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/thinklevel/thinkleveltest"
)

// TestThinkingMatchesReference compares the thinking config of every
// catalog Gemini model at every level with pi-ai's.
func TestThinkingMatchesReference(t *testing.T) {
	thinkleveltest.Check(t, []string{"thinkingConfig"}, nil, func(model agentcore.Model, level agentcore.ThinkingLevel) ([]byte, error) {
		return json.Marshal(map[string]any{"thinkingConfig": thinkingFor(model, agentcore.StreamOptions{Reasoning: level}, false)})
	})
}
