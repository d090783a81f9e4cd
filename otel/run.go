package agentotel

import (
	"context"
	"slices"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
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
// [Instrumentation.WrapTools], and their spans nest under the run's. Call
// [Run.End] with what [agentcore.LoopRun.Wait] returned. An Agent from
// [Instrumentation.NewAgent] records its runs itself.
func (in *Instrumentation) StartRun(ctx context.Context) (context.Context, *Run) {
	if in.disabled {
		return ctx, &Run{}
	}
	r := in.startRun(ctx)
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
	model    string // the first request's model and provider
	provider string
	noted    bool
	ended    bool
}

func (in *Instrumentation) startRun(ctx context.Context) *runState {
	r := &runState{in: in, start: time.Now()}
	opts := append(slices.Clip(in.runOptions), trace.WithTimestamp(r.start))
	r.ctx, r.span = in.tracer.Start(ctx, in.runName, opts...)
	r.on = r.span.IsRecording() || in.metered(ctx)
	return r
}

// runSpan returns the name and the fixed start options of the run spans.
func runSpan(agentName, agentID string) (string, []trace.SpanStartOption) {
	attrs := []attribute.KeyValue{keyOperationName.String(opInvokeAgent)}
	if agentName != "" {
		attrs = append(attrs, keyAgentName.String(agentName))
	}
	if agentID != "" {
		attrs = append(attrs, keyAgentID.String(agentID))
	}
	return spanName(opInvokeAgent, agentName), []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...)}
}

// noteRequest records the model of the run's first request on its span.
func (r *runState) noteRequest(model agentcore.Model, opts agentcore.StreamOptions) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.noted {
		return
	}
	r.noted = true
	r.model, r.provider = model.ID, providerName(model)
	if r.span.IsRecording() {
		r.span.SetAttributes(keyProviderName.String(r.provider), keyRequestModel.String(r.model))
		if opts.SessionID != "" {
			r.span.SetAttributes(keyConversationID.String(opts.SessionID))
		}
	}
}

// end ends the run; see [Run.End].
func (r *runState) end(messages []agentcore.Message, err error) {
	r.mu.Lock()
	if r.ended {
		r.mu.Unlock()
		return
	}
	r.ended = true
	if !r.on {
		r.mu.Unlock()
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
	var attrs []attribute.KeyValue
	if !r.noted && last != nil {
		r.noted = true
		r.model, r.provider = last.Model, providerName(agentcore.Model{Provider: last.Provider, API: last.API})
		attrs = append(attrs, keyProviderName.String(r.provider), keyRequestModel.String(r.model))
	}
	provider, model := r.provider, r.model
	r.mu.Unlock()

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
		if last != nil {
			attrs = appendOutcome(attrs, last.StopReason, usage)
		}
		setOutcome(r.span, attrs, errType, errText)
	}
	ended := time.Now()
	r.span.End(trace.WithTimestamp(ended))
	in := r.in
	if in.agentDuration.Enabled(r.ctx) {
		mattrs := make([]attribute.KeyValue, 0, 5)
		mattrs = append(mattrs, keyOperationName.String(opInvokeAgent))
		if provider != "" {
			mattrs = append(mattrs, keyProviderName.String(provider), keyRequestModel.String(model))
		}
		if in.agentName != "" {
			mattrs = append(mattrs, keyAgentName.String(in.agentName))
		}
		if errType != "" {
			mattrs = append(mattrs, keyErrorType.String(errType))
		}
		in.agentDuration.Record(r.ctx, ended.Sub(r.start).Seconds(), metric.WithAttributeSet(attribute.NewSet(mattrs...)))
	}
}
