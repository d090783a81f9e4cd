package agentotel

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/pi-go/agentcore/hold"
)

// The attributes of a held call's span ([Instrumentation.HoldEvents]):
// the decision ("approve", "deny", "answer") and whether the call's
// deadline made it.
const (
	AttrHoldDecision   = attribute.Key("agentcore.hold.decision")
	AttrHoldByDeadline = attribute.Key("agentcore.hold.by_deadline")
	// AttrHoldHeld marks the execute_tool span of a call a Gate held: the
	// call did not run and waits for a person; the span is not an error.
	AttrHoldHeld = attribute.Key("agentcore.hold.held")
)

// MetricHoldDuration is the histogram of the time, in seconds, that held
// tool calls waited for a decision ([Instrumentation.HoldEvents]), by
// tool name and decision.
const MetricHoldDuration = "agentcore.hold.duration"

// holdBuckets reach from a second to a week.
var holdBuckets = []float64{1, 10, 60, 300, 1800, 3600, 4 * 3600, 24 * 3600, 7 * 24 * 3600}

// HoldEvents returns a hold.Options.OnEvent that marks the execute_tool
// span of each call the Gate held with [AttrHoldHeld] and an event "held"
// instead of an error status, and records the time a person
// took to decide each held call (package hold) as a span "hold {tool}"
// (kind internal) from when the call was held to its decision, with the
// tool's name and the call's ID, the decision ([AttrHoldDecision]) and
// [AttrHoldByDeadline], and the wait in [MetricHoldDuration]; then it
// calls next (nil: nothing). The span is
// recorded by the process that sees the decision, with the held time the
// Gate's state carries, so it spans a restart; it is a root span (the run
// that held the call has ended). It runs on the goroutine the Gate sends
// the event on and never blocks.
func (in *Instrumentation) HoldEvents(next func(hold.Event)) func(hold.Event) {
	if in.disabled {
		if next == nil {
			return func(hold.Event) {}
		}
		return next
	}
	return func(ev hold.Event) {
		switch ev := ev.(type) {
		case *hold.HeldEvent:
			in.held.Store(ev.Call.ID, true)
		case *hold.DecidedEvent:
			in.recordHold(ev.Call, time.Now())
		}
		if next != nil {
			next(ev)
		}
	}
}

// recordHold records the span of call c, decided at decided.
func (in *Instrumentation) recordHold(c hold.Call, decided time.Time) {
	decision := ""
	switch c.Decision.(type) {
	case hold.Approve:
		decision = "approve"
	case hold.Deny:
		decision = "deny"
	case hold.Answer:
		decision = "answer"
	}
	start := c.HeldAt
	if start.IsZero() || start.After(decided) {
		start = decided
	}
	_, span := in.tracer.Start(context.Background(), "hold "+c.Tool,
		trace.WithNewRoot(), trace.WithSpanKind(trace.SpanKindInternal), trace.WithTimestamp(start),
		trace.WithAttributes(semconv.GenAIToolName(c.Tool), semconv.GenAIToolCallID(c.ID),
			AttrHoldDecision.String(decision), AttrHoldByDeadline.Bool(c.ByDeadline)))
	span.End(trace.WithTimestamp(decided))
	if in.holdDuration.Enabled(context.Background()) {
		in.holdDuration.Record(context.Background(), decided.Sub(start).Seconds(), metric.WithAttributes(
			semconv.GenAIToolName(c.Tool), AttrHoldDecision.String(decision)))
	}
}
