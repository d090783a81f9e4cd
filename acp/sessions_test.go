package acp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/acp"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/session"
)

func TestLoadAndListSessions(t *testing.T) {
	tc := agentcoretest.ToolCall
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(tc("l1", "ls", map[string]any{})),
		agentcoretest.ThinkingResponse("Listing done.", "Nothing here."),
		agentcoretest.TextResponse("Elsewhere too."),
		agentcoretest.TextResponse("Still nothing."),
	)
	dir, cwd, other := t.TempDir(), t.TempDir(), t.TempDir()
	opts := acp.Options{AgentDir: dir, Agent: codingAgent(fake)}
	c := serve(t, acp.NewServer(opts), nil)
	c.initialize(nil)
	id := c.newSession(cwd)
	assert.Equal(t, "end_turn", c.prompt(id, "what is here?"))
	id2 := c.newSession(other)
	assert.Equal(t, "end_turn", c.prompt(id2, "and there?"))
	require.NoError(t, c.hangUp())

	c2 := serve(t, acp.NewServer(opts), nil)
	c2.initialize(nil)
	type listed struct {
		Sessions []struct {
			SessionID, Cwd, Title, UpdatedAt string
		} `json:"sessions"`
		NextCursor string `json:"nextCursor"`
	}
	var all, mine listed
	require.NoError(t, json.Unmarshal(c2.call("session/list", map[string]any{}), &all))
	require.Len(t, all.Sessions, 2)
	require.NoError(t, json.Unmarshal(c2.call("session/list", map[string]any{"cwd": cwd}), &mine))
	require.Len(t, mine.Sessions, 1)
	assert.Equal(t, id, mine.Sessions[0].SessionID)
	assert.Equal(t, cwd, mine.Sessions[0].Cwd)
	assert.Equal(t, "what is here?", mine.Sessions[0].Title)
	assert.NotEmpty(t, mine.Sessions[0].UpdatedAt)

	c2.call("session/load", map[string]any{"sessionId": id, "cwd": cwd, "mcpServers": []any{}})
	us := c2.updates()
	assert.Equal(t, []string{"user_message_chunk", "tool_call", "tool_call_update", "agent_thought_chunk", "agent_message_chunk"}, kinds(us))
	assert.Equal(t, "what is here?", text(us, "user_message_chunk"))
	assert.Equal(t, "Nothing here.", text(us, "agent_message_chunk"))
	assert.Equal(t, "completed", of(us, "tool_call_update")[0]["status"])
	// The loaded session goes on where it was.
	assert.Equal(t, "end_turn", c2.prompt(id, "again?"))
	calls := fake.Calls()
	assert.Len(t, calls[len(calls)-1].Request.Messages, 6)

	e := c2.callErr("session/load", map[string]any{"sessionId": "nope", "cwd": cwd, "mcpServers": []any{}})
	assert.Equal(t, acp.CodeNotFound, e.Code)
	e = c2.callErr("session/load", map[string]any{"sessionId": id, "cwd": cwd, "mcpServers": []any{}})
	assert.Equal(t, acp.CodeInvalidRequest, e.Code, "already open")
}

func TestSetMode(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.TextResponse("ok"))
	var seen string
	opts := acp.Options{Ephemeral: true, Modes: []acp.Mode{{ID: "ask", Name: "Ask"}, {ID: "code", Name: "Code"}}}
	agent := codingAgent(fake)
	var mode func() string
	opts.Agent = func(ctx context.Context, env *acp.Env) (agentcore.Options, error) {
		mode = env.Mode
		return agent(ctx, env)
	}
	c := serve(t, acp.NewServer(opts), nil)
	c.initialize(nil)
	var res struct {
		SessionID string
		Modes     struct {
			CurrentModeID  string `json:"currentModeId"`
			AvailableModes []any  `json:"availableModes"`
		}
	}
	require.NoError(t, json.Unmarshal(c.call("session/new", map[string]any{"cwd": t.TempDir(), "mcpServers": []any{}}), &res))
	assert.Equal(t, "ask", res.Modes.CurrentModeID)
	assert.Len(t, res.Modes.AvailableModes, 2)
	c.call("session/set_mode", map[string]any{"sessionId": res.SessionID, "modeId": "code"})
	seen = mode()
	assert.Equal(t, "code", seen)
	e := c.callErr("session/set_mode", map[string]any{"sessionId": res.SessionID, "modeId": "fly"})
	assert.Equal(t, acp.CodeInvalidParams, e.Code)
	require.Eventually(t, func() bool { return len(of(c.updates(), "current_mode_update")) == 1 }, waitLong, pollEvery)
}

