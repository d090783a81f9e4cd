package anthropic

import (
	"encoding/json"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/thinklevel/thinkleveltest"
)

// TestThinkingMatchesReference compares the thinking fields of every
// catalog Messages model at every level with pi-ai's, but for models with
// mid-conversation effort, whose effort messages this package does not
// send.
func TestThinkingMatchesReference(t *testing.T) {
	skip := thinkleveltest.SkipCompat("supportsMidConvoEffort", false)
	thinkleveltest.Check(t, []string{"thinking", "output_config"}, skip, func(model agentcore.Model, level agentcore.ThinkingLevel) ([]byte, error) {
		s, err := resolveSettings(model, model.BaseURL)
		if err != nil {
			return nil, err
		}
		messages := []agentcore.Message{agentcore.UserText("hi")}
		return json.Marshal(buildRequest(model, messages, agentcore.StreamOptions{Reasoning: level}, s).body)
	})
}
