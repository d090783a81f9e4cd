package agentcore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/stretchr/testify/require"
)

var benchText = strings.Repeat("Working on the next step of the task now. ", 4)

func workTool() agentcore.Tool {
	return agentcore.Tool{
		Name:       "work",
		Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"n":{"type":"integer"}},"required":["path"]}`),
		Execute: func(context.Context, string, json.RawMessage, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			return agentcore.TextResult("ok"), nil
		},
	}
}

// turnScript is n turns of a 20-delta text block and 4 parallel tool calls,
// then a final answer: the shape of the bench-turns scenario.
func turnScript(n int) []agentcoretest.Response {
	out := make([]agentcoretest.Response, 0, n+1)
	for t := range n {
		content := []agentcore.ContentBlock{agentcore.TextBlock{Text: benchText}}
		for c := range 4 {
			content = append(content, agentcoretest.ToolCall(fmt.Sprintf("t%dc%d", t, c), "work", map[string]any{"path": fmt.Sprintf("src/file%d.go", c), "n": c}))
		}
		out = append(out, agentcoretest.Response{Content: content, StopReason: agentcore.StopToolUse, Chunks: 20})
	}
	return append(out, agentcoretest.TextResponse("done"))
}

// BenchmarkAgentTurn measures one turn of an Agent run: a streamed text
// block of 20 deltas, four parallel tool calls through both tool hooks, one
// awaited listener.
func BenchmarkAgentTurn(b *testing.B) {
	const turns = 50
	script := turnScript(turns)
	allow := func(context.Context, agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
		return nil, nil
	}
	keep := func(context.Context, agentcore.AfterToolCallContext) (*agentcore.AfterToolCallResult, error) {
		return nil, nil
	}
	b.ReportAllocs()
	events := 0
	for b.Loop() {
		fake := agentcoretest.New(script...)
		a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{workTool()},
			Hooks: agentcore.Hooks{BeforeToolCall: allow, AfterToolCall: keep}})
		a.Subscribe(func(context.Context, agentcore.AgentEvent) { events++ })
		require.NoError(b, a.Prompt(context.Background(), "go"))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*turns), "ns/turn")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(events), "ns/event")
}

// BenchmarkTextDelta measures one streamed text delta through the loop into
// an Agent listener.
func BenchmarkTextDelta(b *testing.B) {
	const deltas = 1000
	resp := agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: strings.Repeat("x", deltas)}}, Chunks: deltas}
	b.ReportAllocs()
	for b.Loop() {
		fake := agentcoretest.New(resp)
		a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream})
		a.Subscribe(func(context.Context, agentcore.AgentEvent) {})
		require.NoError(b, a.Prompt(context.Background(), "go"))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*deltas), "ns/delta")
}

// BenchmarkRunToolCall measures the tool pipeline for one call: lookup,
// coercion and validation, hooks, execution.
func BenchmarkRunToolCall(b *testing.B) {
	tools := []agentcore.Tool{workTool()}
	call := agentcoretest.ToolCall("c1", "work", map[string]any{"path": "a.go", "n": "3"})
	opts := agentcore.RunToolCallOptions{Tools: tools,
		BeforeToolCall: func(context.Context, agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
			return nil, nil
		}}
	b.ReportAllocs()
	for b.Loop() {
		// require only on failure: it calls b.Helper, which the loop would measure.
		if out := agentcore.RunToolCall(context.Background(), call, opts); out.IsError {
			require.Fail(b, "tool call failed", "%v", out.Result.Content)
		}
	}
}

// BenchmarkReplay measures replaying the system messages of a long
// transcript into the current prompt and tools.
func BenchmarkReplay(b *testing.B) {
	msgs := []agentcore.Message{&agentcore.SystemMessage{Content: agentcore.Text("Base."), ToolsAdded: []agentcore.ToolDeclaration{workTool().Declaration()}}}
	for i := range 3000 {
		msgs = append(msgs, agentcore.UserText("u"))
		if i%100 == 0 {
			msgs = append(msgs, &agentcore.SystemMessage{Content: agentcore.Text(""), Sections: agentcore.Sections{{Name: "s", Text: fmt.Sprint(i)}}})
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = agentcore.SystemPromptText(agentcore.CurrentSystemMessage(msgs))
		_ = agentcore.CurrentTools(msgs)
	}
}

// BenchmarkToolBatch measures one call of a parallel batch of four inside
// an Agent run: events, validation, both tool hooks, execution, the result
// message.
func BenchmarkToolBatch(b *testing.B) {
	const turns = 50
	script := make([]agentcoretest.Response, 0, turns+1)
	for t := range turns {
		calls := make([]agentcore.ToolCall, 4)
		for c := range calls {
			calls[c] = agentcoretest.ToolCall(fmt.Sprintf("t%dc%d", t, c), "work", map[string]any{"path": fmt.Sprintf("src/file%d.go", c), "n": c})
		}
		script = append(script, agentcoretest.ToolCallResponse(calls...))
	}
	script = append(script, agentcoretest.TextResponse("done"))
	allow := func(context.Context, agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
		return nil, nil
	}
	keep := func(context.Context, agentcore.AfterToolCallContext) (*agentcore.AfterToolCallResult, error) {
		return nil, nil
	}
	b.ReportAllocs()
	for b.Loop() {
		fake := agentcoretest.New(script...)
		a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{workTool()},
			Hooks: agentcore.Hooks{BeforeToolCall: allow, AfterToolCall: keep}})
		a.Subscribe(func(context.Context, agentcore.AgentEvent) {})
		require.NoError(b, a.Prompt(context.Background(), "go"))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*turns*4), "ns/call")
}

// BenchmarkManyBlocks measures a reply of many text blocks, each a start,
// a delta and an end, ranged directly and through Agent.Prompt, whose
// listeners get a snapshot per event. Past MaxResponseBlocks the Agent ends
// the response, so its cost is bounded whatever the stream.
func BenchmarkManyBlocks(b *testing.B) {
	for _, n := range []int{100, agentcore.MaxResponseBlocks, 20000} {
		content := make([]agentcore.ContentBlock, n)
		for i := range content {
			content[i] = agentcore.TextBlock{Text: fmt.Sprint("block ", i)}
		}
		resp := agentcoretest.Response{Content: content}
		b.Run(fmt.Sprintf("direct/%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				stream := agentcoretest.New(resp).Stream(context.Background(), agentcoretest.Model(), agentcore.Request{}, agentcore.StreamOptions{})
				for range stream {
				}
			}
		})
		b.Run(fmt.Sprintf("agent/%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: agentcoretest.New(resp).Stream})
				a.Subscribe(func(context.Context, agentcore.AgentEvent) {})
				err := a.Prompt(context.Background(), "go")
				if n > agentcore.MaxResponseBlocks {
					require.ErrorIs(b, err, agentcore.ErrTooManyBlocks)
				} else {
					require.NoError(b, err)
				}
			}
		})
	}
}
