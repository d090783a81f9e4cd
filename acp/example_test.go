package acp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/acp"
	"github.com/pi-go/agentcore/agentcoretest"
)

// A client, here a few lines of JSON, initializes, opens a session and
// prompts; the server streams the answer and ends the prompt.
func ExampleServer() {
	fake := agentcoretest.New(agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "Hello, editor."}}, Chunks: 2})
	srv := acp.NewServer(acp.Options{
		Ephemeral: true, // no session files
		Agent: func(_ context.Context, env *acp.Env) (agentcore.Options, error) {
			return agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream}, nil
		},
	})
	clientOut, serverIn := io.Pipe()
	serverOut, clientIn := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- srv.Serve(context.Background(), struct {
			io.Reader
			io.Writer
		}{clientOut, clientIn})
		clientIn.Close()
	}()
	lines := bufio.NewScanner(serverOut)
	send := func(line string) { fmt.Fprintln(serverIn, line) }
	// next prints the server's messages up to the response to id.
	next := func(id int) json.RawMessage {
		for lines.Scan() {
			var m struct {
				ID     *int            `json:"id"`
				Method string          `json:"method"`
				Params json.RawMessage `json:"params"`
				Result json.RawMessage `json:"result"`
			}
			_ = json.Unmarshal(lines.Bytes(), &m)
			if m.Method == "session/update" {
				var p struct {
					Update struct {
						SessionUpdate string
						Content       struct{ Text string }
					}
				}
				_ = json.Unmarshal(m.Params, &p)
				fmt.Printf("%s %q\n", p.Update.SessionUpdate, p.Update.Content.Text)
			}
			if m.ID != nil && *m.ID == id {
				return m.Result
			}
		}
		return nil
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`)
	next(1)
	send(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}`)
	var s struct{ SessionID string }
	_ = json.Unmarshal(next(2), &s)
	send(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"` + s.SessionID + `","prompt":[{"type":"text","text":"hi"}]}}`)
	fmt.Println(string(next(3)))
	serverIn.Close()
	fmt.Println(<-done)
	// Output:
	// agent_message_chunk "Hello, "
	// agent_message_chunk "editor."
	// {"stopReason":"end_turn"}
	// <nil>
}
