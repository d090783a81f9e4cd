package acp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/acp"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/hold"
	"github.com/pi-go/agentcore/session"
)

// answers answers session/request_permission with the options in turn
// ("cancelled" for the cancelled outcome), and counts the questions.
type answers struct {
	mu      sync.Mutex
	options []string
	asked   int
}

func (a *answers) answer(method string, params json.RawMessage) (any, *acp.Error) {
	if method != "session/request_permission" {
		return nil, &acp.Error{Code: acp.CodeMethodNotFound, Message: method}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	opt := a.options[a.asked]
	a.asked++
	if opt == "cancelled" {
		return map[string]any{"outcome": map[string]any{"outcome": "cancelled"}}, nil
	}
	return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": opt}}, nil
}

func TestPermissions(t *testing.T) {
	tc := agentcoretest.ToolCall
	write := func(id, name string) agentcoretest.Response {
		return agentcoretest.ToolCallResponse(tc(id, "write", map[string]any{"path": name, "content": "x"}))
	}
	for _, tt := range []struct {
		name    string
		options []string // the answers, in turn
		asked   int      // how many questions of the two writes
		written []bool   // whether a.txt and b.txt exist after
		stop    string
	}{
		{"allow once asks each time", []string{"allow_once", "allow_once"}, 2, []bool{true, true}, "end_turn"},
		{"allow always asks once", []string{"allow_always"}, 1, []bool{true, true}, "end_turn"},
		{"reject once asks each time", []string{"reject_once", "allow_once"}, 2, []bool{false, true}, "end_turn"},
		{"reject always asks once", []string{"reject_always"}, 1, []bool{false, false}, "end_turn"},
		{"cancelled ends the prompt", []string{"cancelled"}, 1, []bool{false, false}, "cancelled"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fake := agentcoretest.New(write("w1", "a.txt"), write("w2", "b.txt"), agentcoretest.TextResponse("done"))
			dir, cwd := t.TempDir(), t.TempDir()
			a := &answers{options: tt.options}
			c := serve(t, acp.NewServer(acp.Options{AgentDir: dir, Agent: codingAgent(fake),
				Permission: hold.Always(hold.Request{}, "write")}), a.answer)
			c.initialize(nil)
			id := c.newSession(cwd)
			assert.Equal(t, tt.stop, c.prompt(id, "write both"))
			assert.Equal(t, tt.asked, a.asked)
			for i, name := range []string{"a.txt", "b.txt"} {
				_, err := os.Stat(filepath.Join(cwd, name))
				assert.Equal(t, tt.written[i], err == nil, name)
			}
			// The question shows the call as the client's tool call.
			var req struct {
				SessionID string `json:"sessionId"`
				ToolCall  struct {
					ToolCallID, Title, Kind, Status string
				} `json:"toolCall"`
				Options []struct{ OptionID, Kind string } `json:"options"`
			}
			require.NoError(t, json.Unmarshal(c.requests("session/request_permission")[0], &req))
			assert.Equal(t, id, req.SessionID)
			assert.Equal(t, "w1", req.ToolCall.ToolCallID)
			assert.Equal(t, "Write a.txt", req.ToolCall.Title)
			assert.Equal(t, "edit", req.ToolCall.Kind)
			var kinds []string
			for _, o := range req.Options {
				kinds = append(kinds, o.Kind)
			}
			assert.Equal(t, []string{"allow_once", "allow_always", "reject_once", "reject_always"}, kinds)
			// Every call the client saw is answered.
			ends := map[string]string{}
			for _, u := range of(c.updates(), "tool_call_update") {
				if s := u["status"].(string); s == "completed" || s == "failed" {
					ends[u["toolCallId"].(string)] = s
				}
			}
			for _, call := range of(c.updates(), "tool_call") {
				assert.Contains(t, ends, call["toolCallId"])
			}
		})
	}
}

func TestAlwaysIsKeptInTheSessionFile(t *testing.T) {
	tc := agentcoretest.ToolCall
	write := func(id, name string) agentcoretest.Response {
		return agentcoretest.ToolCallResponse(tc(id, "write", map[string]any{"path": name, "content": "x"}))
	}
	fake := agentcoretest.New(write("w1", "a.txt"), agentcoretest.TextResponse("done"), write("w2", "b.txt"), agentcoretest.TextResponse("done"))
	dir, cwd := t.TempDir(), t.TempDir()
	a := &answers{options: []string{"allow_always"}}
	opts := acp.Options{AgentDir: dir, Agent: codingAgent(fake), Permission: hold.Always(hold.Request{}, "write")}
	c := serve(t, acp.NewServer(opts), a.answer)
	c.initialize(nil)
	id := c.newSession(cwd)
	assert.Equal(t, "end_turn", c.prompt(id, "write a"))
	require.NoError(t, c.hangUp())

	infos, err := session.List(session.Dir(dir, cwd))
	require.NoError(t, err)
	require.Len(t, infos, 1)
	s, err := session.Open(infos[0].Path, &session.Options{ReadOnly: true})
	require.NoError(t, err)
	var data []string
	for _, e := range s.Path("") { // the current branch: what a load reads
		if ce, ok := e.(*session.CustomEntry); ok && ce.CustomType == "acp.permissions" {
			data = append(data, string(ce.Data))
		}
	}
	require.NoError(t, s.Close())
	assert.Equal(t, []string{`{"allow":["write"],"reject":[]}`}, data)

	// A new connection loads the session: writes are not asked about.
	c2 := serve(t, acp.NewServer(opts), a.answer)
	c2.initialize(nil)
	c2.call("session/load", map[string]any{"sessionId": id, "cwd": cwd, "mcpServers": []any{}})
	assert.Equal(t, "end_turn", c2.prompt(id, "write b"))
	assert.Equal(t, 1, a.asked)
	_, err = os.Stat(filepath.Join(cwd, "b.txt"))
	assert.NoError(t, err)
}

func TestAGateOfTheProgramFailsThePrompt(t *testing.T) {
	tc := agentcoretest.ToolCall
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(tc("w1", "write", map[string]any{"path": "a.txt", "content": "x"})), agentcoretest.TextResponse("after"))
	agent := codingAgent(fake)
	c := serve(t, acp.NewServer(acp.Options{Ephemeral: true, Agent: func(ctx context.Context, env *acp.Env) (agentcore.Options, error) {
		opts, err := agent(ctx, env)
		opts.Layers = append(opts.Layers, hold.New(hold.Options{Policy: hold.Always(hold.Request{}, "write")}))
		return opts, err
	}}), nil)
	c.initialize(nil)
	id := c.newSession(t.TempDir())
	e := c.callErr("session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": "write"}}})
	assert.Equal(t, acp.CodeInternalError, e.Code)
	assert.Contains(t, e.Message, "Options.Permission")
}
