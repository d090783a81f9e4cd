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

func TestInitialize(t *testing.T) {
	for _, tc := range []struct {
		name      string
		opts      acp.Options
		version   int
		loadable  bool
		authCount int
	}{
		{"version 1", acp.Options{AgentDir: t.TempDir()}, 1, true, 0},
		{"a later version gets 1", acp.Options{AgentDir: t.TempDir()}, 7, true, 0},
		{"ephemeral", acp.Options{Ephemeral: true}, 1, false, 0},
		{"auth methods", acp.Options{Ephemeral: true, AuthMethods: []acp.AuthMethod{{ID: "key", Name: "API key"}}}, 1, false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := serve(t, acp.NewServer(tc.opts), nil)
			var res struct {
				ProtocolVersion   int `json:"protocolVersion"`
				AgentCapabilities struct {
					LoadSession        bool `json:"loadSession"`
					PromptCapabilities struct {
						Image, Audio, EmbeddedContext bool
					} `json:"promptCapabilities"`
					SessionCapabilities map[string]any `json:"sessionCapabilities"`
				} `json:"agentCapabilities"`
				AuthMethods []any `json:"authMethods"`
				AgentInfo   struct{ Name string }
			}
			raw := c.call("initialize", map[string]any{"protocolVersion": tc.version, "clientCapabilities": map[string]any{}})
			require.NoError(t, json.Unmarshal(raw, &res))
			assert.Equal(t, 1, res.ProtocolVersion)
			assert.Equal(t, tc.loadable, res.AgentCapabilities.LoadSession)
			assert.True(t, res.AgentCapabilities.PromptCapabilities.Image)
			assert.True(t, res.AgentCapabilities.PromptCapabilities.EmbeddedContext)
			assert.False(t, res.AgentCapabilities.PromptCapabilities.Audio)
			_, listed := res.AgentCapabilities.SessionCapabilities["list"]
			assert.Equal(t, tc.loadable, listed)
			assert.Len(t, res.AuthMethods, tc.authCount)
			assert.Equal(t, "agentcore", res.AgentInfo.Name)
		})
	}
}

func TestPromptStreamsTextAndThoughts(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.Response{
		Content: []agentcore.ContentBlock{agentcore.ThinkingBlock{Thinking: "The user greets."}, agentcore.TextBlock{Text: "Hello from Go"}},
		Chunks:  3,
		Usage:   agentcore.Usage{Input: 100, Output: 20, Cost: agentcore.Cost{Total: 0.25}},
	})
	dir := t.TempDir()
	c := serve(t, acp.NewServer(acp.Options{AgentDir: dir, Agent: codingAgent(fake)}), nil)
	c.initialize(nil)
	cwd := t.TempDir()
	id := c.newSession(cwd)
	assert.Equal(t, "end_turn", c.prompt(id, "hi"))
	us := c.updates()
	assert.Equal(t, "Hello from Go", text(us, "agent_message_chunk"))
	assert.Equal(t, "The user greets.", text(us, "agent_thought_chunk"))
	assert.Len(t, of(us, "agent_message_chunk"), 3, "streamed in chunks")
	usage := of(us, "usage_update")
	require.Len(t, usage, 1)
	assert.EqualValues(t, 120, usage[0]["used"])
	assert.EqualValues(t, 1000, usage[0]["size"])
	assert.Equal(t, map[string]any{"amount": 0.25, "currency": "USD"}, usage[0]["cost"])
	for _, u := range us {
		assert.Equal(t, id, u.SessionID)
	}

	// The session file holds the conversation, as pi writes it.
	infos, err := session.List(session.Dir(dir, cwd))
	require.NoError(t, err)
	require.Len(t, infos, 1)
	assert.Equal(t, id, infos[0].ID)
	assert.Equal(t, 2, infos[0].MessageCount)
}

