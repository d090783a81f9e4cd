package agentotel

import (
	"context"
	"slices"
	"sync"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/pi-go/agentcore"
)

// endFailed ends the spans of the turn's failed calls: held (a Gate's
// HeldEvent named it) or failed.
func (o *observer) endFailed(ctx context.Context) {
	o.mu.Lock()
	failed := o.failed
	o.failed = nil
	o.mu.Unlock()
	for _, f := range failed {
		if _, held := o.in.held.LoadAndDelete(f.id); held {
			f.call.endHeld(f.at)
			continue
		}
		f.call.endAt(ctx, true, f.text, f.at)
	}
}

// Install makes the Instrumentation an [agentcore.Layer]: give it in
// [agentcore.Options].Layers (or [agentcore.LoopConfig].Layers) and each
// run of the Agent records its spans and metrics from its events (see the
// package documentation for which). It wraps the stream function of every
// request, so that it nests under the run's span, and every tool (those
// given later to SetTools included), so that Execute's ctx carries its
// call's span; its listener, the layer's, records the run and tool spans.
// It sets no hook: the Agent's hooks and other layers run as they would
// without instrumentation. Put it first in Layers to see the work of the
// layers after it (a compaction's summary request) inside the run.
// A disabled Instrumentation (no-op providers) installs nothing.
func (in *Instrumentation) Install(s *agentcore.Setup) {
	if in.disabled {
		return
	}
	o := &observer{in: in, agent: s.Agent(), descriptions: map[string]string{}}
	s.WrapStreamFn(o.wrapStreamFn)
	s.WrapTool(o.wrapTool)
	s.WrapRun(o.wrapRun)
	s.Subscribe(o.listen)
}

// NewAgent is [agentcore.New] with the Instrumentation as the first of
// opts.Layers (see [Instrumentation.Install]).
func (in *Instrumentation) NewAgent(opts agentcore.Options) *agentcore.Agent {
	opts.Layers = slices.Concat([]agentcore.Layer{in}, opts.Layers)
	return agentcore.New(opts)
}

// observer records the runs of one Agent from its events. An Agent runs
// one run at a time; its listeners get one event at a time.
type observer struct {
	in    *Instrumentation
	agent *agentcore.Agent // nil under RunLoop

	// descriptions are the tools' descriptions by name, as wrapped.
	descMu       sync.Mutex
	descriptions map[string]string

	mu   sync.Mutex
	run  *runState
	turn *agentcore.AssistantMessage // the turn registered for the tools
	// calls are the calls started and not ended, by ID, in start order:
	// a model may give several calls one ID (or none).
	calls map[string][]*toolCall
	// failed are the calls of the turn that ended in error, their spans
	// left open until turn_end: a Gate's HeldEvent (see HoldEvents) comes
	// between, and marks a held call's span held rather than failed.
	failed []failedCall
}

// failedCall is a call that ended in error, its span not ended yet.
type failedCall struct {
	call *toolCall
	id   string
	text string
	at   time.Time
}

// current returns the active run, or nil.
func (o *observer) current() *runState {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.run
}

// wrapStreamFn is WrapStreamFn whose requests nest under the active run.
func (o *observer) wrapStreamFn(fn agentcore.StreamFn) agentcore.StreamFn {
	in := o.in
	return func(ctx context.Context, model agentcore.Model, req agentcore.Request, opts agentcore.StreamOptions) agentcore.AssistantStream {
		r := o.current()
		if r == nil {
			return in.chat(ctx, fn, model, req, opts)
		}
		if !r.on {
			// A run sampled out still gives its span context to the request.
			if sc := r.span.SpanContext(); sc.IsValid() && !sc.Equal(trace.SpanContextFromContext(ctx)) {
				ctx = trace.ContextWithSpan(ctx, r.span)
			}
			return fn(ctx, model, req, opts)
		}
		r.noteRequest(model, req, opts)
		return in.chat(trace.ContextWithSpan(ctx, r.span), fn, model, req, opts)
	}
}

