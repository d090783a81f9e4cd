package agentcore

import (
	"context"
	"slices"
	"sync"
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
	q := &eventQueue{wake: make(chan struct{}, 1)}
	actx = AgentContext{Messages: slices.Clone(actx.Messages), Tools: slices.Clone(actx.Tools)}
	e, err := newEngine(ctx, actx, cfg, func(ev AgentEvent) error { q.put(ev); return nil })
	if err != nil {
		return nil, err
	}
	// The events are read on another goroutine while the stream goes on.
	e.partials = partialsCopiedEverywhere
	r := &LoopRun{events: make(chan AgentEvent), done: make(chan struct{})}
	engineDone := make(chan struct{})
	go func() {
		defer close(engineDone)
		defer q.close()
		r.messages, r.err = body(e)
	}()
	go func() {
		defer close(r.done)
		q.pump(ctx, r.events)
		close(r.events)
		<-engineDone
	}()
	return r, nil
}

// eventQueue is an unbounded queue between the engine and the channel.
type eventQueue struct {
	mu     sync.Mutex
	items  []AgentEvent
	closed bool
	wake   chan struct{}
}

func (q *eventQueue) put(ev AgentEvent) {
	q.mu.Lock()
	q.items = append(q.items, ev)
	q.mu.Unlock()
	q.signal()
}

func (q *eventQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.signal()
}

func (q *eventQueue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// pump forwards events to out until the queue is closed and empty. After ctx
// is done it drops events but still waits for the close.
func (q *eventQueue) pump(ctx context.Context, out chan<- AgentEvent) {
	dropping := false
	for {
		q.mu.Lock()
		items, closed := q.items, q.closed
		q.items = nil
		q.mu.Unlock()
		for _, ev := range items {
			if dropping {
				break
			}
			select {
			case out <- ev:
			case <-ctx.Done():
				dropping = true
			}
		}
		if closed {
			q.mu.Lock()
			empty := len(q.items) == 0
			q.mu.Unlock()
			if empty {
				return
			}
			continue
		}
		<-q.wake
	}
}
