package acp_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/acp"
	"github.com/pi-go/agentcore/acp/acptest"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/codingtools"
	"github.com/pi-go/agentcore/hold"
)

// scriptedModel answers the client's prompts: by the prompt's text, and
// after a tool result by the tool.
func scriptedModel() *agentcoretest.Fake {
	var n atomic.Int64
	id := func() string { return fmt.Sprint("call-", n.Add(1)) }
	tc := agentcoretest.ToolCall
	return agentcoretest.NewFunc(func(_ context.Context, call agentcoretest.Call) agentcoretest.Response {
		msgs := call.Request.Messages
		switch m := msgs[len(msgs)-1].(type) {
		case *agentcore.ToolResultMessage:
			if m.ToolName == "read" {
				return agentcoretest.ToolCallResponse(tc(id(), "edit", map[string]any{"path": "a.txt", "edits": []any{map[string]any{"oldText": "unsaved", "newText": "edited"}}}))
			}
			return agentcoretest.TextResponse("done with " + m.ToolName)
		case *agentcore.UserMessage:
			switch m.Content.Text() {
			case "hello":
				return agentcoretest.Response{Content: []agentcore.ContentBlock{
					agentcore.ThinkingBlock{Thinking: "A greeting."}, agentcore.TextBlock{Text: "Hello from Go"},
				}, Chunks: 3, Usage: agentcore.Usage{Input: 10, Output: 5}}
			case "edit a.txt":
				return agentcoretest.ToolCallResponse(tc(id(), "read", map[string]any{"path": "a.txt"}))
			case "plan":
				return agentcoretest.ToolCallResponse(tc(id(), "todo", map[string]any{}))
			case "shell":
				return agentcoretest.ToolCallResponse(tc(id(), "bash", map[string]any{"command": "echo hi from the terminal"}))
			case "sleep":
				return agentcoretest.ToolCallResponse(tc(id(), "bash", map[string]any{"command": "sleep 30"}), tc(id(), "ls", map[string]any{}))
			case "deploy twice":
				return agentcoretest.ToolCallResponse(tc(id(), "deploy", map[string]any{"env": "prod"}), tc(id(), "deploy", map[string]any{"env": "staging"}))
			}
		}
		return agentcoretest.TextResponse("ok")
	})
}

// clientServer is the server the official client drives: codingtools'
// tools and a deploy tool that needs permission, on the scripted model.
func clientServer(agentDir string, fake *agentcoretest.Fake, deploys *atomic.Int64) *acp.Server {
	deploy := agentcore.NewTool("deploy", "Deploys.", func(_ context.Context, _ string, args struct {
		Env string `json:"env"`
	}, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		deploys.Add(1)
		return agentcore.TextResult("deployed to " + args.Env), nil
	})
	return acp.NewServer(acp.Options{
		AgentDir:   agentDir,
		Permission: hold.Always(hold.Request{Title: "Deploy?"}, "deploy"),
		Agent: func(_ context.Context, env *acp.Env) (agentcore.Options, error) {
			model := agentcoretest.Model()
			model.ContextWindow = 1000
			todo := agentcore.NewTool("todo", "Plans.", func(context.Context, string, struct{}, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
				env.Plan([]acp.PlanEntry{{Content: "look", Status: "completed"}, {Content: "fix", Priority: "high", Status: "in_progress"}})
				return agentcore.TextResult("planned"), nil
			})
			tools := append(codingtools.AllTools(env.Cwd, &codingtools.Options{FS: env.FS, Shell: env.Shell}), deploy, todo)
			return agentcore.Options{Model: model, StreamFn: fake.Stream, Tools: tools}, nil
		},
	})
}