// listen is the Agent's first listener.
func (o *observer) listen(ctx context.Context, ev agentcore.AgentEvent) {
	switch ev := ev.(type) {
	case *agentcore.AgentStartEvent:
		// The run's model is the Agent's as the run starts; under RunLoop
		// the first request tells it.
		var r *runState
		if p := pendingFrom(ctx); p != nil {
			r = p.take() // started for a call run before the loop
		}
		if r == nil {
			var model agentcore.Model
			if o.agent != nil {
				model = o.agent.State().Model
			}
			r = o.in.startRun(ctx, model)
		}
		o.mu.Lock()
		o.run = r
		o.mu.Unlock()
	case *agentcore.MessageEndEvent:
		if m, ok := ev.Message.(*agentcore.AssistantMessage); ok && hasToolCalls(m) {
			o.openTurn(m)
		}
	case *agentcore.ToolExecutionStartEvent:
		o.startTool(ev)
	case *agentcore.ToolExecutionEndEvent:
		o.endTool(ctx, ev)
	case *agentcore.TurnEndEvent:
		o.endFailed(ctx)
		o.closeTurn()
	case *agentcore.AgentEndEvent:
		o.endRun(ctx, ev.Messages)
		if p := pendingFrom(ctx); p != nil {
			p.leave()
		}
	}
}

// wrapTool is the Instrumentation's tool wrapper, noting the tool's
// description for its call spans.
func (o *observer) wrapTool(t agentcore.Tool) agentcore.Tool {
	o.descMu.Lock()
	o.descriptions[t.Name] = t.Description
	o.descMu.Unlock()
	return o.in.wrapTool(t)
}

// description is the description of the tool name, as last wrapped.
func (o *observer) description(name string) string {
	o.descMu.Lock()
	defer o.descMu.Unlock()
	return o.descriptions[name]
}

func hasToolCalls(m *agentcore.AssistantMessage) bool {
	for _, b := range m.Content {
		if _, ok := b.(agentcore.ToolCall); ok {
			return true
		}
	}
	return false
}

// openTurn registers the turn of m, whose tool calls come next.
func (o *observer) openTurn(m *agentcore.AssistantMessage) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.run == nil {
		return
	}
	if o.turn != nil {
		o.in.turns.close(o.turn)
	}
	o.turn = m
	o.in.turns.open(m, !o.run.on)
}

// closeTurn forgets the current turn.
func (o *observer) closeTurn() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.turn != nil {
		o.in.turns.close(o.turn)
		o.turn = nil
	}
}

// startTool starts the span of a call under the run's.
func (o *observer) startTool(ev *agentcore.ToolExecutionStartEvent) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.run == nil || !o.run.on {
		return
	}
	call := o.in.startTool(o.run.ctx, ev.ToolName, o.description(ev.ToolName), ev.ToolCallID, ev.Args)
	if o.calls == nil {
		o.calls = make(map[string][]*toolCall)
	}
	o.calls[ev.ToolCallID] = append(o.calls[ev.ToolCallID], call)
	o.in.turns.put(o.turn, ev.ToolCallID, call.span)
}

// endTool ends the span of a call: of the calls open with its ID, the
// first started.
func (o *observer) endTool(ctx context.Context, ev *agentcore.ToolExecutionEndEvent) {
	o.mu.Lock()
	var call *toolCall
	if open := o.calls[ev.ToolCallID]; len(open) > 0 {
		call = open[0]
		if len(open) == 1 {
			delete(o.calls, ev.ToolCallID)
		} else {
			o.calls[ev.ToolCallID] = open[1:]
		}
		o.in.turns.remove(o.turn, ev.ToolCallID, call.span)
	}
	o.mu.Unlock()
	if call == nil {
		return
	}
	text := ""
	if o.in.capture {
		text = ev.Result.Text()
	}
	if ev.IsError && ev.DurationMs == nil {
		// Blocked before it ran: perhaps held; turn_end tells.
		o.mu.Lock()
		o.failed = append(o.failed, failedCall{call: call, id: ev.ToolCallID, text: text, at: time.Now()})
		o.mu.Unlock()
		return
	}
	call.end(ctx, ev.IsError, text)
}

// endRun ends the run, and the spans of calls a failed run left open.
func (o *observer) endRun(ctx context.Context, messages []agentcore.Message) {
	o.endFailed(ctx)
	o.mu.Lock()
	r, calls := o.run, o.calls
	o.run, o.calls = nil, nil
	if o.turn != nil {
		o.in.turns.close(o.turn)
		o.turn = nil
	}
	o.mu.Unlock()
	for _, open := range calls {
		for _, call := range open {
			call.end(ctx, true, "")
		}
	}
	if r != nil {
		r.end(messages, nil)
	}
}
