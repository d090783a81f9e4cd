package temporal_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	durable "github.com/pi-go/agentcore/durable/temporal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/worker"
)

// blockingTool is a tool that reports its start and then waits for its
// ctx, reporting when the ctx was cancelled, or for release: it returns
// its ctx's error, or its result when released.
func blockingTool(t *testing.T) (tool agentcore.Tool, started chan struct{}, cancelled chan time.Time, release chan struct{}) {
	started, cancelled, release = make(chan struct{}, 1), make(chan time.Time, 1), make(chan struct{})
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { close(release) }) })
	tool = echoTool(agentcore.ReplayNever, func(ctx context.Context, text string) (string, error) {
		started <- struct{}{}
		select {
		case <-ctx.Done():
			cancelled <- time.Now()
			return "", ctx.Err()
		case <-release:
			return text, nil
		}
	})
	return tool, started, cancelled, release
}

// abortScript is the model's side of the abort tests: a call of the
// blocking tool, then a text.
func abortScript() *agentcoretest.Fake {
	return agentcoretest.New(agentcoretest.ToolCallResponse(echoCall("c1", "a")), agentcoretest.TextResponse("next"))
}

// abortingSession runs [blockingTool] in a session on a worker with
// options wo.
func abortingSession(t *testing.T, wo worker.Options) (s *durable.Session, started chan struct{}, cancelled chan time.Time, release chan struct{}) {
	tool, started, cancelled, release := blockingTool(t)
	o := durable.Options{Model: agentcoretest.Model(), StreamFn: abortScript().Stream, Tools: []agentcore.Tool{tool}}
	return startSessionWith(t, o, wo), started, cancelled, release
}

// TestAbortReachesRunningTool aborts a run while its tool runs, on a
// worker with [durable.WorkerOptions] and on one with the SDK's defaults
// (whose heartbeat throttle is 24 s): the tool's ctx is cancelled within
// a second on both, the run ends once the tool has returned, and the
// transcript holds what the tool returned.
func TestAbortReachesRunningTool(t *testing.T) {
	for _, tc := range []struct {
		name string
		wo   worker.Options
	}{
		{"WorkerOptions", workerOptions()},
		{"SDK defaults", worker.Options{WorkerStopTimeout: time.Second, DeadlockDetectionTimeout: 10 * time.Second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testCtx(t)
			s, started, cancelled, _ := abortingSession(t, tc.wo)
			seq, err := s.Start(ctx, agentcore.UserText("go"))
			require.NoError(t, err)
			awaitStarted(ctx, t, s, started)
			at := time.Now()
			require.NoError(t, s.Abort(ctx))
			select {
			case when := <-cancelled:
				// About 300 ms (the heartbeat interval); the bound leaves
				// room for a loaded machine and is far below the 24 s of
				// the SDK's default throttle.
				t.Logf("the tool's ctx was cancelled %v after the abort", when.Sub(at))
				assert.Less(t, when.Sub(at), 3*time.Second)
			case <-time.After(10 * time.Second):
				t.Fatal("the abort never reached the tool")
			}
			require.ErrorIs(t, s.Wait(ctx, seq), context.Canceled)
			st, err := s.State(ctx)
			require.NoError(t, err)
			assertOneResultPerCall(t, st.Messages)
			assert.Equal(t, context.Canceled.Error(), toolResults(st.Messages)["c1"].Text())
		})
	}
}