func TestPlan(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(agentcoretest.ToolCall("t1", "todo", map[string]any{})), agentcoretest.TextResponse("planned"))
	var plan func([]acp.PlanEntry)
	todo := agentcore.NewTool("todo", "Plans.", func(context.Context, string, struct{}, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		plan([]acp.PlanEntry{{Content: "read the code", Status: "completed"}, {Content: "fix the bug", Priority: "high"}})
		return agentcore.TextResult("planned"), nil
	})
	agent := codingAgent(fake, todo)
	c := serve(t, acp.NewServer(acp.Options{Ephemeral: true, Agent: func(ctx context.Context, env *acp.Env) (agentcore.Options, error) {
		plan = env.Plan
		return agent(ctx, env)
	}}), nil)
	c.initialize(nil)
	id := c.newSession(t.TempDir())
	assert.Equal(t, "end_turn", c.prompt(id, "plan"))
	plans := of(c.updates(), "plan")
	require.Len(t, plans, 1)
	assert.Equal(t, []any{
		map[string]any{"content": "read the code", "priority": "medium", "status": "completed"},
		map[string]any{"content": "fix the bug", "priority": "high", "status": "pending"},
	}, plans[0]["entries"])
}

// TestLoadPiSession loads a session file pi 1.6.0 wrote (session's
// fixture 03-tool-calls) and goes on with it.
func TestLoadPiSession(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "pi-tool-calls.jsonl"))
	require.NoError(t, err)
	agentDir, cwd := t.TempDir(), "/work/project"
	dir := session.Dir(agentDir, cwd)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "2026-12-04T20-22-06-985Z_01a242b8-a589-7794-8388-e483a8d5c550.jsonl"), data, 0o644))
	fake := agentcoretest.New(agentcoretest.TextResponse("Still a title."))
	c := serve(t, acp.NewServer(acp.Options{AgentDir: agentDir, Agent: codingAgent(fake)}), nil)
	c.initialize(nil)
	var listed struct {
		Sessions []struct{ SessionID, Title string } `json:"sessions"`
	}
	require.NoError(t, json.Unmarshal(c.call("session/list", map[string]any{"cwd": cwd}), &listed))
	require.Len(t, listed.Sessions, 1)
	id := listed.Sessions[0].SessionID
	assert.Equal(t, "01a242b8-a589-7794-8388-e483a8d5c550", id)
	assert.Equal(t, "read the readme", listed.Sessions[0].Title)
	c.call("session/load", map[string]any{"sessionId": id, "cwd": cwd, "mcpServers": []any{}})
	us := c.updates()
	assert.Equal(t, []string{"user_message_chunk", "agent_thought_chunk", "tool_call", "tool_call_update", "agent_message_chunk"}, kinds(us))
	assert.Equal(t, "Read README.md", of(us, "tool_call")[0]["title"])
	assert.Equal(t, "It has a title.", text(us, "agent_message_chunk"))
	assert.Equal(t, "end_turn", c.prompt(id, "and now?"))
	var roles []string
	for _, m := range fake.Calls()[0].Request.Messages {
		roles = append(roles, m.Role())
	}
	// The Agent leads with its system message (the tools declared), then the file.
	assert.Equal(t, []string{"system", "user", "assistant", "toolResult", "assistant", "user"}, roles)
}

func TestListSessionsRefusesRelativeCwd(t *testing.T) {
	c := serve(t, acp.NewServer(acp.Options{AgentDir: t.TempDir(), Agent: codingAgent(agentcoretest.New())}), nil)
	c.initialize(nil)
	for _, cwd := range []string{"rel", "./x", "../up"} {
		e := c.callErr("session/list", map[string]any{"cwd": cwd})
		assert.Equal(t, acp.CodeInvalidParams, e.Code, cwd)
	}
	c.call("session/list", map[string]any{"cwd": t.TempDir()})
}
