package temporal

import (
	"context"
	"errors"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
)

// heartbeat records the heartbeats of a request or a tool call while it
// runs, every [HeartbeatThrottle] (a third of the heartbeat timeout when
// that is shorter), so that a lost worker is noticed within the heartbeat
// timeout even for a tool that reports no progress. Each carries p's
// details ([ToolProgress]); p is nil for a request.
//
// The heartbeats go to the server through the worker's client rather than
// through the SDK's activity.RecordHeartbeat, which sends at most one per
// throttle interval of the worker (by default 80% of the heartbeat
// timeout: 24 s): the server's answer is how a cancellation (an abort)
// reaches the activity, and the returned ctx is cancelled, with a
// *temporal.CanceledError as its cause, as soon as one says so, whatever
// the worker's options. Without a client (an activity test environment)
// it falls back to activity.RecordHeartbeat.
//
// stop ends the heartbeats and waits for them; it is called once, when
// the activity's work has ended.
func heartbeat(ctx context.Context, p *progress) (_ context.Context, stop func()) {
	info := activity.GetInfo(ctx)
	every := min(info.HeartbeatTimeout/3, HeartbeatThrottle)
	if every <= 0 {
		return ctx, func() {}
	}
	// The heartbeats go on after an abort, on the activity's own ctx,
	// until stop.
	beatCtx, end := context.WithCancel(ctx)
	ctx, cancel := context.WithCancelCause(ctx)
	send := func() {
		details, set := p.latest()
		if set {
			activity.RecordHeartbeat(beatCtx, details)
		} else {
			activity.RecordHeartbeat(beatCtx)
		}
	}
	if c := activity.GetClient(beatCtx); c != nil {
		token := info.TaskToken
		send = func() {
			rpcCtx, done := context.WithTimeout(beatCtx, max(every, time.Second))
			defer done()
			var err error
			if details, set := p.latest(); set {
				err = c.RecordActivityHeartbeat(rpcCtx, token, details)
			} else {
				err = c.RecordActivityHeartbeat(rpcCtx, token)
			}
			if _, ok := errors.AsType[*temporal.CanceledError](err); ok {
				cancel(err)
			}
		}
	}
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				send()
			case <-beatCtx.Done():
				return
			}
		}
	}()
	return ctx, func() {
		end()
		<-ended
		cancel(nil)
	}
}

// aborted reports whether ctx, an activity's, was cancelled by the
// server (an abort), not by its worker stopping.
func aborted(ctx context.Context) bool {
	return ctx.Err() != nil && temporal.IsCanceledError(context.Cause(ctx))
}

// cancelled is the error an activity whose ctx is done returns: the
// server's cancellation, which ends it without a retry, or ctx's error
// when its worker is stopping, which another attempt retries.
func cancelled(ctx context.Context) error {
	if aborted(ctx) {
		return context.Cause(ctx)
	}
	return ctx.Err()
}
