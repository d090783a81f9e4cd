package agentotel_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/hold"
	agentotel "github.com/pi-go/agentcore/otel"
)

// TestApprovedCallUnderResumedRun: the call a person approved runs as the
// resumed run starts, and its execute_tool span is a child of that run's
// invoke_agent span, in its trace.
func TestApprovedCallUnderResumedRun(t *testing.T) {
	h := newHarness(agentotel.Config{})
	gate := hold.New(hold.Options{Policy: hold.Always(hold.Request{Title: "Read it?"}, "read"), OnEvent: h.inst.HoldEvents(nil)})
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "read", readArgs{Path: "b.txt"})),
		agentcoretest.TextResponse("ok"),
	)
	agent := agentcore.New(agentcore.Options{
		Model: model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{readTool()},
		Layers: []agentcore.Layer{h.inst, gate},
	})
	require.ErrorIs(t, agent.Prompt(context.Background(), "go"), hold.ErrHeld)
	require.NoError(t, gate.Decide(hold.Approve{ID: "c1"}))
	require.NoError(t, agent.Continue(context.Background()))

	var runs, tools []sdktrace.ReadOnlySpan
	for _, s := range h.spans.Ended() {
		switch {
		case strings.HasPrefix(s.Name(), "invoke_agent"):
			runs = append(runs, s)
		case s.Name() == "execute_tool read":
			tools = append(tools, s)
		}
	}
	require.Len(t, runs, 2, h.tree())
	require.Len(t, tools, 2, "the held call's, the approved call's:\n%s", h.tree())
	approved, resumed := tools[1], runs[1]
	assert.Equal(t, resumed.SpanContext().SpanID(), approved.Parent().SpanID(), h.tree())
	assert.Equal(t, resumed.SpanContext().TraceID(), approved.SpanContext().TraceID())
	assert.False(t, approved.StartTime().Before(resumed.StartTime()), "the run's span starts first")

	heldSpan := tools[0]
	assert.Equal(t, codes.Unset, heldSpan.Status().Code, "a held call is no tool error:\n%s", h.tree())
	assert.Contains(t, heldSpan.Attributes(), agentotel.AttrHoldHeld.Bool(true))
	require.Len(t, heldSpan.Events(), 1)
	assert.Equal(t, "held", heldSpan.Events()[0].Name)
	assert.Equal(t, codes.Unset, approved.Status().Code)
}
