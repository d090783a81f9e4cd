package agentcore

import (
	"context"
	"slices"
)

// LoopRun is a run started by [RunLoop] or [RunLoopContinue]. Its events
// arrive on [LoopRun.Events]; the loop does not wait for the reader (events
// queue without bound), and the channel is closed after the last event.
type LoopRun struct {
	events   chan AgentEvent
	done     chan struct{}
	messages []Message
	err      error
}

// Events returns the run's events, closed after agent_end (or after the
// run failed). A reader must drain it or cancel the run's ctx: after a
// cancellation the events not yet delivered may be dropped.
func (r *LoopRun) Events() <-chan AgentEvent { return r.events }

// Wait blocks until the run has ended and its goroutines are gone, and
// returns the messages the run added. The error is non-nil when a hook
// failed or panicked, or the stream function panicked; the run then ended
// without agent_end.
func (r *LoopRun) Wait() ([]Message, error) {
	<-r.done
	return r.messages, r.err
}

// RunLoop starts a run with new prompt messages, which are added to the
// context with events, and returns at once. ctx is the run's abort signal.
// actx is copied; the run never modifies the caller's slices. It fails only
// when no stream function is configured ([ErrNoStreamFn]).
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
	q := newHandoff[AgentEvent]()
	actx = AgentContext{Messages: slices.Clone(actx.Messages), Tools: slices.Clone(actx.Tools)}
	e, err := newEngine(ctx, actx, cfg, func(ev AgentEvent) error { q.put(ev); return nil })
	if err != nil {
		return nil, err
	}
	r := &LoopRun{events: make(chan AgentEvent), done: make(chan struct{})}
	engineDone := make(chan struct{})
	go func() {
		defer close(engineDone)
		defer q.put(nil)
		r.messages, r.err = body(e)
	}()
	go func() {
		defer close(r.done)
		pump(ctx, q, r.events)
		close(r.events)
		<-engineDone
	}()
	return r, nil
}

// pump forwards the events of q to out until the engine's end (a nil
// event). After ctx is done it drops events but still waits for the end.
func pump(ctx context.Context, q *handoff[AgentEvent], out chan<- AgentEvent) {
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
			}
		}
	}
}
