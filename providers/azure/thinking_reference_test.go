package azure

import (
	"testing"

	"github.com/pi-go/agentcore/internal/thinklevel/thinkleveltest"
)

// TestThinkingMatchesReference compares the reasoning field of every
// catalog Azure model at every level with pi-ai's.
func TestThinkingMatchesReference(t *testing.T) {
	getenv := func(name string) string {
		if name == "AZURE_OPENAI_BASE_URL" {
			return "https://r.openai.azure.com/openai/v1"
		}
		return ""
	}
	thinkleveltest.Check(t, []string{"reasoning"}, nil, thinkleveltest.Stream(StreamFn(Options{Getenv: getenv})))
}