func TestPromptContentBlocks(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.TextResponse("seen"))
	c := serve(t, acp.NewServer(acp.Options{Ephemeral: true, Agent: codingAgent(fake),
		Commands: []acp.Command{{Name: "review", Description: "Review a file", Hint: "file", Expand: func(in string) string { return "Please review " + in }}}}), nil)
	c.initialize(nil)
	id := c.newSession(t.TempDir())
	text := "fn main() {}"
	c.call("session/prompt", map[string]any{"sessionId": id, "prompt": []any{
		map[string]any{"type": "text", "text": "/review main.rs"},
		map[string]any{"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
		map[string]any{"type": "resource_link", "uri": "file:///w/a.go", "name": "a.go"},
		map[string]any{"type": "resource", "resource": map[string]any{"uri": "file:///w/main.rs", "text": text, "mimeType": "text/rust"}},
	}})
	calls := fake.Calls()
	require.Len(t, calls, 1)
	msgs := calls[0].Request.Messages
	u := msgs[len(msgs)-1].(*agentcore.UserMessage)
	require.Len(t, u.Content.Blocks, 4)
	assert.Equal(t, agentcore.TextBlock{Text: "Please review main.rs"}, u.Content.Blocks[0])
	assert.Equal(t, agentcore.ImageBlock{Data: "iVBORw0KGgo=", MimeType: "image/png"}, u.Content.Blocks[1])
	assert.Equal(t, agentcore.TextBlock{Text: "[@a.go](file:///w/a.go)"}, u.Content.Blocks[2])
	assert.Equal(t, agentcore.TextBlock{Text: "<context ref=\"file:///w/main.rs\">\nfn main() {}\n</context>"}, u.Content.Blocks[3])
	// The commands follow the session/new response, on their own time.
	require.Eventually(t, func() bool { return len(of(c.updates(), "available_commands_update")) == 1 }, waitLong, pollEvery)
	cmds := of(c.updates(), "available_commands_update")
	assert.Equal(t, []any{map[string]any{"name": "review", "description": "Review a file", "input": map[string]any{"hint": "file"}}}, cmds[0]["availableCommands"])
}

func TestToolCallsAndDiffs(t *testing.T) {
	cwd := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(cwd, "a.txt"), []byte("one\ntwo\nthree\n"), 0o644))
	tc := agentcoretest.ToolCall
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(tc("r1", "read", map[string]any{"path": "a.txt", "offset": 2})),
		agentcoretest.ToolCallResponse(tc("e1", "edit", map[string]any{"path": "a.txt", "edits": []any{map[string]any{"oldText": "two", "newText": "TWO"}}})),
		agentcoretest.ToolCallResponse(tc("w1", "write", map[string]any{"path": "b.txt", "content": "new\n"})),
		agentcoretest.ToolCallResponse(tc("x1", "read", map[string]any{"path": "missing.txt"})),
		agentcoretest.TextResponse("done"),
	)
	c := serve(t, acp.NewServer(acp.Options{Ephemeral: true, Agent: codingAgent(fake)}), nil)
	c.initialize(nil)
	id := c.newSession(cwd)
	assert.Equal(t, "end_turn", c.prompt(id, "edit"))
	us := c.updates()
	calls := of(us, "tool_call")
	require.Len(t, calls, 4)
	assert.Equal(t, "Read a.txt", calls[0]["title"])
	assert.Equal(t, "read", calls[0]["kind"])
	assert.Equal(t, "pending", calls[0]["status"])
	assert.Equal(t, []any{map[string]any{"path": filepath.Join(cwd, "a.txt"), "line": 2.0}}, calls[0]["locations"])
	assert.Equal(t, map[string]any{"path": "a.txt", "offset": 2.0}, calls[0]["rawInput"])
	assert.Equal(t, "edit", calls[1]["kind"])

	ends := map[string]map[string]any{}
	for _, u := range of(us, "tool_call_update") {
		if u["status"] == "completed" || u["status"] == "failed" {
			ends[u["toolCallId"].(string)] = u
		}
	}
	require.Len(t, ends, 4, "every call is answered")
	assert.Equal(t, "completed", ends["r1"]["status"])
	assert.Equal(t, "failed", ends["x1"]["status"])
	diff := ends["e1"]["content"].([]any)[0].(map[string]any)
	assert.Equal(t, "diff", diff["type"])
	assert.Equal(t, filepath.Join(cwd, "a.txt"), diff["path"])
	assert.Contains(t, diff["oldText"], "two")
	assert.Contains(t, diff["newText"], "TWO")
	assert.NotContains(t, diff["newText"], "two")
	wdiff := ends["w1"]["content"].([]any)[0].(map[string]any)
	assert.Equal(t, map[string]any{"type": "diff", "path": filepath.Join(cwd, "b.txt"), "newText": "new\n"}, wdiff, "a new file has no old text")
}

