package temporal

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"

	"github.com/pi-go/agentcore"
)

// BenchmarkReplay measures one replay of a run whose record holds n turns,
// each a request answered with one tool call: the work the workflow does
// between two activities of that run, within one workflow task.
func BenchmarkReplay(b *testing.B) {
	echo := agentcore.Tool{Name: "echo", Description: "Echoes.", Parameters: json.RawMessage(`{"type":"object"}`),
		Execute: func(context.Context, string, json.RawMessage, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			return agentcore.TextResult("unused"), nil
		}}
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("turns=%d", n), func(b *testing.B) {
			rec := &runRecord{Prompts: Messages{agentcore.UserText("go")}, Tools: map[string]toolOutcome{}}
			for k := range n {
				call := agentcore.ToolCall{ID: "c" + strconv.Itoa(k), Name: "echo", Arguments: json.RawMessage(`{}`)}
				rec.Responses = append(rec.Responses, &agentcore.AssistantMessage{
					Content: []agentcore.ContentBlock{call}, StopReason: agentcore.StopToolUse,
				})
				rec.Tools[callKey(k, call.ID)] = toolOutcome{Output: toolOutput{Result: agentcore.TextResult("ok")}}
			}
			opts := &Options{Model: agentcore.Model{ID: "m"}, Tools: []agentcore.Tool{echo}}
			st := &sessionState{Run: rec}
			b.ReportAllocs()
			for b.Loop() {
				x := &replay{opts: opts, st: st, rec: rec}
				res := x.run()
				if len(res.needs) != 1 || res.needs[0].request != n {
					b.Fatalf("needs %+v", res.needs)
				}
				st.Steering, st.FollowUp = nil, nil
				rec.Steering, rec.FollowUps = nil, nil
			}
		})
	}
}
