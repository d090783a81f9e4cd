package agentotel

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/pi-go/agentcore"
)

// WrapTools returns a copy of tools whose Execute functions run under
// their call's execute_tool span, so that what a tool does with its ctx
// (an HTTP request, a nested agent) nests under it.
//
// In a run of an Agent from [Instrumentation.NewAgent] the span is the
// one that Agent records from the call's events (see the package
// documentation), found through the call's [agentcore.NestedCallOptions]
// and ID; there, unwrapped tools (given to [agentcore.Agent.SetTools], say)
// still get their spans, only their ctx does not carry them. Anywhere else
// ([agentcore.RunLoop], an uninstrumented Agent, a call a tool makes with
// [agentcore.RunToolCall]) the wrapper records a span of its own around
// Execute ("execute_tool {name}", under the span of Execute's ctx) and the
// gen_ai.execute_tool.duration histogram. A tool without Execute is kept
// as it is.
func (in *Instrumentation) WrapTools(tools []agentcore.Tool) []agentcore.Tool {
	if in.disabled || tools == nil {
		return tools
	}
	out := slices.Clone(tools)
	for i := range out {
		out[i] = in.wrapTool(out[i])
	}
	return out
}

func (in *Instrumentation) wrapTool(t agentcore.Tool) agentcore.Tool {
	exec := t.Execute
	if exec == nil {
		return t
	}
	name, description := t.Name, t.Description
	t.Execute = func(ctx context.Context, callID string, args json.RawMessage, onUpdate func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		if scope, ok := agentcore.NestedCallOptions(ctx); ok {
			switch span, off := in.turns.span(scope.AssistantMessage, callID); {
			case off:
				return exec(ctx, callID, args, onUpdate)
			case span != nil:
				return exec(trace.ContextWithSpan(ctx, span), callID, args, onUpdate)
			}
		}
		// Not a call an instrumented Agent records: a RunLoop's, one a
		// tool makes itself with RunToolCall, or one a layer runs before
		// the loop, under the run's span started for it.
		if p := pendingFrom(ctx); p != nil {
			if r := p.start(ctx); r != nil && r.on {
				ctx = r.ctx
			}
		}
		return in.executeTool(ctx, exec, name, description, callID, args, onUpdate)
	}
	return t
}

// executeTool runs exec under a span of its own.
func (in *Instrumentation) executeTool(ctx context.Context, exec func(context.Context, string, json.RawMessage, func(agentcore.ToolResult)) (agentcore.ToolResult, error),
	name, description, callID string, args json.RawMessage, onUpdate func(agentcore.ToolResult)) (res agentcore.ToolResult, err error) {
	call := in.startTool(ctx, name, description, callID, args)
	completed := false
	defer func() {
		if !completed {
			// Execute panicked; the loop turns the panic into an error result.
			call.end(ctx, true, "")
		}
	}()
	res, err = exec(call.ctx, callID, args, onUpdate)
	completed = true
	text := ""
	switch {
	case !in.capture:
	case err != nil:
		text = err.Error()
	default:
		text = res.Text()
	}
	call.end(ctx, err != nil || res.IsError, text)
	return res, err
}

// toolCall is one tool call being recorded.
type toolCall struct {
	in    *Instrumentation
	ctx   context.Context // carries the span
	span  trace.Span
	start time.Time
	name  string
}

// startTool starts the span of a call of the tool name, described by
// description, under ctx's span.
func (in *Instrumentation) startTool(ctx context.Context, name, description, callID string, args json.RawMessage) *toolCall {
	c := &toolCall{in: in, start: time.Now(), name: name}
	attrs := make([]attribute.KeyValue, 0, 5)
	attrs = append(attrs, semconv.GenAIOperationNameExecuteTool, semconv.GenAIToolName(name),
		semconv.GenAIToolCallID(callID), toolTypeFunction)
	if description != "" {
		attrs = append(attrs, semconv.GenAIToolDescription(description))
	}
	c.ctx, c.span = in.tracer.Start(ctx, spanName(opExecuteTool, name),
		trace.WithSpanKind(trace.SpanKindInternal), trace.WithTimestamp(c.start), trace.WithAttributes(attrs...))
	if in.capture && c.span.IsRecording() {
		c.span.SetAttributes(attribute.KeyValue{Key: semconv.GenAIToolCallArgumentsKey, Value: in.arguments(string(args))})
	}
	return c
}

// end records the call's outcome. ctx is the run's: a failure while it is
// cancelled counts as aborted. text is the result's text, recorded only
// when content is captured: as the result of a call that succeeded, as the
// status of one that failed.
func (c *toolCall) end(ctx context.Context, failed bool, text string) {
	c.endAt(ctx, failed, text, time.Now())
}

