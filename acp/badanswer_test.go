package acp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore/acp"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/hold"
)

// TestMalformedAnswer: a client's answer to the server's request that is
// not a JSON-RPC response fails that request (a permission so answered is
// a refusal) rather than leaving it waiting for ever.
func TestMalformedAnswer(t *testing.T) {
	for _, tt := range []struct{ name, answer string }{
		{"no jsonrpc", `{"id":%s,"result":{"outcome":{"outcome":"selected","optionId":"allow_once"}}}`},
		{"bad error", `{"jsonrpc":"2.0","id":%s,"error":"no"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tc := agentcoretest.ToolCall
			fake := agentcoretest.New(agentcoretest.ToolCallResponse(tc("w1", "write", map[string]any{"path": "a.txt", "content": "x"})), agentcoretest.TextResponse("after"))
			never := make(chan struct{})
			t.Cleanup(func() { close(never) })
			opts := acp.Options{Ephemeral: true, Agent: codingAgent(fake), Permission: hold.Always(hold.Request{}, "write")}
			c := serve(t, acp.NewServer(opts), func(string, json.RawMessage) (any, *acp.Error) {
				<-never // the well-formed answer comes too late to matter
				return nil, &acp.Error{Code: acp.CodeInternalError, Message: "late"}
			})
			c.initialize(nil)
			cwd := t.TempDir()
			id := c.newSession(cwd)
			ch := c.start("session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": "write"}}})
			var reqID json.RawMessage
			require.Eventually(t, func() bool {
				c.mu.Lock()
				defer c.mu.Unlock()
				for _, m := range c.all {
					if m.Method == "session/request_permission" {
						reqID = m.ID
						return true
					}
				}
				return false
			}, waitLong, pollEvery)
			c.send(fmt.Sprintf(tt.answer, reqID))
			m := c.wait(ch)
			require.Nil(t, m.Error)
			assert.JSONEq(t, `{"stopReason":"end_turn"}`, string(m.Result))
			_, err := os.Stat(filepath.Join(cwd, "a.txt"))
			assert.ErrorIs(t, err, os.ErrNotExist, "refused")
			c.mu.Lock()
			defer c.mu.Unlock()
			for _, m := range c.all {
				assert.False(t, m.Method == "" && m.Error != nil && string(m.ID) == string(reqID), "no answer to an answer")
			}
		})
	}
}
