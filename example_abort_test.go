package agentcore_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// Abort is cooperative: it cancels the run's ctx, which the stream function,
// the hooks and the tools all receive. A provider that sees it ends the
// response with stopReason "aborted"; the loop treats that as a hard exit
// (turn_end, agent_end, no queue is polled). Queued messages survive an
// abort: what to do with them is the application's decision.
func ExampleAgent_Abort() {
	// The model streams some text, then hangs until the request is aborted.
	fake := agentcoretest.New(agentcoretest.Response{
		Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "Let me think about this for a long"}},
		Hang:    true,
	})
	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream})
	agent.FollowUp(agentcore.UserText("and then this"))
	agent.Subscribe(func(ctx context.Context, ev agentcore.AgentEvent) {
		switch ev := ev.(type) {
		case *agentcore.MessageUpdateEvent:
			if _, ok := ev.AssistantEvent.(*agentcore.TextEndEvent); ok {
				fmt.Println("user presses Esc")
				agent.Abort() // from a listener, another goroutine or a signal handler
			}
		case *agentcore.TurnEndEvent, *agentcore.AgentEndEvent:
			fmt.Println(ev.Type(), "(run ctx cancelled:", ctx.Err() != nil, ")")
		}
	})

	err := agent.Prompt(context.Background(), "Think hard.")
	fmt.Println("error:", err, "| cancelled:", errors.Is(err, context.Canceled))
	last := agent.Messages()[len(agent.Messages())-1].(*agentcore.AssistantMessage)
	fmt.Printf("last message: %q [%s] %s\n", last.Text(), last.StopReason, last.ErrorMessage)
	fmt.Println("state error:", agent.State().ErrorMessage)
	fmt.Println("follow-up still queued:", agent.HasQueued())
	// Output:
	// user presses Esc
	// turn_end (run ctx cancelled: true )
	// agent_end (run ctx cancelled: true )
	// error: agentcore: run aborted: Request was aborted | cancelled: true
	// last message: "Let me think about this for a long" [aborted] Request was aborted
	// state error: Request was aborted
	// follow-up still queued: true
}

// Continue starts a run from the transcript as it is, without a new message:
// the primitive under retries. agentcore never retries by itself; a provider
// failure ends the run with an assistant message whose stopReason is "error"
// (the stream function's contract) and a [agentcore.RunError], and the
// layer above decides. Here it retries transient errors
// ([agentcore.IsRetryable]) with exponential backoff: it waits (honoring
// ctx), drops the failed assistant message from the transcript, since a run
// cannot continue from an assistant message, and calls Continue.
// examples/retry has the complete policy.
func ExampleAgent_Continue() {
	fake := agentcoretest.New(
		agentcoretest.ErrorResponse("529 overloaded_error: Overloaded"),
		agentcoretest.ErrorResponse("529 overloaded_error: Overloaded"),
		agentcoretest.TextResponse("Here is your answer."),
	)
	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream})
	ctx := context.Background()

	err := agent.Prompt(ctx, "Question?")
	for attempt := 1; agentcore.IsRetryable(err) && attempt <= 3; attempt++ {
		delay := time.Millisecond << (attempt - 1) // 1ms, 2ms, 4ms: tiny for the example
		fmt.Printf("attempt %d: %v; retrying in %v\n", attempt, err, delay)
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return
		}
		msgs := agent.Messages()
		agent.SetMessages(msgs[:len(msgs)-1]) // the failed reply leaves the transcript
		err = agent.Continue(ctx)
	}
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	for _, m := range agent.Messages() {
		printMessage(m)
	}
	// Output:
	// attempt 1: agentcore: run failed: 529 overloaded_error: Overloaded; retrying in 1ms
	// attempt 2: agentcore: run failed: 529 overloaded_error: Overloaded; retrying in 2ms
	// user: Question?
	// assistant: Here is your answer. [stop]
}
