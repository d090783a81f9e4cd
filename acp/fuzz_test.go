package acp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pi-go/agentcore/acp"
	"github.com/pi-go/agentcore/agentcoretest"
)

// FuzzServe feeds the server arbitrary input: it answers or ignores each
// line, never panics, and returns when the input ends.
func FuzzServe(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}` + "\n" +
			`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}` + "\n" +
			`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"x","prompt":[{"type":"text","text":"hi"}]}}`,
		`{"jsonrpc":"2.0","id":[1],"method":"x"}`,
		`{"jsonrpc":"2.0","result":{},"id":7}`,
		"\x00\xff{",
		strings.Repeat("[", 10000),
	} {
		f.Add(seed)
	}
	srv := acp.NewServer(acp.Options{Ephemeral: true, MaxMessageBytes: 1 << 16, Agent: codingAgent(agentcoretest.New())})
	f.Fuzz(func(t *testing.T, input string) {
		var out bytes.Buffer
		err := srv.Serve(t.Context(), struct {
			io.Reader
			io.Writer
		}{strings.NewReader(input), &out})
		if err != nil {
			t.Fatal(err)
		}
	})
}

func TestAuthenticateAndDescribe(t *testing.T) {
	var used []string
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "ls", map[string]any{"path": "sub"})), agentcoretest.TextResponse("ok"))
	c := serve(t, acp.NewServer(acp.Options{
		Ephemeral:   true,
		Agent:       codingAgent(fake),
		AuthMethods: []acp.AuthMethod{{ID: "key", Name: "API key"}},
		Authenticate: func(_ context.Context, id string) error {
			used = append(used, id)
			return nil
		},
		Describe: func(name string, _ json.RawMessage, cwd string) acp.ToolInfo {
			return acp.ToolInfo{Title: "Looking around", Kind: "read", Locations: []acp.Location{{Path: cwd, Line: 3}}}
		},
	}), nil)
	res := c.initialize(nil)
	assert.Equal(t, []any{map[string]any{"id": "key", "name": "API key"}}, res["authMethods"])
	c.call("authenticate", map[string]any{"methodId": "key"})
	assert.Equal(t, []string{"key"}, used)
	e := c.callErr("authenticate", map[string]any{"methodId": "other"})
	assert.Equal(t, acp.CodeInvalidParams, e.Code)
	cwd := t.TempDir()
	id := c.newSession(cwd)
	c.prompt(id, "look")
	call := of(c.updates(), "tool_call")[0]
	assert.Equal(t, "Looking around", call["title"])
	assert.Equal(t, "read", call["kind"])
	assert.Equal(t, []any{map[string]any{"path": cwd, "line": 3.0}}, call["locations"])
}
