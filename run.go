package agentcore

import (
	"context"
	"slices"
	"sync"
)

// LoopRun is a run started by [RunLoop] or [RunLoopContinue]. Its events
// arrive on [LoopRun.Events], in order; the loop does not wait for the
// reader: events queue until they are read.
type LoopRun struct {
	events   chan AgentEvent
	done     chan struct{}
	messages []Message
	err      error

	mu       sync.Mutex
	claimed  bool          // Events was called
	discard  chan struct{} // closed when nobody will read the events
	discards bool
}

// Events returns the run's events; range over it. It is closed after
// agent_end (or after the run failed). A caller that takes the channel
// drains it, or cancels the run's ctx: after a cancellation the events not
// yet delivered are dropped.
func (r *LoopRun) Events() <-chan AgentEvent {
	r.mu.Lock()
	r.claimed = true
	r.mu.Unlock()
	return r.events
}

// Wait blocks until the run has ended and its goroutines are gone, and
// returns the messages the run added. The error is a [*RunError] when the
// run's last response failed or was aborted; another error when a hook
// failed or panicked, or the stream function panicked (the run then ended
// without agent_end). When [LoopRun.Events] was never called, Wait drops
// the run's events as they come, so that a caller interested only in the
// outcome neither blocks the run nor keeps its events.
func (r *LoopRun) Wait() ([]Message, error) {
	r.mu.Lock()
	if !r.claimed && !r.discards {
		r.discards = true
		close(r.discard)
	}
	r.mu.Unlock()
	<-r.done
	return r.messages, r.err
}

// RunLoop starts a run with new prompt messages, which are added to the
// context with events, and returns at once. ctx is the run's abort signal.
// actx is copied; the run never modifies the caller's slices. It fails
// without starting when no stream function is configured ([ErrNoStreamFn])
// or a tool is misconfigured (an error wrapping [ErrInvalidTool]).
func RunLoop(ctx context.Context, prompts []Message, actx AgentContext, cfg LoopConfig) (*LoopRun, error) {
	return startLoop(ctx, actx, cfg, func(e *engine) ([]Message, error) { return e.runPrompts(slices.Clone(prompts)) })
}

// RunLoopContinue starts a run from the existing context without adding a
// message, for retries: the context's last message must not be an
// assistant message. It refuses an empty context ([ErrNoMessages]) and an
// assistant tail ([ErrContinueFromAssistant]).
func RunLoopContinue(ctx context.Context, actx AgentContext, cfg LoopConfig) (*LoopRun, error) {
	if err := checkContinue(actx.Messages); err != nil {
		return nil, err
	}
	return startLoop(ctx, actx, cfg, (*engine).runContinue)
}

func startLoop(ctx context.Context, actx AgentContext, cfg LoopConfig, body func(*engine) ([]Message, error)) (*LoopRun, error) {
	if ctx == nil {
		return nil, ErrNilContext
	}
	if err := ValidateTools(actx.Tools); err != nil {
		return nil, err
	}
	q := newHandoff[AgentEvent]()
	actx = AgentContext{Messages: slices.Clone(actx.Messages), Tools: slices.Clone(actx.Tools)}
	e, err := newEngine(ctx, actx, cfg, func(ev AgentEvent) error { q.put(ev); return nil })
	if err != nil {
		return nil, err
	}
	r := &LoopRun{events: make(chan AgentEvent), done: make(chan struct{}), discard: make(chan struct{})}
	engineDone := make(chan struct{})
	go func() {
		defer close(engineDone)
		defer q.put(nil)
		r.messages, r.err = body(e)
		if r.err == nil {
			r.err = e.failure()
		}
	}()
	go func() {
		defer close(r.done)
		pump(ctx, q, r.events, r.discard)
		close(r.events)
		<-engineDone
	}()
	return r, nil
}

// pump forwards the events of q to out until the engine's end (a nil
// event). After ctx is done, or discard is closed, it drops events but
// still waits for the end.
func pump(ctx context.Context, q *handoff[AgentEvent], out chan<- AgentEvent, discard <-chan struct{}) {
	dropping := false
	for {
		<-q.ready
		for _, ev := range q.take() {
			if ev == nil {
				return
			}
			if dropping {
				continue
			}
			select {
			case out <- ev:
			case <-ctx.Done():
				dropping = true
			case <-discard:
				dropping = true
			}
		}
	}
}
