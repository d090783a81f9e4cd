package openairesponses

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// turnBody is a coding agent's turn as the Responses API streams it: a
// reasoning item of n/3 summary deltas, a message of n deltas, and calls
// tool calls of 60 argument pieces each, every item with its done events,
// and the completed response repeating the output.
func turnBody(n, calls int) []byte {
	var b bytes.Buffer
	seq := 0
	ev := func(fields map[string]any) {
		fields["sequence_number"] = seq
		seq++
		data, _ := json.Marshal(fields)
		fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", fields["type"], data)
	}
	word := func(i int) string { return fmt.Sprintf("w%d ", i%97) }
	var output []any
	ev(map[string]any{"type": "response.created", "response": map[string]any{"id": "resp_1", "status": "in_progress"}})
	ev(map[string]any{"type": "response.output_item.added", "output_index": 0, "item": map[string]any{"id": "rs_1", "type": "reasoning", "summary": []any{}}})
	var th strings.Builder
	for i := range n / 3 {
		th.WriteString(word(i))
		ev(map[string]any{"type": "response.reasoning_summary_text.delta", "item_id": "rs_1", "output_index": 0, "summary_index": 0, "delta": word(i)})
	}
	rs := map[string]any{"id": "rs_1", "type": "reasoning", "summary": []any{map[string]any{"type": "summary_text", "text": th.String()}}, "encrypted_content": strings.Repeat("x", 600)}
	ev(map[string]any{"type": "response.output_item.done", "output_index": 0, "item": rs})
	output = append(output, rs)
	ev(map[string]any{"type": "response.output_item.added", "output_index": 1, "item": map[string]any{"id": "msg_1", "type": "message", "content": []any{}, "role": "assistant"}})
	var tx strings.Builder
	for i := range n {
		tx.WriteString(word(i))
		ev(map[string]any{"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 1, "content_index": 0, "delta": word(i), "logprobs": []any{}})
	}
	msg := map[string]any{"id": "msg_1", "type": "message", "content": []any{map[string]any{"type": "output_text", "text": tx.String(), "annotations": []any{}}}, "role": "assistant"}
	ev(map[string]any{"type": "response.output_item.done", "output_index": 1, "item": msg})
	output = append(output, msg)
	for k := range calls {
		idx, id := 2+k, fmt.Sprintf("fc_%d", k)
		var args strings.Builder
		args.WriteString(`{"path":"src/file.go","new":"`)
		ev(map[string]any{"type": "response.output_item.added", "output_index": idx, "item": map[string]any{"id": id, "type": "function_call", "arguments": "", "call_id": "call_" + id, "name": "edit"}})
		ev(map[string]any{"type": "response.function_call_arguments.delta", "item_id": id, "output_index": idx, "delta": args.String()})
		for i := range 60 {
			piece := strings.Repeat("x := f(y)\\n", 4) + fmt.Sprint(i)
			args.WriteString(piece)
			ev(map[string]any{"type": "response.function_call_arguments.delta", "item_id": id, "output_index": idx, "delta": piece})
		}
		ev(map[string]any{"type": "response.function_call_arguments.delta", "item_id": id, "output_index": idx, "delta": `"}`})
		args.WriteString(`"}`)
		done := map[string]any{"id": id, "type": "function_call", "arguments": args.String(), "call_id": "call_" + id, "name": "edit"}
		ev(map[string]any{"type": "response.output_item.done", "output_index": idx, "item": done})
		output = append(output, done)
	}
	ev(map[string]any{"type": "response.completed", "response": map[string]any{"id": "resp_1", "status": "completed", "output": output,
		"usage": map[string]any{"input_tokens": 1000, "output_tokens": 900, "total_tokens": 1900}}})
	return b.Bytes()
}

// BenchmarkTurn ranges a streamed turn directly (reasoning, text, 4 tool
// calls): the cost per event must not grow with the number of deltas.
func BenchmarkTurn(b *testing.B) {
	for _, n := range []int{1200, 12000} {
		body := turnBody(n, 4)
		events := bytes.Count(body, []byte("\n\n"))
		b.Run(fmt.Sprintf("textdeltas=%d", n), func(b *testing.B) {
			fn := streamFrom(providertest.ServeBody(b, 200, "text/event-stream", nil, body))
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				var final *agentcore.AssistantMessage
				for ev := range fn(context.Background(), agentcore.Model{ID: "m", Reasoning: true}, providertest.HiRequest(), agentcore.StreamOptions{APIKey: "k"}) {
					if e, ok := ev.(*agentcore.DoneEvent); ok {
						final = e.Message
					}
				}
				require.NotNil(b, final)
				require.Len(b, final.Content, 6)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*events), "ns/event")
		})
	}
}
