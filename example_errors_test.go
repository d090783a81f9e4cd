package agentcore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// Tool failures never crash the loop: an unknown tool, a tool that returns
// an error, a tool that panics and a call blocked by a hook all become
// error tool results the model sees and can recover from. The run goes on.
func ExampleTool_failures() {
	failing := agentcore.Tool{Name: "fails", Execute: func(context.Context, string, json.RawMessage, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.ToolResult{}, errors.New("disk full")
	}}
	panicking := agentcore.Tool{Name: "panics", Execute: func(context.Context, string, json.RawMessage, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		var m map[string]int
		m["x"] = 1 // a bug in the tool
		return agentcore.ToolResult{}, nil
	}}
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(
			agentcoretest.ToolCall("c1", "missing", nil),
			agentcoretest.ToolCall("c2", "fails", nil),
			agentcoretest.ToolCall("c3", "panics", nil),
		),
		agentcoretest.TextResponse("Three failures; I'll try something else."),
	)
	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{failing, panicking}})
	if err := agent.Prompt(context.Background(), "go"); err != nil {
		fmt.Println("error:", err)
	}
	for _, m := range agent.Messages() {
		printMessage(m)
	}
	// Output:
	// user: go
	// assistant calls missing{}, fails{}, panics{}
	// tool result c1: Tool missing not found (error=true)
	// tool result c2: disk full (error=true)
	// tool result c3: assignment to entry in nil map (error=true)
	// assistant: Three failures; I'll try something else. [stop]
}

// A response cut off by the output token limit (stopReason "length") may
// carry truncated tool-call arguments, so none of its calls runs: each gets
// an error result asking the model to re-issue it.
func ExampleStopLength() {
	ran := false
	write := agentcore.Tool{Name: "write", Execute: func(context.Context, string, json.RawMessage, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		ran = true
		return agentcore.TextResult("written"), nil
	}}
	truncated := agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "write", map[string]string{"text": "half a"}))
	truncated.StopReason = agentcore.StopLength
	fake := agentcoretest.New(truncated, agentcoretest.TextResponse("Re-issuing."))
	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{write}})
	if err := agent.Prompt(context.Background(), "Write it."); err != nil {
		fmt.Println("error:", err)
	}
	for _, m := range agent.Messages() {
		if r, ok := m.(*agentcore.ToolResultMessage); ok {
			fmt.Println(agentcore.Blocks(r.Content...).Text())
		}
	}
	fmt.Println("executed:", ran)
	// Output:
	// Tool call "write" was not executed: the response hit the output token limit, so its arguments may be truncated. Re-issue the tool call with complete arguments.
	// executed: false
}

// The three layers of failure. A provider failure is an assistant message
// with stopReason "error" that ends the run normally (events, transcript,
// State.ErrorMessage) and makes Prompt return a [agentcore.RunError]. A
// hook that fails outside the tool pipeline, which breaks the hooks'
// contract, ends the run with the Agent's minimal failure sequence: an
// empty assistant message carrying the error, then turn_end and agent_end,
// so listeners always see a run finish; Prompt returns a RunError whose Err
// is the hook's error.
func ExampleHooks_errors() {
	fake := agentcoretest.New(
		agentcoretest.ErrorResponse("503 service unavailable"),
		agentcoretest.TextResponse("never requested"),
	)
	failPrepare := false
	agent := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: fake.Stream,
		Hooks: agentcore.Hooks{
			PrepareRequest: func(context.Context, agentcore.RequestContext) (*agentcore.RequestUpdate, error) {
				if failPrepare {
					return nil, errors.New("session store unavailable")
				}
				return nil, nil
			},
		},
	})
	agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		switch ev := ev.(type) {
		case *agentcore.MessageEndEvent:
			if m, ok := ev.Message.(*agentcore.AssistantMessage); ok {
				fmt.Printf("  assistant [%s] %q\n", m.StopReason, m.ErrorMessage)
			}
		case *agentcore.TurnEndEvent, *agentcore.AgentEndEvent:
			fmt.Println(" ", ev.Type())
		}
	})
	ctx := context.Background()

	fmt.Println("provider failure:")
	err := agent.Prompt(ctx, "one")
	fmt.Println("  Prompt error:", err, "| state:", agent.State().ErrorMessage)

	fmt.Println("hook failure:")
	failPrepare = true
	err = agent.Prompt(ctx, "two")
	fmt.Println("  Prompt error:", err, "| state:", agent.State().ErrorMessage)
	// Output:
	// provider failure:
	//   assistant [error] "503 service unavailable"
	//   turn_end
	//   agent_end
	//   Prompt error: agentcore: run failed: 503 service unavailable | state: 503 service unavailable
	// hook failure:
	//   assistant [error] "session store unavailable"
	//   turn_end
	//   agent_end
	//   Prompt error: agentcore: run failed: session store unavailable | state: session store unavailable
}

// A run that fails returns a RunError: it carries the run's final message
// and unwraps to what ended the run, here the provider's typed failure
// (a stream function puts it on the message's Err) and, for an abort, the
// ctx's error, which tells a timeout from Abort.
func ExampleRunError() {
	overloaded := func(ctx context.Context, _ agentcore.Model, _ agentcore.Request, _ agentcore.StreamOptions) agentcore.AssistantStream {
		return agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
			w.Error(&agentcore.AssistantMessage{
				Content: []agentcore.ContentBlock{}, StopReason: agentcore.StopError, ErrorMessage: "529 overloaded",
				Err: &agentcore.ProviderError{StatusCode: 529, Message: "529 overloaded", RetryAfter: 2 * time.Second},
			})
		})
	}
	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: overloaded})
	err := agent.Prompt(context.Background(), "Hi.")
	if pe, ok := errors.AsType[*agentcore.ProviderError](err); ok {
		fmt.Println("status", pe.StatusCode, "| retry after", pe.RetryAfter, "| retryable", pe.Retryable())
	}

	slow := agentcoretest.New(agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "..."}}, Hang: true})
	agent = agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: slow.Stream})
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	err = agent.Prompt(ctx, "Hi.")
	runErr, _ := errors.AsType[*agentcore.RunError](err)
	fmt.Println(runErr.Message.StopReason, "| timeout:", errors.Is(err, context.DeadlineExceeded))
	// Output:
	// status 529 | retry after 2s | retryable true
	// aborted | timeout: true
}
