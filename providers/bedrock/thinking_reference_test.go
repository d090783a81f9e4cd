package bedrock

import (
	"encoding/json"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/thinklevel/thinkleveltest"
)

// TestThinkingMatchesReference compares the thinking fields and the
// inference config of every catalog Bedrock model at every level with
// pi-ai's. Level off is left out: pi-ai's streamSimple takes it as a
// level to think at and sends a budget of null, where this package turns
// thinking off, as the agent loop's no level does.
func TestThinkingMatchesReference(t *testing.T) {
	skip := func(_ agentcore.Model, level agentcore.ThinkingLevel) string {
		if level == agentcore.ThinkingOff {
			return "level off"
		}
		return ""
	}
	messages := []agentcore.Message{&agentcore.UserMessage{Content: agentcore.Text("hi"), Timestamp: 1}}
	thinkleveltest.Check(t, []string{"additionalModelRequestFields", "inferenceConfig"}, skip, func(model agentcore.Model, level agentcore.ThinkingLevel) ([]byte, error) {
		req, err := buildRequest(model, messages, agentcore.StreamOptions{Reasoning: level}, settings{cache: "short"})
		if err != nil {
			return nil, err
		}
		return json.Marshal(req)
	})
}
