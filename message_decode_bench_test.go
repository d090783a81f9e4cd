package agentcore_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pi-go/agentcore"
)

// agentText returns about n bytes of a coding agent's text: source lines
// with tabs, quotes, backslashes and a little non-ASCII.
func agentText(i, n int) string {
	var sb strings.Builder
	for k := 0; sb.Len() < n; k++ {
		fmt.Fprintf(&sb, "%d\tfunc handle%d(w http.ResponseWriter, r *http.Request) { // état №%d\n", i+k, k, i)
		sb.WriteString("\t\tif err := json.NewDecoder(r.Body).Decode(&req); err != nil { http.Error(w, \"bad \\\"request\\\"\", 400) }\n")
		sb.WriteString("\t\treturn fmt.Sprintf(\"%s: %d items processed in the batch\", name, count)\n")
	}
	return sb.String()
}

// sessionMessages returns the messages of a coding session's turn as JSON,
// as bench/session writes them: a user prompt, an assistant message with
// thinking, text and a tool call, and a tool result of about 8 KB.
func sessionMessages(tb testing.TB) [][]byte {
	args, _ := json.Marshal(map[string]string{"path": "internal/server/handler.go", "content": agentText(1, 2500)})
	msgs := []agentcore.Message{
		&agentcore.UserMessage{Content: agentcore.Text("Please refactor the handlers.\n" + agentText(0, 3000)), Timestamp: 1767603600000},
		&agentcore.AssistantMessage{
			Content: []agentcore.ContentBlock{
				agentcore.ThinkingBlock{Thinking: agentText(2, 900), ThinkingSignature: strings.Repeat("EqQBCkgIBxABGAIiQL", 20)},
				agentcore.TextBlock{Text: agentText(3, 1800)},
				agentcore.ToolCall{ID: "toolu_01Bench", Name: "write", Arguments: args},
			},
			API: "anthropic-messages", Provider: "anthropic", Model: "claude-sonnet-4-5",
			Usage: agentcore.Usage{Input: 18234, Output: 912, CacheRead: 120344, CacheWrite: 2210, TotalTokens: 141700,
				Cost: agentcore.Cost{Input: 0.054702, Output: 0.01368, CacheRead: 0.0361032, CacheWrite: 0.0082875, Total: 0.1127727}},
			StopReason: agentcore.StopToolUse, Timestamp: 1767603601500,
		},
		&agentcore.ToolResultMessage{ToolCallID: "toolu_01Bench", ToolName: "write",
			Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: agentText(4, 8000)}}, Timestamp: 1767603603000},
	}
	out := make([][]byte, len(msgs))
	for i, m := range msgs {
		data, err := json.Marshal(m)
		if err != nil {
			tb.Fatal(err)
		}
		out[i] = data
	}
	return out
}

// BenchmarkUnmarshalMessage decodes a session's messages with
// [agentcore.UnmarshalMessage]; its MB/s is the decoding speed of every
// reader of messages (sessions, the proxy, durable histories, AG-UI).
// cpu-MB/s divides by the CPU time the process used instead of the wall
// time: on a shared machine it is the speed of one core the benchmark
// had (run it with -cpu 1).
func BenchmarkUnmarshalMessage(b *testing.B) {
	msgs := sessionMessages(b)
	size := 0
	for _, m := range msgs {
		size += len(m)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		for _, data := range msgs {
			if _, err := agentcore.UnmarshalMessage(data); err != nil {
				b.Fatal(err)
			}
		}
	}
	if used := processCPU() - cpu; used > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/used.Seconds()/1e6, "cpu-MB/s")
	}
}
