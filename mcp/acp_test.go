package agentmcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/acp"
	"github.com/pi-go/agentcore/agentcoretest"
	agentmcp "github.com/pi-go/agentcore/mcp"
)

// TestACPConnector serves an Agent over ACP whose session gets the tools
// of the MCP server the client passes in session/new: the model calls
// one, and the server's answer is the call's result.
func TestACPConnector(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a subprocess")
	}
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "echo", map[string]any{"text": "through MCP"})),
		agentcoretest.TextResponse("done"),
	)
	var names []string
	srv := acp.NewServer(acp.Options{
		Ephemeral:  true,
		ConnectMCP: agentmcp.ACPConnector(nil),
		MCPHTTP:    true,
		Agent: func(_ context.Context, env *acp.Env) (agentcore.Options, error) {
			for _, tool := range env.Tools {
				names = append(names, tool.Name)
			}
			return agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: env.Tools}, nil
		},
	})
	toServer, fromClient := io.Pipe()
	fromServer, toClient := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- srv.Serve(t.Context(), struct {
			io.Reader
			io.Writer
		}{toServer, toClient})
		toClient.Close()
	}()
	lines := bufio.NewScanner(fromServer)
	lines.Buffer(nil, 1<<20)
	var updates []string
	call := func(id int, method string, params any) json.RawMessage {
		data, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		require.NoError(t, err)
		_, err = fromClient.Write(append(data, '\n'))
		require.NoError(t, err)
		for lines.Scan() {
			var m struct {
				ID     *int            `json:"id"`
				Method string          `json:"method"`
				Params json.RawMessage `json:"params"`
				Result json.RawMessage `json:"result"`
				Error  *acp.Error      `json:"error"`
			}
			require.NoError(t, json.Unmarshal(lines.Bytes(), &m))
			if m.Method == "session/update" {
				updates = append(updates, string(m.Params))
			}
			if m.ID != nil && *m.ID == id && m.Method == "" {
				require.Nil(t, m.Error)
				return m.Result
			}
		}
		t.Fatal("the server ended")
		return nil
	}
	call(1, "initialize", map[string]any{"protocolVersion": 1})
	var s struct{ SessionID string }
	require.NoError(t, json.Unmarshal(call(2, "session/new", map[string]any{"cwd": t.TempDir(), "mcpServers": []any{
		map[string]any{"name": "proc", "command": stdioServer(t), "args": []any{}, "env": []any{map[string]any{"name": "X", "value": "1"}}},
	}}), &s))
	assert.Contains(t, names, "echo")
	res := call(3, "session/prompt", map[string]any{"sessionId": s.SessionID, "prompt": []any{map[string]any{"type": "text", "text": "echo"}}})
	assert.JSONEq(t, `{"stopReason":"end_turn"}`, string(res))
	assert.True(t, strings.Contains(strings.Join(updates, "\n"), `"text":"through MCP"`), fmt.Sprint(updates))
	fromClient.Close()
	require.NoError(t, <-done)
}
