package acp_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/acp"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/hold"
)

// A long session keeps no finished tool call: plain calls, calls held and
// approved, and calls held and refused as the prompt was cancelled.
func TestToolTrackerForgetsFinishedCalls(t *testing.T) {
	tc := agentcoretest.ToolCall
	var script []agentcoretest.Response
	const prompts = 20
	for i := range prompts {
		script = append(script,
			agentcoretest.ToolCallResponse(tc(fmt.Sprint("l", i), "ls", map[string]any{})),
			agentcoretest.ToolCallResponse(tc(fmt.Sprint("w", i), "write", map[string]any{"path": "a.txt", "content": fmt.Sprint(i)})),
			agentcoretest.TextResponse("done"))
	}
	script = append(script,
		agentcoretest.ToolCallResponse(tc("wc", "write", map[string]any{"path": "b.txt", "content": "x"})),
		agentcoretest.TextResponse("after the refusal"))
	fake := agentcoretest.New(script...)
	var env *acp.Env
	agent := codingAgent(fake)
	opts := acp.Options{Ephemeral: true, Permission: hold.Always(hold.Request{}, "write"),
		Agent: func(ctx context.Context, e *acp.Env) (agentcore.Options, error) {
			env = e
			return agent(ctx, e)
		}}
	a := &answers{}
	for range prompts {
		a.options = append(a.options, "allow_once")
	}
	a.options = append(a.options, "cancelled")
	c := serve(t, acp.NewServer(opts), a.answer)
	c.initialize(nil)
	id := c.newSession(t.TempDir())
	for range prompts {
		assert.Equal(t, "end_turn", c.prompt(id, "list and write"))
	}
	assert.Equal(t, "cancelled", c.prompt(id, "write b"))
	assert.Equal(t, "end_turn", c.prompt(id, "go on"))
	assert.Equal(t, prompts+1, a.asked)
	assert.Zero(t, acp.TrackedCalls(env))
}
