package acp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/acp"
	"github.com/pi-go/agentcore/agentcoretest"
)

// TestCancelRightAfterPrompt sends a cancel in the same write as its
// prompt: the server reads it before the prompt's handler has begun, and
// the prompt still ends cancelled rather than running on.
func TestCancelRightAfterPrompt(t *testing.T) {
	for i := range 20 {
		fake := agentcoretest.NewFunc(func(_ context.Context, call agentcoretest.Call) agentcoretest.Response {
			if _, ok := call.Request.Messages[len(call.Request.Messages)-1].(*agentcore.ToolResultMessage); ok {
				return agentcoretest.TextResponse("done")
			}
			return agentcoretest.ToolCallResponse(agentcoretest.ToolCall(fmt.Sprint("w", call.Index), "wait", map[string]any{}))
		})
		c := serve(t, acp.NewServer(acp.Options{Ephemeral: true, Agent: codingAgent(fake, blocker(make(chan struct{}, 100)))}), nil)
		c.initialize(nil)
		id := c.newSession(t.TempDir())
		ch := make(chan message, 1)
		c.mu.Lock()
		c.pending[`"p"`] = ch
		c.mu.Unlock()
		prompt, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "p", "method": "session/prompt",
			"params": map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": "wait"}}}})
		require.NoError(t, err)
		c.send(string(prompt) + "\n" + fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":%q}}`, id))
		m := c.wait(ch)
		require.Nil(t, m.Error)
		assert.JSONEq(t, `{"stopReason":"cancelled"}`, string(m.Result), "run %d", i)
	}
}
