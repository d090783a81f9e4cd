package temporal_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	durable "github.com/pi-go/agentcore/durable/temporal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/workflow"
)

// crashOptions make a lost worker's activity attempt time out fast.
func crashOptions(o *durable.Options) {
	o.ModelActivity = workflow.ActivityOptions{StartToCloseTimeout: time.Minute, HeartbeatTimeout: 2 * time.Second}
	o.ToolActivity = o.ModelActivity
}

// hang is a step that, the first time, reports that it started and then
// waits until its worker has lost its connection to the server: whatever
// it does next is never reported, as if its process had died there.
type hang struct {
	started chan struct{}
	release chan struct{}
	calls   atomic.Int32
	once    sync.Once
	freed   sync.Once
}

func newHang(t *testing.T) *hang {
	h := &hang{started: make(chan struct{}), release: make(chan struct{})}
	t.Cleanup(h.free)
	return h
}

// free lets the hanging step go on.
func (h *hang) free() { h.freed.Do(func() { close(h.release) }) }

// enter counts a call and hangs the first one.
func (h *hang) enter() {
	if h.calls.Add(1) == 1 {
		h.once.Do(func() { close(h.started) })
		<-h.release
	}
}

// crash runs prompt on worker A, kills A once step has started and the
// history holds completed activities, starts worker B, and returns the
// finished session's state.
func crash(t *testing.T, sessions *durable.Sessions, step *hang, completed int) durable.State {
	t.Helper()
	ctx := testCtx(t)
	queue := taskQueue(t)
	a := startWorker(t, queue, sessions)
	cl := newClient(t, queue, sessions)
	s, err := cl.Start(ctx, queue)
	require.NoError(t, err)
	seq, err := s.Start(ctx, agentcore.UserText("go"))
	require.NoError(t, err)
	select {
	case <-step.started:
	case <-ctx.Done():
		t.Fatal("the step never started")
	}
	for n := 0; n < completed; {
		h, err := cl.History(ctx, queue)
		require.NoError(t, err)
		n = 0
		for _, ev := range h.Events {
			if ev.GetEventType() == enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED {
				n++
			}
		}
		require.NoError(t, ctx.Err())
	}
	a.c.Close() // the process is gone: nothing it does reaches the server
	step.free()
	a.kill()
	startWorker(t, queue, sessions)
	require.NoError(t, s.Wait(ctx, seq))
	st, err := s.State(ctx)
	require.NoError(t, err)
	assertOneResultPerCall(t, st.Messages)
	return st
}

// toolResults returns the transcript's tool results by call ID.
func toolResults(msgs []agentcore.Message) map[string]*agentcore.ToolResultMessage {
	out := map[string]*agentcore.ToolResultMessage{}
	for _, m := range msgs {
		if r, ok := m.(*agentcore.ToolResultMessage); ok {
			out[r.ToolCallID] = r
		}
	}
	return out
}

func TestCrashWhileModelStreams(t *testing.T) {
	step := newHang(t)
	fake := agentcoretest.New(agentcoretest.TextResponse("lost"), agentcoretest.TextResponse("hello"))
	stream := func(ctx context.Context, m agentcore.Model, r agentcore.Request, o agentcore.StreamOptions) agentcore.AssistantStream {
		s := fake.Stream(ctx, m, r, o)
		return func(yield func(agentcore.AssistantEvent) bool) {
			step.enter()
			s(yield)
		}
	}
	var mu sync.Mutex
	var live []durable.StreamEvent
	o := durable.Options{Model: agentcoretest.Model(), StreamFn: stream, OnStream: func(_ context.Context, ev durable.StreamEvent) {
		mu.Lock()
		defer mu.Unlock()
		live = append(live, ev)
	}}
	crashOptions(&o)
	st := crash(t, durable.New(o), step, 0)
	require.Len(t, st.Messages, 2)
	assert.Equal(t, "hello", st.Messages[1].(*agentcore.AssistantMessage).Text())
	assert.Equal(t, int32(2), step.calls.Load(), "the request ran again on the second worker")

	// The retried attempt streamed the request again, live; what the lost
	// attempt may have streamed is void.
	mu.Lock()
	defer mu.Unlock()
	var retried []string
	for _, ev := range live {
		if ev.Attempt == 2 {
			retried = append(retried, ev.Event.Type())
			if d, ok := ev.Event.(*agentcore.TextDeltaEvent); ok {
				assert.Equal(t, "hello", d.Delta)
			}
		}
	}
	assert.Equal(t, []string{"start", "text_start", "text_delta", "text_end", "done"}, retried)
}

