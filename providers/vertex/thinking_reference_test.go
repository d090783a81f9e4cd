package vertex

import (
	"encoding/json"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/thinklevel/thinkleveltest"
)

// TestThinkingMatchesReference compares the thinking config of every
// catalog Vertex model at every level with pi-ai's (Vertex gives Flash
// Lite models Flash's budgets).
func TestThinkingMatchesReference(t *testing.T) {
	build := thinkleveltest.Stream(StreamFn(Options{Getenv: func(string) string { return "" }}))
	thinkleveltest.Check(t, []string{"thinkingConfig"}, nil, func(model agentcore.Model, level agentcore.ThinkingLevel) ([]byte, error) {
		body, err := build(model, level)
		if err != nil {
			return nil, err
		}
		var req struct {
			GenerationConfig json.RawMessage `json:"generationConfig"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			return nil, err
		}
		return req.GenerationConfig, nil
	})
}
