package agentcore_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// printMessage prints a finished message of the transcript on one line.
func printMessage(m agentcore.Message) {
	switch m := m.(type) {
	case *agentcore.UserMessage:
		fmt.Println("user:", m.Content.Text())
	case *agentcore.AssistantMessage:
		var calls []string
		for _, c := range m.ToolCalls() {
			calls = append(calls, c.Name+string(c.Arguments))
		}
		if len(calls) > 0 {
			fmt.Println("assistant calls", strings.Join(calls, ", "))
		} else {
			fmt.Printf("assistant: %s [%s]\n", m.Text(), m.StopReason)
		}
	case *agentcore.ToolResultMessage:
		fmt.Printf("tool result %s: %s (error=%v)\n", m.ToolCallID, agentcore.Blocks(m.Content...).Text(), m.IsError)
	}
}

// editTool pretends to edit the file named in its arguments.
func editTool() agentcore.Tool {
	type editArgs struct {
		File string `json:"file" jsonschema:"required"`
	}
	return agentcore.NewTool("edit", "Edit a file.",
		func(_ context.Context, _ string, args editArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			return agentcore.TextResult("edited " + args.File), nil
		})
}

// Steer injects a message at the next safe point: after every tool call of
// the current assistant message has finished, before the next model request.
// It never interrupts work in progress; here the user types while the first
// of two edits starts, and both edits still run.
func ExampleAgent_Steer() {
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(
			agentcoretest.ToolCall("c1", "edit", map[string]string{"file": "foo.go"}),
			agentcoretest.ToolCall("c2", "edit", map[string]string{"file": "foo_test.go"}),
		),
		agentcoretest.TextResponse("Understood: internal changes only."),
	)
	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{editTool()}})
	agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		switch ev := ev.(type) {
		case *agentcore.ToolExecutionStartEvent:
			if ev.ToolCallID == "c1" {
				fmt.Println("  (the user steers while c1 starts)")
				agent.Steer(agentcore.UserText("Don't change the public API."))
			}
		case *agentcore.MessageEndEvent:
			printMessage(ev.Message)
		}
	})
	if err := agent.Prompt(context.Background(), "Fix the failing test."); err != nil {
		fmt.Println("error:", err)
	}
	fmt.Println("model requests:", fake.CallCount())
	// Output:
	// user: Fix the failing test.
	// assistant calls edit{"file":"foo.go"}, edit{"file":"foo_test.go"}
	//   (the user steers while c1 starts)
	// tool result c1: edited foo.go (error=false)
	// tool result c2: edited foo_test.go (error=false)
	// user: Don't change the public API.
	// assistant: Understood: internal changes only. [stop]
	// model requests: 2
}

// FollowUp queues work for when the agent would otherwise stop. It is taken
// only once the model answers without tool calls and no steering is
// queued, and it runs in the same run: one agent_start, one agent_end.
func ExampleAgent_FollowUp() {
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "edit", map[string]string{"file": "foo.go"})),
		agentcoretest.TextResponse("The test passes now."),
		agentcoretest.TextResponse("CHANGELOG updated."),
	)
	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{editTool()}})
	agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		switch ev := ev.(type) {
		case *agentcore.AgentStartEvent, *agentcore.AgentEndEvent:
			fmt.Println(ev.Type())
		case *agentcore.ToolExecutionStartEvent:
			fmt.Println("  (the user queues a follow-up while the edit runs)")
			agent.FollowUp(agentcore.UserText("Then update the CHANGELOG."))
		case *agentcore.MessageEndEvent:
			printMessage(ev.Message)
		}
	})
	if err := agent.Prompt(context.Background(), "Fix the failing test."); err != nil {
		fmt.Println("error:", err)
	}
	// Output:
	// agent_start
	// user: Fix the failing test.
	// assistant calls edit{"file":"foo.go"}
	//   (the user queues a follow-up while the edit runs)
	// tool result c1: edited foo.go (error=false)
	// assistant: The test passes now. [stop]
	// user: Then update the CHANGELOG.
	// assistant: CHANGELOG updated. [stop]
	// agent_end
}

// Each queue has a mode. [agentcore.QueueModeOneAtATime], the default, hands
// the model one queued message per drain point; [agentcore.QueueModeAll] hands
// over the whole queue at once. PeekQueued shows what the next drain point
// would take without taking it.
func ExampleAgent_PeekQueued() {
	fake := agentcoretest.NewFunc(func(_ context.Context, call agentcoretest.Call) agentcoretest.Response {
		var users []string
		for _, m := range call.Request.Messages {
			if u, ok := m.(*agentcore.UserMessage); ok {
				users = append(users, u.Content.Text())
			}
		}
		fmt.Printf("request %d sees %s\n", call.Index, strings.Join(users, " + "))
		return agentcoretest.TextResponse("ok")
	})
	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream})
	agent.Steer(agentcore.UserText("s1"))
	agent.Steer(agentcore.UserText("s2"))
	fmt.Println("next drain takes", len(agent.PeekQueued()), "message")
	agent.SetSteeringMode(agentcore.QueueModeAll)
	fmt.Println("in mode all it takes", len(agent.PeekQueued()))
	agent.SetSteeringMode(agentcore.QueueModeOneAtATime)

	// The run polls steering at its start, then after every turn.
	if err := agent.Prompt(context.Background(), "go"); err != nil {
		fmt.Println("error:", err)
	}
	fmt.Println("queued after the run:", agent.HasQueued())
	// Output:
	// next drain takes 1 message
	// in mode all it takes 2
	// request 1 sees go + s1
	// request 2 sees go + s1 + s2
	// queued after the run: false
}
