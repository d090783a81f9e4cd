package models_test

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/models"
)

// TestIsContextOverflowMatchesReference checks every answer pi-ai 1.6.0's
// isContextOverflow gave in testdata/overflow.pi.json (written by
// testdata/overflow.mjs): the overflow texts of every provider it lists,
// ordinary and rate-limit errors, and the edges of its usage checks.
func TestIsContextOverflowMatchesReference(t *testing.T) {
	data, err := os.ReadFile("testdata/overflow.pi.json")
	require.NoError(t, err)
	var cases []struct {
		Name          string                     `json:"name"`
		ContextWindow int                        `json:"contextWindow"`
		Message       agentcore.AssistantMessage `json:"message"`
		Overflow      bool                       `json:"overflow"`
	}
	require.NoError(t, json.Unmarshal(data, &cases))
	require.Greater(t, len(cases), 300)
	for _, c := range cases {
		assert.Equal(t, c.Overflow, models.IsContextOverflow(c.Message, c.ContextWindow), c.Name)
	}
}

func ExampleIsContextOverflow() {
	msg := agentcore.AssistantMessage{
		Provider:     "anthropic",
		StopReason:   agentcore.StopError,
		ErrorMessage: "prompt is too long: 213462 tokens > 200000 maximum",
	}
	fmt.Println(models.IsContextOverflow(msg, 200000))
	msg.ErrorMessage = "rate limit reached"
	fmt.Println(models.IsContextOverflow(msg, 200000))
	// Output:
	// true
	// false
}
