package agentcore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// Prompt runs one whole run and returns when it is over. While it runs, the
// assistant message streams: every provider event arrives as a
// message_update whose AssistantEvent is the raw text delta, which is what
// a UI renders.
func ExampleAgent_Prompt() {
	reply := agentcoretest.TextResponse("Hello from the model.")
	reply.Chunks = 4 // stream the text as four deltas
	fake := agentcoretest.New(reply)
	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream})

	agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		switch ev := ev.(type) {
		case *agentcore.MessageUpdateEvent:
			if d, ok := ev.AssistantEvent.(*agentcore.TextDeltaEvent); ok {
				fmt.Printf("[%s]", d.Delta)
			}
		case *agentcore.MessageEndEvent:
			if m, ok := ev.Message.(*agentcore.AssistantMessage); ok {
				fmt.Printf("\nfinal: %q (%s)\n", m.Text(), m.StopReason)
			}
		}
	})

	if err := agent.Prompt(context.Background(), "Say hello."); err != nil {
		fmt.Println("error:", err)
		return
	}
	// Prompt has returned: the run and its agent_end listeners are done.
	st := agent.State()
	fmt.Println("streaming:", st.IsStreaming, "messages:", len(st.Messages))
	// Output:
	// [Hello ][from t][he mod][el.]
	// final: "Hello from the model." (stop)
	// streaming: false messages: 2
}

// Listeners run in subscription order on the run's goroutine and are
// awaited: the run waits for them, so a listener is a barrier. When an
// assistant message's message_end reaches a listener, the message is already
// in the transcript, and its tool calls have not been prepared yet. Events
// observe; they cannot change what the loop does (that is what [Hooks] are
// for).
func ExampleAgent_Subscribe() {
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "noop", nil)),
		agentcoretest.TextResponse("done"),
	)
	noop := agentcore.Tool{Name: "noop", Execute: func(context.Context, string, json.RawMessage, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.TextResult("ok"), nil
	}}
	var agent *agentcore.Agent
	agent = agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{noop},
		Hooks: agentcore.Hooks{
			BeforeToolCall: func(_ context.Context, call agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
				fmt.Println("  beforeToolCall: the context ends with", call.Context.Messages[len(call.Context.Messages)-1].Role())
				return nil, nil
			},
		},
	})
	unsubscribe := agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		switch ev := ev.(type) {
		case *agentcore.MessageUpdateEvent:
			return // streaming steps: too many to print here
		case *agentcore.MessageEndEvent:
			fmt.Printf("%s (%s; transcript has %d)\n", ev.Type(), ev.Message.Role(), len(agent.Messages()))
		default:
			fmt.Println(ev.Type())
		}
	})
	defer unsubscribe()

	// The transcript starts with the system message that declares the tool.

	if err := agent.Prompt(context.Background(), "go"); err != nil {
		fmt.Println("error:", err)
	}
	// Output:
	// agent_start
	// turn_start
	// message_start
	// message_end (user; transcript has 2)
	// message_start
	// message_end (assistant; transcript has 3)
	// tool_execution_start
	//   beforeToolCall: the context ends with assistant
	// tool_execution_end
	// message_start
	// message_end (toolResult; transcript has 4)
	// turn_end
	// turn_start
	// message_start
	// message_end (assistant; transcript has 5)
	// turn_end
	// agent_end
}

// An Agent runs one run at a time. While one is active, Prompt, Continue and
// Reset fail with [agentcore.ErrBusy] and change nothing; input goes to the
// queues instead. WaitForIdle returns once the run, agent_end listeners
// included, is over.
func ExampleAgent_WaitForIdle() {
	started := make(chan struct{})
	fake := agentcoretest.New(
		agentcoretest.Response{
			Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "working..."}},
			Hang:    true, // until aborted
			OnStart: func(context.Context) { close(started) },
		},
		agentcoretest.TextResponse("Handled the steering message."),
	)
	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream})
	ctx := context.Background()

	done := make(chan error, 1)
	go func() { done <- agent.Prompt(ctx, "long task") }()
	<-started

	err := agent.Prompt(ctx, "another task")
	fmt.Println("busy:", errors.Is(err, agentcore.ErrBusy), "| streaming:", agent.IsStreaming())
	agent.Steer(agentcore.UserText("queued instead"))

	agent.Abort()
	if err := agent.WaitForIdle(ctx); err != nil {
		fmt.Println("error:", err)
	}
	fmt.Println("run returned:", <-done, "| streaming:", agent.IsStreaming(), "| queued:", agent.HasQueued())

	// The transcript ends in the aborted reply; Continue takes the queued
	// steering message as the new run's input.
	if err := agent.Continue(ctx); err != nil {
		fmt.Println("error:", err)
	}
	msgs := agent.Messages()
	fmt.Println(msgs[len(msgs)-1].(*agentcore.AssistantMessage).Text())

	if err := agent.Reset(); err != nil {
		fmt.Println("error:", err)
	}
	fmt.Println("after Reset:", len(agent.Messages()), "messages")
	// Output:
	// busy: true | streaming: true
	// run returned: agentcore: run aborted: Request was aborted | streaming: false | queued: true
	// Handled the steering message.
	// after Reset: 0 messages
}

// Events are immutable: a listener keeps them as they are, here the
// message_update events of the text deltas, and reads them after the run.
func ExampleMessageUpdateEvent() {
	fake := agentcoretest.New(agentcoretest.Response{
		Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "kept as streamed"}}, Chunks: 3,
	})
	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream})
	var kept []*agentcore.MessageUpdateEvent
	agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		if u, ok := ev.(*agentcore.MessageUpdateEvent); ok {
			if _, delta := u.AssistantEvent.(*agentcore.TextDeltaEvent); delta {
				kept = append(kept, u)
			}
		}
	})
	if err := agent.Prompt(context.Background(), "go"); err != nil {
		fmt.Println(err)
	}
	for _, u := range kept {
		fmt.Printf("%q after %q\n", u.Message.Text(), u.AssistantEvent.(*agentcore.TextDeltaEvent).Delta)
	}
	// Output:
	// "kept a" after "kept a"
	// "kept as stre" after "s stre"
	// "kept as streamed" after "amed"
}
