package agentotel_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/hold"
	agentotel "github.com/pi-go/agentcore/otel"
)

// TestHoldEvents records the two hours a held call waited for its
// approval as a span and in the hold histogram, beside the run's own
// spans.
func TestHoldEvents(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(agentotel.Config{})
		gate := hold.New(hold.Options{
			Policy:  hold.Always(hold.Request{Title: "Read it?"}, "read"),
			OnEvent: h.inst.HoldEvents(nil),
		})
		fake := agentcoretest.New(
			agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "read", readArgs{Path: "b.txt"})),
			agentcoretest.TextResponse("ok"),
		)
		agent := agentcore.New(agentcore.Options{
			Model: model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{readTool()},
			Layers: []agentcore.Layer{h.inst, gate},
		})
		require.ErrorIs(t, agent.Prompt(context.Background(), "go"), hold.ErrHeld)
		time.Sleep(2 * time.Hour)
		require.NoError(t, gate.Decide(hold.Approve{ID: "c1"}))
		require.NoError(t, agent.Continue(context.Background()))

		var found bool
		for _, s := range h.spans.Ended() {
			if s.Name() != "hold read" {
				continue
			}
			found = true
			assert.Equal(t, 2*time.Hour, s.EndTime().Sub(s.StartTime()))
			assert.Contains(t, s.Attributes(), agentotel.AttrHoldDecision.String("approve"))
			assert.Contains(t, s.Attributes(), attribute.String("gen_ai.tool.call.id", "c1"))
			assert.False(t, s.Parent().IsValid(), "a root span")
		}
		assert.True(t, found, "the hold span:\n%s", h.tree())
		assert.Contains(t, h.metrics(t), agentotel.MetricHoldDuration)
		assert.Contains(t, h.metrics(t), "sum=7200")
	})
}
