package temporal

import (
	"context"
	"sync"

	"go.temporal.io/sdk/activity"
)

// progress holds the details a tool recorded with [ToolProgress], which
// every heartbeat of its activity carries.
type progress struct {
	mu      sync.Mutex
	details any
	set     bool
}

type progressKey struct{}

// withProgress returns ctx holding a new progress for the tool it is given
// to.
func withProgress(ctx context.Context) (context.Context, *progress) {
	p := &progress{}
	return context.WithValue(ctx, progressKey{}, p), p
}

// latest returns the latest details, if any; p may be nil.
func (p *progress) latest() (details any, set bool) {
	if p == nil {
		return nil, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.details, p.set
}

// ToolProgress records details, a value the data converter encodes, as
// the progress of the tool call running in ctx (the ctx its Execute was
// given on a worker): the server keeps the latest with the call's
// heartbeats, and an attempt that runs the call again after its worker was
// lost reads them with [LastToolProgress], to resume where the lost one
// was. A call runs again only when its tool's Replay is
// [agentcore.ReplaySafe]. Outside a tool activity it does nothing.
func ToolProgress(ctx context.Context, details any) {
	p, _ := ctx.Value(progressKey{}).(*progress)
	if p == nil {
		return
	}
	p.mu.Lock()
	p.details, p.set = details, true
	p.mu.Unlock()
}

// LastToolProgress decodes into ptr the details the call's previous
// attempt recorded with [ToolProgress], and reports whether there were
// any (none on a first attempt, or outside a tool activity).
func LastToolProgress(ctx context.Context, ptr any) bool {
	if _, ok := ctx.Value(progressKey{}).(*progress); !ok || !activity.HasHeartbeatDetails(ctx) {
		return false
	}
	return activity.GetHeartbeatDetails(ctx, ptr) == nil
}
