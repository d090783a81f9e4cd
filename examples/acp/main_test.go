package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore/acp/acptest"
)

// TestOfficialClient runs a prompt of the official TypeScript client
// against the example on the fake model.
func TestOfficialClient(t *testing.T) {
	dir := acptest.Install(t)
	cwd, sessions := t.TempDir(), t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(cwd, "main.go"), []byte("package main\n"), 0o644))
	var stderr strings.Builder
	serve := func(ctx context.Context, rw io.ReadWriter) error {
		return run(ctx, []string{"-sessions", sessions}, func(string) string { return "" }, rw, &stderr)
	}
	r := acptest.Run(t, dir, serve, cwd, "example")
	assert.Empty(t, r["invalid"])
	example := r["example"].(map[string]any)
	assert.Equal(t, "end_turn", example["stop"])
	var text string
	var tools []string
	for _, u := range r["updates"].(map[string]any)[example["session"].(string)].([]any) {
		m := u.(map[string]any)
		switch m["sessionUpdate"] {
		case "agent_message_chunk":
			text += m["content"].(map[string]any)["text"].(string)
		case "tool_call":
			tools = append(tools, m["title"].(string))
		}
	}
	assert.Equal(t, []string{"ls ."}, tools)
	assert.Contains(t, text, "the directory holds 1 entries")
	assert.Empty(t, stderr.String())
	matches, err := filepath.Glob(filepath.Join(sessions, "sessions", "*", "*.jsonl"))
	require.NoError(t, err)
	assert.Len(t, matches, 1, "the session file")
}

func TestHelp(t *testing.T) {
	var out strings.Builder
	err := run(t.Context(), []string{"-h"}, func(string) string { return "" }, nil, &out)
	require.Error(t, err)
	assert.Contains(t, out.String(), "-sessions")
}

// TestPrompt runs a prompt on the fake model with a few lines of JSON,
// without node.
func TestPrompt(t *testing.T) {
	cwd := t.TempDir()
	clientOut, serverIn := io.Pipe()
	serverOut, clientIn := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(t.Context(), []string{"-sessions", t.TempDir()}, func(string) string { return "" }, struct {
			io.Reader
			io.Writer
		}{clientOut, clientIn}, io.Discard)
		clientIn.Close()
	}()
	lines := bufio.NewScanner(serverOut)
	var kinds []string
	next := func(id int) json.RawMessage {
		for lines.Scan() {
			var m struct {
				ID     *int            `json:"id"`
				Method string          `json:"method"`
				Params json.RawMessage `json:"params"`
				Result json.RawMessage `json:"result"`
			}
			require.NoError(t, json.Unmarshal(lines.Bytes(), &m))
			if m.Method == "session/update" {
				var p struct {
					Update struct{ SessionUpdate string }
				}
				require.NoError(t, json.Unmarshal(m.Params, &p))
				kinds = append(kinds, p.Update.SessionUpdate)
			}
			if m.ID != nil && *m.ID == id && m.Method == "" {
				return m.Result
			}
		}
		t.Fatal("the server ended")
		return nil
	}
	fmt.Fprintln(serverIn, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`)
	next(1)
	fmt.Fprintf(serverIn, `{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`+"\n", cwd)
	var s struct{ SessionID string }
	require.NoError(t, json.Unmarshal(next(2), &s))
	fmt.Fprintf(serverIn, `{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"hi"}]}}`+"\n", s.SessionID)
	assert.JSONEq(t, `{"stopReason":"end_turn"}`, string(next(3)))
	assert.Equal(t, []string{"tool_call", "tool_call_update", "tool_call_update", "agent_message_chunk", "agent_message_chunk", "agent_message_chunk", "agent_message_chunk"}, kinds)
	serverIn.Close()
	require.NoError(t, <-done)
}
