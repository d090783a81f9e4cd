package agentotel

import (
	"context"
	"sync"

	"github.com/pi-go/agentcore"
)

// pendingKey is the ctx key of the [pendingRun] of an Agent's run wrapper.
type pendingKey struct{}

// pendingRun is the invoke_agent span of a run before its agent_start:
// started on demand, by the first tool call that the layers inside the
// Instrumentation's run wrapper run before the loop (a held call a person
// approved, which package hold runs as the resumed run starts), and taken
// by the run's agent_start. The span then covers that call too.
type pendingRun struct {
	o *observer

	mu     sync.Mutex
	run    *runState
	inLoop bool // between the run's agent_start and agent_end
}

// wrapRun is the Instrumentation's run wrapper: the ctx of what runs
// inside it can start the run's span early (see pendingRun).
func (o *observer) wrapRun(next agentcore.RunFunc) agentcore.RunFunc {
	return func(ctx context.Context, run agentcore.Run) error {
		p := &pendingRun{o: o}
		err := next(context.WithValue(ctx, pendingKey{}, p), run)
		p.mu.Lock()
		r := p.run
		p.run = nil
		p.mu.Unlock()
		if r != nil {
			// Started by a call, but no run followed (refused): end it.
			r.end(nil, err)
		}
		return err
	}
}

// pendingFrom returns the pending run of ctx, or nil.
func pendingFrom(ctx context.Context) *pendingRun {
	p, _ := ctx.Value(pendingKey{}).(*pendingRun)
	return p
}

// start returns the pending run's state, starting its span under ctx's
// span when none is started yet; nil inside the loop, whose calls the
// run's events record.
func (p *pendingRun) start(ctx context.Context) *runState {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.inLoop {
		return nil
	}
	if p.run == nil {
		var model agentcore.Model
		if p.o.agent != nil {
			model = p.o.agent.State().Model
		}
		p.run = p.o.in.startRun(ctx, model)
	}
	return p.run
}

// take returns the started run and forgets it, as the loop starts: the
// next run inside the same wrapper (a Gate continuing at once) starts its
// own.
func (p *pendingRun) take() *runState {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := p.run
	p.run = nil
	p.inLoop = true
	return r
}

// leave notes the loop's agent_end.
func (p *pendingRun) leave() {
	p.mu.Lock()
	p.inLoop = false
	p.mu.Unlock()
}
