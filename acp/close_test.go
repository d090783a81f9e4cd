package acp_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore/acp"
	"github.com/pi-go/agentcore/agentcoretest"
)

// TestCloseSession: session/close cancels the running prompt, waits for
// it, releases the session's file (another client loads it, whole) and
// forgets the session.
func TestCloseSession(t *testing.T) {
	tc := agentcoretest.ToolCall
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(tc("w1", "wait", map[string]any{})))
	fake.Append(agentcoretest.TextResponse("unheard"), agentcoretest.TextResponse("after"))
	started := make(chan struct{}, 1)
	dir, cwd := t.TempDir(), t.TempDir()
	opts := acp.Options{AgentDir: dir, Agent: codingAgent(fake, blocker(started))}
	c := serve(t, acp.NewServer(opts), nil)
	res := c.initialize(nil)
	caps := res["agentCapabilities"].(map[string]any)["sessionCapabilities"].(map[string]any)
	assert.Equal(t, map[string]any{}, caps["close"])
	id := c.newSession(cwd)
	ch := c.start("session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": "wait"}}})
	<-started
	c.call("session/close", map[string]any{"sessionId": id})
	m := c.wait(ch)
	require.Nil(t, m.Error)
	assert.JSONEq(t, `{"stopReason":"cancelled"}`, string(m.Result))

	e := c.callErr("session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": "hi"}}})
	assert.Equal(t, acp.CodeNotFound, e.Code)
	assert.Equal(t, acp.CodeNotFound, c.callErr("session/close", map[string]any{"sessionId": id}).Code)

	// Its file is released: this connection loads it again and goes on.
	c.call("session/load", map[string]any{"sessionId": id, "cwd": cwd, "mcpServers": []any{}})
	assert.Equal(t, "end_turn", c.prompt(id, "again"))
}

// TestSessionsAreBounded: a connection holds at most 1024 sessions open;
// closing one makes room.
func TestSessionsAreBounded(t *testing.T) {
	c := serve(t, acp.NewServer(acp.Options{Ephemeral: true, Agent: codingAgent(agentcoretest.New())}), nil)
	c.initialize(nil)
	cwd := t.TempDir()
	var first string
	for i := range 1024 {
		id := c.newSession(cwd)
		if i == 0 {
			first = id
		}
	}
	e := c.callErr("session/new", map[string]any{"cwd": cwd, "mcpServers": []any{}})
	assert.Equal(t, acp.CodeInternalError, e.Code)
	assert.Contains(t, e.Message, "too many sessions")
	c.call("session/close", map[string]any{"sessionId": first})
	assert.NotEmpty(t, c.newSession(cwd))
}
