package openairesponses

import (
	"encoding/json"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/thinklevel/thinkleveltest"
)

// TestThinkingMatchesReference compares the reasoning field of every
// catalog Responses model at every level with pi-ai's.
func TestThinkingMatchesReference(t *testing.T) {
	thinkleveltest.Check(t, []string{"reasoning"}, nil, func(model agentcore.Model, level agentcore.ThinkingLevel) ([]byte, error) {
		s, err := resolveSettings(model, model.BaseURL, nil)
		if err != nil {
			return nil, err
		}
		req, err := buildRequest(requestInput{model: model, so: agentcore.StreamOptions{Reasoning: level}, s: s, base: model.BaseURL, key: "k"})
		if err != nil {
			return nil, err
		}
		return json.Marshal(req)
	})
}