// endHeld ends, at ended, the span of a call a Gate held: marked held,
// with no error status; the call's duration is not recorded (it did not
// run).
func (c *toolCall) endHeld(ended time.Time) {
	c.span.SetAttributes(AttrHoldHeld.Bool(true))
	c.span.AddEvent("held", trace.WithTimestamp(ended))
	c.span.End(trace.WithTimestamp(ended))
}

// endAt is end at the time ended.
func (c *toolCall) endAt(ctx context.Context, failed bool, text string, ended time.Time) {
	in := c.in
	errType := ""
	if failed {
		errType = ErrorTypeTool
		if ctx.Err() != nil {
			errType = ErrorTypeAborted
		}
	}
	if c.span.IsRecording() {
		var attrs []attribute.KeyValue
		status := ""
		switch {
		case !in.capture || text == "":
		case failed:
			status = truncate(text, in.maxBytes)
		default:
			attrs = append(attrs, attribute.KeyValue{Key: semconv.GenAIToolCallResultKey, Value: in.jsonOrText(text)})
		}
		setOutcome(c.span, attrs, errType, status)
	}
	c.span.End(trace.WithTimestamp(ended))
	if in.toolDuration.Enabled(c.ctx) {
		attrs := make([]attribute.KeyValue, 0, 4)
		attrs = append(attrs, semconv.GenAIToolName(c.name), toolTypeFunction)
		if in.agentName != "" {
			attrs = append(attrs, semconv.GenAIAgentName(in.agentName))
		}
		if errType != "" {
			attrs = append(attrs, semconv.ErrorTypeKey.String(errType))
		}
		in.toolDuration.Record(c.ctx, ended.Sub(c.start).Seconds(), metric.WithAttributeSet(attribute.NewSet(attrs...)))
	}
}

// turnRegistry maps the tool calls of the turns an instrumented Agent is
// running to their spans, for the tools' Execute wrappers. A turn is its
// assistant message: the loop shares one pointer between the message_end
// event and the calls' [agentcore.NestedCallOptions].
type turnRegistry struct {
	mu    sync.Mutex
	turns map[*agentcore.AssistantMessage]*turnSpans
}

// turnSpans are the spans of one turn's open calls by call ID, in start
// order (calls may share an ID); off marks a run that records nothing.
type turnSpans struct {
	off   bool
	spans map[string][]trace.Span
}

// offTurn is the entry of every turn of a run that records nothing.
var offTurn = &turnSpans{off: true}

// open registers the turn of msg.
func (r *turnRegistry) open(msg *agentcore.AssistantMessage, off bool) {
	t := offTurn
	if !off {
		t = &turnSpans{spans: make(map[string][]trace.Span)}
	}
	r.mu.Lock()
	if r.turns == nil {
		r.turns = make(map[*agentcore.AssistantMessage]*turnSpans)
	}
	r.turns[msg] = t
	r.mu.Unlock()
}

// close forgets the turn of msg.
func (r *turnRegistry) close(msg *agentcore.AssistantMessage) {
	r.mu.Lock()
	delete(r.turns, msg)
	r.mu.Unlock()
}

// put records the span of a call id in the turn of msg, if registered.
func (r *turnRegistry) put(msg *agentcore.AssistantMessage, id string, span trace.Span) {
	r.mu.Lock()
	if t := r.turns[msg]; t != nil && !t.off {
		t.spans[id] = append(t.spans[id], span)
	}
	r.mu.Unlock()
}

// remove forgets span, the span of a call id.
func (r *turnRegistry) remove(msg *agentcore.AssistantMessage, id string, span trace.Span) {
	r.mu.Lock()
	if t := r.turns[msg]; t != nil && !t.off {
		spans := slices.DeleteFunc(t.spans[id], func(s trace.Span) bool { return s == span })
		if len(spans) == 0 {
			delete(t.spans, id)
		} else {
			t.spans[id] = spans
		}
	}
	r.mu.Unlock()
}

// span returns the span of call id in the turn of msg (of calls sharing
// the ID, the first one open), nil when no instrumented Agent records
// that call; off is true when the turn belongs to a run that records
// nothing.
func (r *turnRegistry) span(msg *agentcore.AssistantMessage, id string) (span trace.Span, off bool) {
	if msg == nil {
		return nil, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.turns[msg]
	if t == nil {
		return nil, false
	}
	if spans := t.spans[id]; len(spans) > 0 {
		return spans[0], t.off
	}
	return nil, t.off
}
