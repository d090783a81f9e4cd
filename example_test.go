package agentcore_test

import (
	"context"
	"fmt"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// weatherArgs are the arguments of the weather tool. The tool's JSON Schema is
// reflected from this struct: json tags name the properties and jsonschema
// tags add constraints.
type weatherArgs struct {
	City string `json:"city" jsonschema:"required" jsonschema_description:"City name, in English"`
}

// Example is the whole library in one screen: an Agent with a typed tool, a
// model (here the scripted fake; in production a provider's StreamFn), a
// listener that prints what happens, and one Prompt. The model asks for the
// tool, the Agent runs it and calls the model again with the result.
func Example() {
	weather := agentcore.NewTool("weather", "Current weather for a city.",
		func(ctx context.Context, callID string, args weatherArgs, onUpdate func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			return agentcore.TextResult("18°C and sunny in " + args.City), nil
		})

	fake := agentcoretest.New( // what the "model" answers, request by request
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("call-1", "weather", map[string]string{"city": "Lisbon"})),
		agentcoretest.TextResponse("It is 18°C and sunny in Lisbon."),
	)
	agent := agentcore.New(agentcore.Options{
		SystemPrompt: "You are a concise assistant.",
		Model:        agentcoretest.Model(),
		StreamFn:     fake.Stream,
		Tools:        []agentcore.Tool{weather},
	})
	agent.Subscribe(func(ctx context.Context, ev agentcore.AgentEvent) {
		switch ev := ev.(type) {
		case *agentcore.ToolExecutionStartEvent:
			fmt.Printf("tool %s %s\n", ev.ToolName, ev.Args)
		case *agentcore.MessageEndEvent:
			if m, ok := ev.Message.(*agentcore.AssistantMessage); ok && m.Text() != "" {
				fmt.Println("assistant:", m.Text())
			}
		}
	})
	if err := agent.Prompt(context.Background(), "What's the weather in Lisbon?"); err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(len(agent.Messages()), "messages,", fake.CallCount(), "model requests")
	// Output:
	// tool weather {"city":"Lisbon"}
	// assistant: It is 18°C and sunny in Lisbon.
	// 5 messages, 2 model requests
}
