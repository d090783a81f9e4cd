package agentcore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// TransformContext shapes the view of one request without touching the
// transcript: here it prunes old history, keeping the system messages (the
// prompt and the tool declarations live there) and the last three others.
// The Agent's transcript keeps everything.
func ExampleHooks_transformContext() {
	old := func(text string) *agentcore.AssistantMessage {
		return &agentcore.AssistantMessage{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: text}}, StopReason: agentcore.StopStop}
	}
	fake := agentcoretest.New(agentcoretest.TextResponse("a3"))
	agent := agentcore.New(agentcore.Options{
		SystemPrompt: "Be brief.",
		Model:        agentcoretest.Model(),
		StreamFn:     fake.Stream,
		Messages: []agentcore.Message{
			agentcore.UserText("q1"), old("a1"), agentcore.UserText("q2"), old("a2"),
		},
		Hooks: agentcore.Hooks{
			TransformContext: func(_ context.Context, messages []agentcore.Message) ([]agentcore.Message, error) {
				const keep = 3
				var system, rest []agentcore.Message
				for _, m := range messages {
					if m.Role() == "system" {
						system = append(system, m)
					} else {
						rest = append(rest, m)
					}
				}
				if len(rest) > keep {
					rest = rest[len(rest)-keep:]
				}
				// A new slice: the hook must not modify the one it was given.
				return append(system, rest...), nil
			},
		},
	})
	if err := agent.Prompt(context.Background(), "q3"); err != nil {
		fmt.Println("error:", err)
	}
	var seen []string
	for _, m := range fake.Calls()[0].Request.Messages {
		seen = append(seen, m.Role())
	}
	fmt.Println("the model saw:", strings.Join(seen, " "))
	fmt.Println("the transcript has", len(agent.Messages()), "messages")
	// Output:
	// the model saw: system user assistant user
	// the transcript has 7 messages
}

// FinishTurn runs once a turn's assistant message and tool results are
// final, and decides how the run goes on. Returning [agentcore.TurnEnd]
// ends the run right after turn_end, without polling the queues: here it
// caps a model that would call tools forever at three turns.
func ExampleHooks_finishTurn() {
	fake := agentcoretest.NewFunc(func(_ context.Context, call agentcoretest.Call) agentcoretest.Response {
		return agentcoretest.ToolCallResponse(agentcoretest.ToolCall(fmt.Sprint("c", call.Index), "step", nil))
	})
	step := agentcore.Tool{Name: "step", Execute: func(context.Context, string, json.RawMessage, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.TextResult("stepped"), nil
	}}
	turns := 0
	agent := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{step},
		Hooks: agentcore.Hooks{
			FinishTurn: func(_ context.Context, turn agentcore.TurnContext) (agentcore.TurnDecision, error) {
				turns++
				fmt.Printf("turn %d: %d tool result(s), %d new messages so far\n", turns, len(turn.ToolResults), len(turn.NewMessages))
				if turns == 3 {
					return agentcore.TurnEnd, nil
				}
				return agentcore.TurnDefault, nil
			},
		},
	})
	agent.FollowUp(agentcore.UserText("not taken: TurnEnd skips the queues"))
	if err := agent.Prompt(context.Background(), "Work."); err != nil {
		fmt.Println("error:", err)
	}
	fmt.Println("model requests:", fake.CallCount(), "follow-up still queued:", agent.HasQueued())
	// Output:
	// turn 1: 1 tool result(s), 3 new messages so far
	// turn 2: 1 tool result(s), 5 new messages so far
	// turn 3: 1 tool result(s), 7 new messages so far
	// model requests: 3 follow-up still queued: true
}

// A turn limit: nothing in the loop caps how many times a model that keeps
// calling tools is asked again, so a program that cannot trust its model
// ends runs itself, with a FinishTurn that counts the run's turns (its
// assistant messages so far) and answers [agentcore.TurnEnd] at the
// limit. Counting from turn.NewMessages makes the limit per run: the next
// Prompt gets the same budget.
func Example_turnLimit() {
	const maxTurns = 4
	limit := func(_ context.Context, turn agentcore.TurnContext) (agentcore.TurnDecision, error) {
		turns := 0
		for _, m := range turn.NewMessages {
			if _, ok := m.(*agentcore.AssistantMessage); ok {
				turns++
			}
		}
		if turns >= maxTurns {
			return agentcore.TurnEnd, nil
		}
		return agentcore.TurnDefault, nil
	}
	// A model that never stops calling tools.
	fake := agentcoretest.NewFunc(func(_ context.Context, call agentcoretest.Call) agentcoretest.Response {
		return agentcoretest.ToolCallResponse(agentcoretest.ToolCall(fmt.Sprint("c", call.Index), "search", nil))
	})
	search := agentcore.Tool{Name: "search", Execute: func(context.Context, string, json.RawMessage, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.TextResult("nothing yet"), nil
	}}
	agent := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{search},
		Hooks: agentcore.Hooks{FinishTurn: limit},
	})
	for _, prompt := range []string{"Find it.", "Try again."} {
		before := fake.CallCount()
		err := agent.Prompt(context.Background(), prompt)
		fmt.Printf("%q: %d model requests, error: %v\n", prompt, fake.CallCount()-before, err)
	}
	// Output:
	// "Find it.": 4 model requests, error: <nil>
	// "Try again.": 4 model requests, error: <nil>
}

// [agentcore.TurnContinue] asks for at least one more request even though
// the model stopped. When nothing else (tool results, steering, follow-ups)
// would cause one, the loop adds exactly one; PrepareNextTurn, which runs
// before every turn but the first, can append the message that says why.
// Returning TurnContinue unconditionally would never end.
func ExampleTurnContinue() {
	fake := agentcoretest.New(
		agentcoretest.TextResponse("Draft answer."),
		agentcoretest.TextResponse("DONE: checked answer."),
	)
	agent := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: fake.Stream,
		Hooks: agentcore.Hooks{
			FinishTurn: func(_ context.Context, turn agentcore.TurnContext) (agentcore.TurnDecision, error) {
				if !strings.HasPrefix(turn.Message.Text(), "DONE") {
					return agentcore.TurnContinue, nil
				}
				return agentcore.TurnDefault, nil
			},
			PrepareNextTurn: func(_ context.Context, turn agentcore.TurnContext) (*agentcore.TurnUpdate, error) {
				if strings.HasPrefix(turn.Message.Text(), "DONE") {
					return nil, nil
				}
				return &agentcore.TurnUpdate{Messages: []agentcore.Message{agentcore.UserText("Check your answer, then start with DONE.")}}, nil
			},
		},
	})
	agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		if ev, ok := ev.(*agentcore.MessageEndEvent); ok {
			printMessage(ev.Message)
		}
	})
	if err := agent.Prompt(context.Background(), "Answer."); err != nil {
		fmt.Println("error:", err)
	}
	// Output:
	// user: Answer.
	// assistant: Draft answer. [stop]
	// user: Check your answer, then start with DONE.
	// assistant: DONE: checked answer. [stop]
}
