package agentotel

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// TestRegistryEmptiesAfterRuns checks that an Agent's runs leave no turn
// registered, whether they end normally or fail in the middle of a turn.
func TestRegistryEmptiesAfterRuns(t *testing.T) {
	in := New(Config{TracerProvider: sdktrace.NewTracerProvider(), MeterProvider: sdkmetric.NewMeterProvider()})
	echo := agentcore.NewTool("echo", "Echoes.", func(context.Context, string, struct{}, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.TextResult("ok"), nil
	})
	fail := false
	fake := agentcoretest.NewFunc(func(_ context.Context, call agentcoretest.Call) agentcoretest.Response {
		msgs := call.Request.Messages
		if _, ok := msgs[len(msgs)-1].(*agentcore.ToolResultMessage); ok {
			return agentcoretest.TextResponse("done")
		}
		return agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "echo", nil))
	})
	agent := in.NewAgent(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{echo},
		Hooks: agentcore.Hooks{FinishTurn: func(context.Context, agentcore.TurnContext) (agentcore.TurnDecision, error) {
			if fail {
				return agentcore.TurnDefault, errors.New("store down")
			}
			return agentcore.TurnDefault, nil
		}},
	})
	for _, failing := range []bool{false, true, false} {
		fail = failing
		err := agent.Prompt(context.Background(), "go")
		if failing {
			require.Error(t, err)
		} else {
			require.NoError(t, err)
		}
		in.turns.mu.Lock()
		assert.Empty(t, in.turns.turns, "failing=%v", failing)
		in.turns.mu.Unlock()
	}
}
