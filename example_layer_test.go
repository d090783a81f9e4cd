package agentcore_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// auditLayer is a program's own layer: it logs every tool call it lets
// through and refuses the ones its policy forbids. It composes with the
// program's hooks instead of replacing them.
func auditLayer(log *[]string, forbidden string) agentcore.Layer {
	return agentcore.LayerFunc(func(s *agentcore.Setup) {
		s.AddHooks(agentcore.Hooks{
			BeforeToolCall: func(_ context.Context, c agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
				if strings.Contains(string(c.Args), forbidden) {
					*log = append(*log, "refused "+c.ToolCall.Name)
					return agentcore.Block("refused by policy"), nil
				}
				*log = append(*log, "allowed "+c.ToolCall.Name)
				return nil, nil
			},
		})
		s.WrapRun(func(next agentcore.RunFunc) agentcore.RunFunc {
			return func(ctx context.Context, run agentcore.Run) error {
				*log = append(*log, fmt.Sprintf("run with %d prompt(s)", len(run.Prompts)))
				return next(ctx, run)
			}
		})
	})
}

// A layer beside the program's own hook: both run, the layer's first.
func ExampleLayer() {
	var log []string
	weather := agentcore.NewTool("weather", "Current weather for a city.",
		func(_ context.Context, _ string, args struct{ City string }, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			return agentcore.TextResult("18°C in " + args.City), nil
		})
	model := agentcoretest.New(
		agentcoretest.ToolCallResponse(
			agentcoretest.ToolCall("c1", "weather", map[string]string{"City": "Lisbon"}),
			agentcoretest.ToolCall("c2", "weather", map[string]string{"City": "Atlantis"}),
		),
		agentcoretest.TextResponse("Lisbon is sunny; Atlantis I may not look up."),
	)
	agent := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: model.Stream, Tools: []agentcore.Tool{weather},
		Hooks: agentcore.Hooks{
			BeforeToolCall: func(_ context.Context, c agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
				log = append(log, "program saw "+c.ToolCall.ID)
				return nil, nil
			},
		},
		Layers: []agentcore.Layer{auditLayer(&log, "Atlantis")},
	})
	if err := agent.Prompt(context.Background(), "Weather in Lisbon and Atlantis?"); err != nil {
		fmt.Println("run failed:", err)
		return
	}
	for _, l := range log {
		fmt.Println(l)
	}
	// Output:
	// run with 1 prompt(s)
	// allowed weather
	// program saw c1
	// refused weather
}
