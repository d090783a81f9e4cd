package agentotel

import (
	"context"
	"slices"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/pi-go/agentcore"
)

// Run is the invoke_agent span of a run driven by the caller, from
// [Instrumentation.StartRun] to [Run.End].
type Run struct {
	state *runState
}

// runKey is the ctx key of the run a [Run]'s ctx belongs to.
type runKey struct{}

// StartRun starts the invoke_agent span of a run the caller drives itself
// with [agentcore.RunLoop] or [agentcore.RunLoopContinue], and returns a
// ctx carrying it: give that ctx to RunLoop, a stream function wrapped by
// [Instrumentation.WrapStreamFn] and tools wrapped by
// [Instrumentation.WrapTools], and their spans nest under the run's.
// model is the run's model, the [agentcore.LoopConfig]'s: its provider and
// ID are on the span from its start, where samplers see them (a zero model
// leaves them to the run's first request). Call [Run.End] with what
// [agentcore.LoopRun.Wait] returned. An Agent from
// [Instrumentation.NewAgent] records its runs itself.
func (in *Instrumentation) StartRun(ctx context.Context, model agentcore.Model) (context.Context, *Run) {
	if in.disabled {
		return ctx, &Run{}
	}
	r := in.startRun(ctx, model)
	r.ctx = context.WithValue(r.ctx, runKey{}, r)
	return r.ctx, &Run{state: r}
}

// End ends the run's span and records its duration. messages and err are
// what [agentcore.LoopRun.Wait] returned: the last assistant message says
// how the run ended (stopReason error or aborted is a failure), their
// usage is summed on the span, and an err beside a last message that did
// not fail (a failing hook's) fails the run too. Calls after the first do
// nothing.
func (r *Run) End(messages []agentcore.Message, err error) {
	if r.state != nil {
		r.state.end(messages, err)
	}
}

// runFromContext returns the run a ctx from StartRun belongs to, or nil.
func runFromContext(ctx context.Context) *runState {
	r, _ := ctx.Value(runKey{}).(*runState)
	return r
}

// runState is one run being recorded.
type runState struct {
	in    *Instrumentation
	ctx   context.Context // carries the span
	span  trace.Span
	start time.Time
	// on is false when nothing records the run: its requests and tool
	// calls are then not instrumented at all.
	on bool

	mu       sync.Mutex
	hasModel bool // the span has its provider and model
	noted    bool // the first request was seen
	ended    bool
}

// runAttrs are the attributes every run span of cfg starts with.
func runAttrs(cfg Config) []attribute.KeyValue {
	attrs := []attribute.KeyValue{semconv.GenAIOperationNameInvokeAgent}
	for _, a := range []struct {
		key   attribute.Key
		value string
	}{
		{semconv.GenAIAgentNameKey, cfg.AgentName},
		{semconv.GenAIAgentIDKey, cfg.AgentID},
		{semconv.GenAIAgentVersionKey, cfg.AgentVersion},
		{semconv.GenAIAgentDescriptionKey, cfg.AgentDescription},
	} {
		if a.value != "" {
			attrs = append(attrs, a.key.String(a.value))
		}
	}
	return attrs
}

// modelAttrs are the provider and, when it has an ID, request model of a
// run's model.
func modelAttrs(model agentcore.Model) []attribute.KeyValue {
	attrs := []attribute.KeyValue{semconv.GenAIProviderNameKey.String(providerName(model))}
	if model.ID != "" {
		attrs = append(attrs, semconv.GenAIRequestModel(model.ID))
	}
	return attrs
}

// startRun starts the span of a run of model.
func (in *Instrumentation) startRun(ctx context.Context, model agentcore.Model) *runState {
	r := &runState{in: in, start: time.Now()}
	attrs := in.runAttrs
	if r.hasModel = model.ID != "" || model.Provider != "" || model.API != ""; r.hasModel {
		attrs = append(slices.Clip(attrs), modelAttrs(model)...)
	}
	r.ctx, r.span = in.tracer.Start(ctx, in.runName,
		trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...), trace.WithTimestamp(r.start))
	r.on = r.span.IsRecording() || in.metered(ctx)
	return r
}