// TestAbortRecordsAsTheAgent aborts the same run on a plain Agent and on
// a session while the tool runs: both transcripts hold the tool's own
// error as its result, and are the same.
func TestAbortRecordsAsTheAgent(t *testing.T) {
	ctx := testCtx(t)
	tool, started, _, _ := blockingTool(t)
	a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: abortScript().Stream, Tools: []agentcore.Tool{tool}})
	prompted := make(chan error, 1)
	go func() { prompted <- a.Prompt(ctx, "go") }()
	<-started
	a.Abort()
	require.ErrorIs(t, <-prompted, context.Canceled)
	want := a.State().Messages

	s, started, _, _ := abortingSession(t, workerOptions())
	seq, err := s.Start(ctx, agentcore.UserText("go"))
	require.NoError(t, err)
	awaitStarted(ctx, t, s, started)
	require.NoError(t, s.Abort(ctx))
	require.ErrorIs(t, s.Wait(ctx, seq), context.Canceled)
	st, err := s.State(ctx)
	require.NoError(t, err)
	assert.Equal(t, "context canceled", toolResults(want)["c1"].Text())
	assert.Equal(t, normalize(t, want), normalize(t, st.Messages))
}

// TestAbortAfterToolFinished aborts a run whose tool finishes its work
// anyway: the transcript keeps the tool's real result, not an abort that
// did not happen.
func TestAbortAfterToolFinished(t *testing.T) {
	ctx := testCtx(t)
	started, release := make(chan struct{}, 1), make(chan struct{})
	tool := echoTool(agentcore.ReplayNever, func(ctx context.Context, text string) (string, error) {
		started <- struct{}{}
		<-release // deaf to its ctx
		return text, nil
	})
	s := startSession(t, durable.Options{Model: agentcoretest.Model(), StreamFn: abortScript().Stream, Tools: []agentcore.Tool{tool}})
	seq, err := s.Start(ctx, agentcore.UserText("go"))
	require.NoError(t, err)
	awaitStarted(ctx, t, s, started)
	require.NoError(t, s.Abort(ctx))
	time.Sleep(1500 * time.Millisecond) // the cancellation reaches the activity
	close(release)
	require.ErrorIs(t, s.Wait(ctx, seq), context.Canceled)
	st, err := s.State(ctx)
	require.NoError(t, err)
	assertOneResultPerCall(t, st.Messages)
	assert.Equal(t, "echo: a", toolResults(st.Messages)["c1"].Text(), "the call took effect")
	last := st.Messages[len(st.Messages)-1].(*agentcore.AssistantMessage)
	assert.Equal(t, agentcore.StopAborted, last.StopReason)
}

// TestControlWithManyWaiters keeps twelve clients waiting for the run's
// end and for new messages: abort and steering are still served at once.
func TestControlWithManyWaiters(t *testing.T) {
	ctx := testCtx(t)
	s, started, _, _ := abortingSession(t, workerOptions())
	seq, err := s.Start(ctx, agentcore.UserText("go"))
	require.NoError(t, err)
	awaitStarted(ctx, t, s, started)
	_, next, _, err := s.Messages(ctx, 0)
	require.NoError(t, err)
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Go(func() {
			if i%2 == 0 {
				_ = s.Wait(ctx, seq)
			} else {
				_, _, _, _ = s.Messages(ctx, next)
			}
		})
	}
	time.Sleep(time.Second) // the waiters are waiting
	// The run cannot end before the abort (its tool waits for it): a
	// control answered at all was served beside the waiters, whatever
	// the machine's speed. The bound only keeps a hang from lasting.
	control, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	at := time.Now()
	require.NoError(t, s.Steer(control, agentcore.UserText("steer")))
	t.Logf("steer answered in %v with 12 waiters", time.Since(at))
	at = time.Now()
	require.NoError(t, s.Abort(control))
	t.Logf("abort answered in %v with 12 waiters", time.Since(at))
	require.ErrorIs(t, s.Wait(ctx, seq), context.Canceled)
	wg.Wait()
}

// awaitStarted waits for the tool to report its start, and fails with the
// session's state if it does not within ctx.
func awaitStarted(ctx context.Context, t *testing.T, s *durable.Session, started <-chan struct{}) {
	t.Helper()
	select {
	case <-started:
	case <-ctx.Done():
		st, err := s.State(context.Background())
		require.NoError(t, err)
		t.Fatalf("the tool never started; the session: running %v, error %q, %d messages", st.Running, st.ErrorMessage, len(st.Messages))
	}
}
