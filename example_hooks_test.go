package agentcore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// Every hook in the order it runs. The first turn runs a tool; the second
// turn answers. PrepareNextTurn runs only between turns; PrepareRequest,
// TransformContext, ConvertToLLM and GetAPIKey run before every request;
// the tool hooks run around the tool's execution; FinishTurn runs last,
// just before turn_end.
func ExampleHooks() {
	var order []string
	note := func(s string) { order = append(order, s) }
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "edit", map[string]string{"file": "foo.go"})),
		agentcoretest.TextResponse("done"),
	)
	agent := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{editTool()},
		Hooks: agentcore.Hooks{
			PrepareNextTurn: func(context.Context, agentcore.TurnContext) (*agentcore.TurnUpdate, error) {
				note("PrepareNextTurn")
				return nil, nil
			},
			PrepareRequest: func(context.Context, agentcore.RequestContext) (*agentcore.RequestUpdate, error) {
				note("PrepareRequest")
				return nil, nil
			},
			TransformContext: func(_ context.Context, m []agentcore.Message) ([]agentcore.Message, error) {
				note("TransformContext")
				return m, nil
			},
			ConvertToLLM: func(ctx context.Context, m []agentcore.Message) ([]agentcore.Message, error) {
				note("ConvertToLLM")
				return agentcore.DefaultConvertToLLM(ctx, m)
			},
			GetAPIKey: func(context.Context, string) (string, error) {
				note("GetAPIKey")
				return "short-lived-token", nil
			},
			BeforeToolCall: func(context.Context, agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
				note("BeforeToolCall")
				return nil, nil
			},
			AfterToolCall: func(context.Context, agentcore.AfterToolCallContext) (*agentcore.AfterToolCallResult, error) {
				note("AfterToolCall")
				return nil, nil
			},
			FinishTurn: func(context.Context, agentcore.TurnContext) (agentcore.TurnDecision, error) {
				note("FinishTurn")
				return agentcore.TurnDefault, nil
			},
		},
	})
	agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		switch ev.(type) {
		case *agentcore.TurnStartEvent, *agentcore.TurnEndEvent, *agentcore.ToolExecutionStartEvent, *agentcore.ToolExecutionEndEvent:
			note(ev.Type())
		}
	})
	if err := agent.Prompt(context.Background(), "go"); err != nil {
		fmt.Println("error:", err)
	}
	fmt.Println(strings.Join(order, "\n"))
	// Output:
	// turn_start
	// PrepareRequest
	// TransformContext
	// ConvertToLLM
	// GetAPIKey
	// tool_execution_start
	// BeforeToolCall
	// AfterToolCall
	// tool_execution_end
	// FinishTurn
	// turn_end
	// PrepareNextTurn
	// turn_start
	// PrepareRequest
	// TransformContext
	// ConvertToLLM
	// GetAPIKey
	// FinishTurn
	// turn_end
}

// BeforeToolCall is where permission checks go: it runs after the
// arguments were validated and before the tool executes, and its answer is
// the decision. A blocked call does not run; the model receives an error
// tool result with the reason and can adapt on the next request.
func ExampleHooks_beforeToolCall() {
	type shellArgs struct {
		Command string `json:"command" jsonschema:"required"`
	}
	shell := agentcore.NewTool("shell", "Run a shell command.",
		func(_ context.Context, _ string, args shellArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			return agentcore.TextResult("ran: " + args.Command), nil
		})
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(
			agentcoretest.ToolCall("c1", "shell", map[string]string{"command": "go test ./..."}),
			agentcoretest.ToolCall("c2", "shell", map[string]string{"command": "rm -rf /"}),
		),
		agentcoretest.TextResponse("Tests ran; I will not delete anything."),
	)
	agent := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{shell},
		Hooks: agentcore.Hooks{
			BeforeToolCall: func(_ context.Context, call agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
				args, err := agentcore.DecodeArgs[shellArgs](call.Args) // as the tool gets them
				if err != nil {
					return nil, err // fails this call with the error's text
				}
				if strings.HasPrefix(args.Command, "rm ") {
					return agentcore.Block("Blocked by policy: " + args.Command), nil
				}
				return nil, nil // allow
			},
		},
	})
	if err := agent.Prompt(context.Background(), "Run the tests, then clean up."); err != nil {
		fmt.Println("error:", err)
	}
	// What the second request showed the model:
	for _, m := range fake.Calls()[1].Request.Messages {
		printMessage(m)
	}
	// Output:
	// user: Run the tests, then clean up.
	// assistant calls shell{"command":"go test ./..."}, shell{"command":"rm -rf /"}
	// tool result c1: ran: go test ./... (error=false)
	// tool result c2: Blocked by policy: rm -rf / (error=true)
}

// AfterToolCall runs after the tool executed and before tool_execution_end,
// and may override the result field by field: here it redacts secrets from
// the content the model will see, and keeps the tool's details for the UI.
func ExampleHooks_afterToolCall() {
	env := agentcore.Tool{Name: "env", Execute: func(context.Context, string, json.RawMessage, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.ToolResult{
			Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "HOME=/home/ada\nOPENAI_API_KEY=sk-live-1234"}},
			Details: map[string]int{"variables": 2},
		}, nil
	}}
	secret := regexp.MustCompile(`(?m)^(\w*(KEY|TOKEN|SECRET)\w*)=.*$`)
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "env", nil)),
		agentcoretest.TextResponse("Your HOME is /home/ada."),
	)
	agent := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{env},
		Hooks: agentcore.Hooks{
			AfterToolCall: func(_ context.Context, call agentcore.AfterToolCallContext) (*agentcore.AfterToolCallResult, error) {
				text := agentcore.Blocks(call.Result.Content...).Text()
				redacted := secret.ReplaceAllString(text, "$1=[redacted]")
				if redacted == text {
					return nil, nil // keep the result as it is
				}
				// Only Content is replaced; Details, IsError and the rest are kept.
				return &agentcore.AfterToolCallResult{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: redacted}}}, nil
			},
		},
	})
	if err := agent.Prompt(context.Background(), "What is in my environment?"); err != nil {
		fmt.Println("error:", err)
	}
	msgs := fake.Calls()[1].Request.Messages
	result := msgs[len(msgs)-1].(*agentcore.ToolResultMessage)
	fmt.Println(agentcore.Blocks(result.Content...).Text())
	fmt.Println("details:", result.Details)
	// Output:
	// HOME=/home/ada
	// OPENAI_API_KEY=[redacted]
	// details: map[variables:2]
}