func TestStopReasons(t *testing.T) {
	tc := agentcoretest.ToolCall
	for _, tt := range []struct {
		name     string
		script   []agentcoretest.Response
		maxTurns int
		want     string
	}{
		{"end_turn", []agentcoretest.Response{agentcoretest.TextResponse("ok")}, 0, "end_turn"},
		{"max_tokens", []agentcoretest.Response{{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "cut"}}, StopReason: agentcore.StopLength}}, 0, "max_tokens"},
		{"max_turn_requests", []agentcoretest.Response{
			agentcoretest.ToolCallResponse(tc("l1", "ls", map[string]any{})),
			agentcoretest.ToolCallResponse(tc("l2", "ls", map[string]any{})),
			agentcoretest.TextResponse("never"),
		}, 2, "max_turn_requests"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fake := agentcoretest.New(tt.script...)
			c := serve(t, acp.NewServer(acp.Options{Ephemeral: true, MaxTurns: tt.maxTurns, Agent: codingAgent(fake)}), nil)
			c.initialize(nil)
			id := c.newSession(t.TempDir())
			assert.Equal(t, tt.want, c.prompt(id, "go"))
			if tt.maxTurns > 0 {
				assert.Equal(t, tt.maxTurns, fake.CallCount())
			}
		})
	}
}

func TestModelErrorIsAnInternalError(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.ErrorResponse("the model is overloaded"), agentcoretest.TextResponse("back"))
	c := serve(t, acp.NewServer(acp.Options{Ephemeral: true, Agent: codingAgent(fake)}), nil)
	c.initialize(nil)
	id := c.newSession(t.TempDir())
	e := c.callErr("session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": "hi"}}})
	assert.Equal(t, acp.CodeInternalError, e.Code)
	assert.Contains(t, e.Message, "the model is overloaded")
	assert.Equal(t, "end_turn", c.prompt(id, "again"), "the session is usable")
}

// blocker is a tool that runs until its call is aborted.
func blocker(started chan<- struct{}) agentcore.Tool {
	return agentcore.NewTool("wait", "Waits.", func(ctx context.Context, _ string, _ struct{}, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		started <- struct{}{}
		<-ctx.Done()
		return agentcore.ToolResult{}, ctx.Err()
	})
}

func TestCancelMidTool(t *testing.T) {
	tc := agentcoretest.ToolCall
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(tc("w1", "wait", map[string]any{}), tc("l1", "ls", map[string]any{})),
	)
	// The cancelled run asks once more, aborted, before it ends.
	fake.Append(agentcoretest.TextResponse("unheard"), agentcoretest.TextResponse("after"))
	started := make(chan struct{}, 1)
	c := serve(t, acp.NewServer(acp.Options{Ephemeral: true, Agent: codingAgent(fake, blocker(started))}), nil)
	c.initialize(nil)
	id := c.newSession(t.TempDir())
	ch := c.start("session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": "wait"}}})
	<-started
	c.notify("session/cancel", map[string]any{"sessionId": id})
	m := c.wait(ch)
	require.Nil(t, m.Error)
	assert.JSONEq(t, `{"stopReason":"cancelled"}`, string(m.Result))
	ends := map[string]string{}
	for _, u := range of(c.updates(), "tool_call_update") {
		ends[u["toolCallId"].(string)] = u["status"].(string)
	}
	assert.Equal(t, "failed", ends["w1"], "every call is answered")
	assert.Contains(t, []string{"completed", "failed"}, ends["l1"])
	assert.Equal(t, "end_turn", c.prompt(id, "again"), "the session is usable")
}