func TestCrashWhileToolRuns(t *testing.T) {
	for _, tc := range []struct {
		name   string
		replay agentcore.ReplayPolicy
		want   string
		runs   int32
	}{
		{name: "never", replay: agentcore.ReplayNever, want: durable.UnknownOutcomeText("echo"), runs: 1},
		{name: "default", replay: "", want: durable.UnknownOutcomeText("echo"), runs: 1},
		{name: "safe", replay: agentcore.ReplaySafe, want: "echo: a", runs: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			step := newHang(t)
			tool := echoTool(tc.replay, func(_ context.Context, text string) (string, error) {
				step.enter()
				return text, nil
			})
			fake := agentcoretest.New(agentcoretest.ToolCallResponse(echoCall("c1", "a")), agentcoretest.TextResponse("done"))
			o := durable.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{tool}}
			crashOptions(&o)
			st := crash(t, durable.New(o), step, 0)
			results := toolResults(st.Messages)
			require.Contains(t, results, "c1")
			assert.Equal(t, tc.want, results["c1"].Text())
			assert.Equal(t, tc.replay != agentcore.ReplaySafe, results["c1"].IsError)
			assert.Equal(t, tc.runs, step.calls.Load())
			assert.Equal(t, "done", st.Messages[len(st.Messages)-1].(*agentcore.AssistantMessage).Text())
		})
	}
}

// TestCrashInParallelBatch kills the worker while one call of a parallel
// batch hangs and the other has finished: the finished one keeps its
// result, the lost one is answered by its policy, each exactly once.
func TestCrashInParallelBatch(t *testing.T) {
	step := newHang(t)
	tool := echoTool(agentcore.ReplayNever, func(_ context.Context, text string) (string, error) {
		if text == "slow" {
			step.enter()
		}
		return text, nil
	})
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(echoCall("c1", "fast"), echoCall("c2", "slow")), agentcoretest.TextResponse("done"))
	o := durable.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{tool}}
	crashOptions(&o)
	st := crash(t, durable.New(o), step, 2) // the request and the fast call
	results := toolResults(st.Messages)
	assert.Equal(t, "echo: fast", results["c1"].Text())
	assert.Equal(t, durable.UnknownOutcomeText("echo"), results["c2"].Text())
}

// TestCrashInHookAndBetweenTurns kills the worker while a hook runs, after
// a tool batch and before the next request: the workflow task never
// completes, so the next worker replays the history from the start, hooks
// included, and goes on from there.
func TestCrashInHookAndBetweenTurns(t *testing.T) {
	step := newHang(t)
	var once atomic.Bool
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(echoCall("c1", "a")), agentcoretest.TextResponse("done"))
	o := durable.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{echoTool(agentcore.ReplayNever, nil)}}
	o.FinishTurn = func(_ context.Context, t agentcore.TurnContext) (agentcore.TurnDecision, error) {
		if len(t.ToolResults) > 0 && once.CompareAndSwap(false, true) {
			step.enter()
		}
		return agentcore.TurnDefault, nil
	}
	crashOptions(&o)
	st := crash(t, durable.New(o), step, 0)
	assert.Equal(t, "echo: a", toolResults(st.Messages)["c1"].Text())
	assert.Equal(t, 2, fake.CallCount(), "no request repeated")
}