func TestOfficialClient(t *testing.T) {
	dir := acptest.Install(t)
	agentDir, cwd := t.TempDir(), t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(cwd, "a.txt"), []byte("on disk\n"), 0o644))
	var deploys atomic.Int64
	r := acptest.Run(t, dir, clientServer(agentDir, scriptedModel(), &deploys).Serve, cwd)

	assert.Empty(t, r["invalid"], "every message the server sent is valid")
	assert.Greater(t, r["checked"], 100.0)
	assert.EqualValues(t, 1, r["protocolVersion"])
	assert.EqualValues(t, 1, get(r, "initialize", "protocolVersion"))
	assert.Equal(t, true, get(r, "initialize", "agentCapabilities", "loadSession"))

	updates := func(scenario string) []any {
		return asList(get(r, "updates", get(r, scenario, "session").(string)))
	}
	kindsOf := func(us []any) []string {
		var out []string
		for _, u := range us {
			out = append(out, u.(map[string]any)["sessionUpdate"].(string))
		}
		return out
	}
	joined := func(us []any, kind string) string {
		s := ""
		for _, u := range us {
			if m := u.(map[string]any); m["sessionUpdate"] == kind {
				s += fmt.Sprint(get(m, "content", "text"))
			}
		}
		return s
	}
	finals := func(us []any) map[string]string {
		out := map[string]string{}
		for _, u := range us {
			m := u.(map[string]any)
			if m["sessionUpdate"] == "tool_call" {
				out[m["toolCallId"].(string)] = ""
			}
			if st, _ := m["status"].(string); m["sessionUpdate"] == "tool_call_update" && (st == "completed" || st == "failed") {
				out[m["toolCallId"].(string)] = st
			}
		}
		return out
	}

	// Streamed text, thought and usage; every content block taken.
	assert.Equal(t, "end_turn", get(r, "hello", "stop"))
	// The session had three prompts: "hello", the blocks, "hello".
	assert.Equal(t, "Hello from GookHello from Go", joined(updates("hello"), "agent_message_chunk"))
	assert.Equal(t, "A greeting.A greeting.", joined(updates("hello"), "agent_thought_chunk"))
	assert.Contains(t, kindsOf(updates("hello")), "usage_update")
	assert.Equal(t, "end_turn", get(r, "blocks", "stop"))

	// Tool calls with the client's files: the read saw the buffer, the edit
	// went to the editor, with its diff.
	assert.Equal(t, "end_turn", get(r, "tools", "stop"))
	assert.Equal(t, map[string]any{filepath.Join(cwd, "a.txt"): "edited buffer\n"}, r["writes"])
	data, err := os.ReadFile(filepath.Join(cwd, "a.txt"))
	require.NoError(t, err)
	assert.Equal(t, "on disk\n", string(data))
	var diff bool
	for _, u := range updates("tools") {
		for _, c := range asList(u.(map[string]any)["content"]) {
			if m := c.(map[string]any); m["type"] == "diff" && m["oldText"] == "unsaved buffer\n" && m["newText"] == "edited buffer\n" {
				diff = true
			}
		}
	}
	assert.True(t, diff, "the edit's diff")
	for id, st := range finals(updates("tools")) {
		assert.Equal(t, "completed", st, id)
	}

	// A plan.
	assert.Equal(t, "end_turn", get(r, "plan", "stop"))
	assert.Contains(t, kindsOf(updates("plan")), "plan")

	// A command in the client's terminal.
	assert.Equal(t, "end_turn", get(r, "shell", "stop"))
	var created []any
	for _, q := range asList(r["requests"]) {
		if m := q.(map[string]any); m["method"] == "terminal/create" {
			created = append(created, m)
		}
	}
	require.NotEmpty(t, created)
	assert.Equal(t, []any{"-c", "echo hi from the terminal"}, created[0].(map[string]any)["args"])

	// Permissions each way; "always" asked once for two calls.
	for _, tt := range []struct {
		answer string
		asked  float64
		stop   string
	}{
		{"allow_once", 2, "end_turn"}, {"reject_once", 2, "end_turn"},
		{"allow_always", 1, "end_turn"}, {"reject_always", 1, "end_turn"}, {"cancelled", 1, "cancelled"},
	} {
		p := get(r, "permissions", tt.answer)
		assert.Equal(t, tt.asked, get(p, "asked"), tt.answer)
		assert.Equal(t, tt.stop, get(p, "stop"), tt.answer)
		for id, st := range finals(asList(get(r, "updates", get(p, "session").(string)))) {
			assert.NotEmpty(t, st, "%s: call %s answered", tt.answer, id)
		}
	}
	assert.EqualValues(t, 2+2, deploys.Load(), "allow_once and allow_always ran both")

	// Cancel mid-tool: the terminal killed, every call answered, the
	// session usable.
	assert.Equal(t, "cancelled", get(r, "cancel", "stop"))
	assert.Equal(t, "end_turn", get(r, "cancel", "again"))
	for id, st := range finals(updates("cancel")) {
		assert.NotEmpty(t, st, "call %s answered", id)
	}
	var killed bool
	for _, q := range asList(r["requests"]) {
		killed = killed || q.(map[string]any)["method"] == "terminal/kill"
	}
	assert.True(t, killed)

	// Bad input.
	assert.EqualValues(t, acp.CodeInvalidRequest, get(r, "busy", "second", "code"))
	assert.Equal(t, "cancelled", get(r, "busy", "first"))
	assert.EqualValues(t, acp.CodeNotFound, get(r, "loadUnknown", "code"))
	assert.EqualValues(t, acp.CodeInvalidRequest, get(r, "loadOpen", "code"))
	for name, code := range map[string]int{
		"unknownSession": acp.CodeNotFound, "unknownMethod": acp.CodeMethodNotFound, "relativeCwd": acp.CodeInvalidParams,
		"emptyPrompt": acp.CodeInvalidParams, "audio": acp.CodeInvalidParams,
	} {
		assert.EqualValues(t, code, get(r, "bad", name, "code"), name)
	}
	for name, code := range map[string]int{"notJSON": acp.CodeParseError, "noVersion": acp.CodeInvalidRequest, "badParams": acp.CodeInvalidParams} {
		assert.EqualValues(t, code, get(r, "bad", name, "error", "code"), name)
	}
	assert.Equal(t, "end_turn", get(r, "bad", "after"))

	// Listed: every session of the run that has a message.
	assert.Len(t, asList(get(r, "list", "sessions")), 11)

	// A second client lists, loads and goes on with a session.
	hello := get(r, "hello", "session").(string)
	r2 := acptest.Run(t, dir, clientServer(agentDir, scriptedModel(), &deploys).Serve, cwd, "load", hello)
	assert.Empty(t, r2["invalid"])
	replayed := asList(r2["replayed"])
	assert.True(t, strings.HasPrefix(joined(replayed, "user_message_chunk"), "hellolook at these"))
	assert.Contains(t, joined(replayed, "agent_message_chunk"), "Hello from Go")
	assert.Equal(t, "end_turn", r2["again"])

	// A client that leaves mid-run: the session file is whole, and the
	// next client loads it and goes on.
	r3 := acptest.Run(t, dir, clientServer(agentDir, scriptedModel(), &deploys).Serve, cwd, "vanish")
	gone := get(r3, "vanish", "session").(string)
	r4 := acptest.Run(t, dir, clientServer(agentDir, scriptedModel(), &deploys).Serve, cwd, "load", gone)
	assert.Empty(t, r4["invalid"])
	assert.Equal(t, "sleep", joined(asList(r4["replayed"]), "user_message_chunk"))
	assert.Contains(t, kindsOf(asList(r4["replayed"])), "tool_call")
	assert.Equal(t, "end_turn", r4["again"])
}

// get walks a decoded JSON value by keys.
func get(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}
