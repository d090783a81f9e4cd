package hold_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/hold"
)

// Example holds a production deploy: the run ends held, a person approves,
// and Continue runs the deploy and asks the model again.
func Example() {
	deployTool := agentcore.NewTool("deploy", "Deploy the service.",
		func(_ context.Context, _ string, a deployArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			return agentcore.TextResult("deployed to " + a.Env), nil
		})
	gate := hold.New(hold.Options{Policy: hold.Always(hold.Request{Title: "Deploy?"}, "deploy")})
	model := agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("call-1", "deploy", map[string]string{"env": "production"})),
		agentcoretest.TextResponse("Deployed."),
	)
	agent := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: model.Stream,
		Tools: []agentcore.Tool{deployTool}, Layers: []agentcore.Layer{gate},
	})
	ctx := context.Background()

	err := agent.Prompt(ctx, "Ship it.")
	var held *hold.HeldError
	if errors.As(err, &held) {
		for _, c := range held.Calls {
			fmt.Printf("%s %s %s\n", c.Title, c.Tool, c.Arguments)
		}
	}
	if err := gate.Decide(hold.Approve{ID: "call-1"}); err != nil {
		fmt.Println(err)
	}
	if err := agent.Continue(ctx); err != nil {
		fmt.Println(err)
	}
	msgs := agent.Messages()
	fmt.Println(msgs[len(msgs)-2].(*agentcore.ToolResultMessage).Text())
	fmt.Println(msgs[len(msgs)-1].(*agentcore.AssistantMessage).Text())
	// Output:
	// Deploy? deploy {"env":"production"}
	// deployed to production
	// Deployed.
}
