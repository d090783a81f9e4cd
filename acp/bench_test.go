package acp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/acp"
	"github.com/pi-go/agentcore/agentcoretest"
)

// BenchmarkPromptStream measures a prompt whose answer streams in 1,000
// deltas, each a session/update on the wire, read by a client that only
// counts lines: the server's cost per streamed delta, the loop's
// included.
func BenchmarkPromptStream(b *testing.B) {
	const chunks = 1000
	text := ""
	for i := range chunks {
		text += fmt.Sprintf("w%03d ", i)
	}
	fake := agentcoretest.NewFunc(func(context.Context, agentcoretest.Call) agentcoretest.Response {
		return agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: text}}, Chunks: chunks}
	})
	srv := acp.NewServer(acp.Options{Ephemeral: true, Agent: codingAgent(fake)})
	toServer, fromClient := io.Pipe()
	fromServer, toClient := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- srv.Serve(context.Background(), struct {
			io.Reader
			io.Writer
		}{toServer, toClient})
		toClient.Close()
	}()
	responses := make(chan json.RawMessage)
	go func() {
		sc := bufio.NewScanner(fromServer)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Result json.RawMessage `json:"result"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(sc.Bytes(), &m) == nil && m.Method == "" && len(m.ID) > 0 {
				responses <- m.Result
			}
		}
		close(responses)
	}()
	send := func(id int, method string, params any) json.RawMessage {
		data, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		_, _ = fromClient.Write(append(data, '\n'))
		return <-responses
	}
	send(1, "initialize", map[string]any{"protocolVersion": 1})
	var s struct{ SessionID string }
	_ = json.Unmarshal(send(2, "session/new", map[string]any{"cwd": b.TempDir(), "mcpServers": []any{}}), &s)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		send(3+i, "session/prompt", map[string]any{"sessionId": s.SessionID, "prompt": []any{map[string]any{"type": "text", "text": "go"}}})
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chunks), "ns/delta")
	fromClient.Close()
	<-done
}