// noteRequest records on the run's span what its first request tells: the
// conversation, the system instructions and tool definitions, and the
// model when the run started without one.
func (r *runState) noteRequest(model agentcore.Model, req agentcore.Request, opts agentcore.StreamOptions) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.noted {
		return
	}
	r.noted = true
	if !r.span.IsRecording() {
		return
	}
	var attrs []attribute.KeyValue
	if !r.hasModel {
		r.hasModel = true
		attrs = append(attrs, modelAttrs(model)...)
	}
	if opts.SessionID != "" {
		attrs = append(attrs, semconv.GenAIConversationID(opts.SessionID))
	}
	attrs = append(attrs, r.in.requestContent(req.Messages, false)...)
	r.span.SetAttributes(attrs...)
}

// end ends the run; see [Run.End].
func (r *runState) end(messages []agentcore.Message, err error) {
	r.mu.Lock()
	if r.ended {
		r.mu.Unlock()
		return
	}
	r.ended = true
	hasModel := r.hasModel
	r.hasModel = true
	r.mu.Unlock()
	if !r.on {
		r.span.End()
		return
	}
	var usage agentcore.Usage
	var reasoning int64
	var last *agentcore.AssistantMessage
	for _, m := range messages {
		if am, ok := m.(*agentcore.AssistantMessage); ok {
			last = am
			usage.Input += am.Usage.Input
			usage.Output += am.Usage.Output
			usage.CacheRead += am.Usage.CacheRead
			usage.CacheWrite += am.Usage.CacheWrite
			if n := am.Usage.Reasoning; n != nil {
				reasoning += *n
				usage.Reasoning = &reasoning
			}
			usage.TotalTokens += am.Usage.TotalTokens
		}
	}
	errType, errText := "", ""
	switch {
	case last != nil && last.StopReason.Failed():
		errType, errText = errorType(last), last.ErrorMessage
	case err != nil:
		errType, errText = ErrorTypeError, err.Error()
		if r.ctx.Err() != nil {
			errType = ErrorTypeAborted
		}
	}
	if r.span.IsRecording() {
		var attrs []attribute.KeyValue
		if !hasModel && last != nil {
			attrs = append(attrs, modelAttrs(agentcore.Model{ID: last.Model, Provider: last.Provider, API: last.API})...)
		}
		if last != nil {
			attrs = appendOutcome(attrs, last.StopReason, usage)
		}
		if r.in.capture {
			attrs = append(attrs, r.in.runContent(messages, last)...)
		}
		setOutcome(r.span, attrs, errType, errText)
	}
	ended := time.Now()
	r.span.End(trace.WithTimestamp(ended))
	in := r.in
	if in.agentDuration.Enabled(r.ctx) {
		mattrs := make([]attribute.KeyValue, 0, 2)
		if in.agentName != "" {
			mattrs = append(mattrs, semconv.GenAIAgentName(in.agentName))
		}
		if errType != "" {
			mattrs = append(mattrs, semconv.ErrorTypeKey.String(errType))
		}
		in.agentDuration.Record(r.ctx, ended.Sub(r.start).Seconds(), metric.WithAttributeSet(attribute.NewSet(mattrs...)))
	}
}

// runContent is the content of a run that added messages: its input, the
// messages it added before the first response (the prompts), and its
// output, the last response.
func (in *Instrumentation) runContent(messages []agentcore.Message, last *agentcore.AssistantMessage) []attribute.KeyValue {
	var attrs []attribute.KeyValue
	prompts := messages
	if i := slices.IndexFunc(messages, func(m agentcore.Message) bool {
		_, ok := m.(*agentcore.AssistantMessage)
		return ok
	}); i >= 0 {
		prompts = messages[:i]
	}
	if input := in.messages(prompts); len(input) > 0 {
		attrs = append(attrs, semconv.GenAIInputMessagesKey.Slice(input...))
	}
	if last != nil {
		attrs = append(attrs, in.outputContent(last))
	}
	return attrs
}
