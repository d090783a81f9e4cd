package temporal_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	durable "github.com/pi-go/agentcore/durable/temporal"
	"github.com/pi-go/agentcore/hold"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/worker"
)

// holdOptions are a session type whose echo tool, counting its runs in
// ran, is always held for a decision.
func holdOptions(fn agentcore.StreamFn, ran *atomic.Int32, h hold.Options) durable.Options {
	h.Policy = hold.Always(hold.Request{Title: "Echo?"}, "echo")
	return durable.Options{
		Model: agentcoretest.Model(), StreamFn: fn, Hold: &h,
		Tools: []agentcore.Tool{echoTool(agentcore.ReplayNever, func(_ context.Context, text string) (string, error) {
			ran.Add(1)
			return text, nil
		})},
	}
}

// lastToolResult is the last tool result of msgs.
func lastToolResultOf(t *testing.T, msgs []agentcore.Message) *agentcore.ToolResultMessage {
	t.Helper()
	for i := len(msgs) - 1; i >= 0; i-- {
		if r, ok := msgs[i].(*agentcore.ToolResultMessage); ok {
			return r
		}
	}
	t.Fatal("no tool result")
	return nil
}

// TestHeldCallAcrossWorkerRestart holds a call: the run ends with a
// HeldError and the placeholder in the transcript, a prompt is refused
// while the call waits, the worker is lost, another client lists and
// approves the call with no worker running, a new worker starts, and the
// client's Continue runs the tool (once) and finishes the run with its
// result. The history replays.
func TestHeldCallAcrossWorkerRestart(t *testing.T) {
	ctx := testCtx(t)
	var ran atomic.Int32
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(echoCall("c1", "a")), agentcoretest.TextResponse("done"))
	o := holdOptions(fake.Stream, &ran, hold.Options{})
	sessions := durable.New(o)
	queue := taskQueue(t)
	first := startWorker(t, queue, sessions)
	s, err := newClient(t, queue, sessions).Start(ctx, queue)
	require.NoError(t, err)

	err = s.Prompt(ctx, "echo a")
	var held *hold.HeldError
	require.ErrorAs(t, err, &held)
	require.Len(t, held.Calls, 1)
	assert.Equal(t, "c1", held.Calls[0].ID)
	assert.Equal(t, "Echo?", held.Calls[0].Title)
	st, err := s.State(ctx)
	require.NoError(t, err)
	assert.Empty(t, st.ErrorMessage, "holding is not a failure")
	assert.Equal(t, hold.DefaultPlaceholder, lastToolResultOf(t, st.Messages).Text())
	assert.ErrorIs(t, s.Prompt(ctx, "again"), hold.ErrHeld, "no run while a call waits")
	first.kill()

	other := newClient(t, queue, sessions).Session(queue)
	short, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	require.ErrorIs(t, other.Decide(short, hold.Approve{ID: "c1"}), durable.ErrRecorded)

	startWorker(t, queue, sessions)
	h, err := other.Held(ctx)
	require.NoError(t, err)
	require.Len(t, h.Calls, 1)
	assert.Equal(t, hold.Approve{ID: "c1"}, h.Calls[0].Decision)
	require.NoError(t, other.Continue(ctx))

	assert.Equal(t, int32(1), ran.Load())
	st, err = other.State(ctx)
	require.NoError(t, err)
	assert.Equal(t, "echo: a", lastToolResultOf(t, st.Messages).Text())
	assert.Equal(t, "done", st.Messages[len(st.Messages)-1].(*agentcore.AssistantMessage).Text())
	calls := fake.Calls()
	require.Len(t, calls, 2)
	assert.Equal(t, "echo: a", lastToolResultOf(t, calls[1].Request.Messages).Text(), "the model saw the result")
	h, err = other.Held(ctx)
	require.NoError(t, err)
	assert.Empty(t, h.Calls)

	hist, err := newClient(t, queue, sessions).History(ctx, queue)
	require.NoError(t, err)
	r := worker.NewWorkflowReplayer()
	durable.New(o).RegisterWorkflow(r)
	require.NoError(t, r.ReplayWorkflowHistory(quietLogger{}, hist))
}

// TestHeldCallDeadline holds a call with a 2-second timeout: the
// session's workflow timer denies it at its deadline with no client
// around, a later decision is refused as a second one, and the next run
// gives the model the denial; the tool never ran.
func TestHeldCallDeadline(t *testing.T) {
	ctx := testCtx(t)
	var ran atomic.Int32
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(echoCall("c1", "a")), agentcoretest.TextResponse("denied, fine"))
	s := startSession(t, holdOptions(fake.Stream, &ran, hold.Options{Timeout: 2 * time.Second}))
	require.ErrorIs(t, s.Prompt(ctx, "echo a"), hold.ErrHeld)
	h, err := s.Held(ctx)
	require.NoError(t, err)
	require.Len(t, h.Calls, 1)
	assert.Equal(t, h.Calls[0].HeldAt.Add(2*time.Second), h.Calls[0].Deadline)

	require.Eventually(t, func() bool {
		h, err = s.Held(ctx)
		return err == nil && len(h.Calls) == 1 && h.Calls[0].Decision != nil
	}, 30*time.Second, 100*time.Millisecond)
	assert.True(t, h.Calls[0].ByDeadline)
	assert.IsType(t, hold.Deny{}, h.Calls[0].Decision)
	assert.ErrorIs(t, s.Decide(ctx, hold.Approve{ID: "c1"}), hold.ErrDecided)

	require.NoError(t, s.Continue(ctx))
	assert.Zero(t, ran.Load())
	r := lastToolResultOf(t, fake.Calls()[1].Request.Messages)
	assert.True(t, r.IsError)
	assert.NotEqual(t, hold.DefaultPlaceholder, r.Text())
}

// TestDecideHeldCalls holds two parallel calls and checks Decide's
// refusals (a call not held, a second decision, edited arguments the
// schema refuses: none changes anything), then denies one with a reason
// and approves the other with edited arguments: the next run gives the
// model the denial and the tool's result on the edited arguments.
func TestDecideHeldCalls(t *testing.T) {
	ctx := testCtx(t)
	var ran atomic.Int32
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(echoCall("c1", "a"), echoCall("c2", "b")), agentcoretest.TextResponse("ok"))
	s := startSession(t, holdOptions(fake.Stream, &ran, hold.Options{}))
	var held *hold.HeldError
	require.ErrorAs(t, s.Prompt(ctx, "echo twice"), &held)
	require.Len(t, held.Calls, 2)

	assert.ErrorIs(t, s.Decide(ctx, hold.Deny{ID: "nope"}), hold.ErrNotHeld)
	assert.ErrorIs(t, s.Decide(ctx, hold.Deny{ID: "c1"}, hold.Deny{ID: "c1"}), hold.ErrDecided)
	assert.ErrorIs(t, s.Decide(ctx, hold.Approve{ID: "c2", Arguments: []byte(`{}`)}), hold.ErrInvalidDecision)
	h, err := s.Held(ctx)
	require.NoError(t, err)
	assert.Len(t, h.Undecided(), 2, "refused decisions change nothing")

	require.NoError(t, s.Decide(ctx, hold.Deny{ID: "c1", Reason: "not now"}))
	assert.ErrorIs(t, s.Continue(ctx), hold.ErrHeld, "c2 still waits")
	require.NoError(t, s.Decide(ctx, hold.Approve{ID: "c2", Arguments: []byte(`{"text":"edited"}`)}))
	require.NoError(t, s.Continue(ctx))

	assert.Equal(t, int32(1), ran.Load())
	msgs := fake.Calls()[1].Request.Messages
	results := map[string]*agentcore.ToolResultMessage{}
	for _, m := range msgs {
		if r, ok := m.(*agentcore.ToolResultMessage); ok {
			results[r.ToolCallID] = r
		}
	}
	require.Len(t, results, 2)
	assert.True(t, results["c1"].IsError)
	assert.Equal(t, "not now", results["c1"].Text())
	assert.False(t, results["c2"].IsError)
	assert.Contains(t, results["c2"].Text(), "echo: edited")
}

// TestHeldCallsSurviveContinueAsNew holds a call in a session whose
// history is kept short: steering messages sent while it waits make the
// session continue as new, which keeps the held call and the queue; the
// call is then approved and the run goes on with the steering message.
func TestHeldCallsSurviveContinueAsNew(t *testing.T) {
	ctx := testCtx(t)
	var ran atomic.Int32
	fake := agentcoretest.NewFunc(func(_ context.Context, c agentcoretest.Call) agentcoretest.Response {
		if c.Index == 1 {
			return agentcoretest.ToolCallResponse(echoCall("c1", "a"))
		}
		return agentcoretest.TextResponse("done")
	})
	o := holdOptions(fake.Stream, &ran, hold.Options{})
	o.MaxHistoryLength = 30
	s := startSession(t, o)
	require.ErrorIs(t, s.Prompt(ctx, "echo a"), hold.ErrHeld)
	var st durable.State
	steers := 0
	for ; st.Continued == 0 && steers < 20; steers++ {
		require.NoError(t, s.Steer(ctx, agentcore.UserText("meanwhile")))
		var err error
		st, err = s.State(ctx)
		require.NoError(t, err)
	}
	require.Positive(t, st.Continued, "the session never continued as new")
	h, err := s.Held(ctx)
	require.NoError(t, err)
	require.Len(t, h.Calls, 1)
	assert.Equal(t, "c1", h.Calls[0].ID)

	require.NoError(t, s.Decide(ctx, hold.Approve{ID: "c1"}))
	require.NoError(t, s.Continue(ctx))
	assert.Equal(t, int32(1), ran.Load())
	calls := fake.Calls()
	last := calls[len(calls)-1].Request.Messages
	assert.Equal(t, "echo: a", lastToolResultOf(t, last).Text())
	queued := 0
	for _, m := range last {
		if u, ok := m.(*agentcore.UserMessage); ok && u.Text() == "meanwhile" {
			queued++
		}
	}
	assert.Equal(t, steers, queued, "the steering queued while held, carried over")
}

// waitTool is a tool that reports its start on started and returns once
// release is closed.
func waitTool(started chan<- struct{}, release <-chan struct{}) agentcore.Tool {
	return agentcore.NewTool("wait", "Waits.", func(ctx context.Context, _ string, _ struct{}, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		started <- struct{}{}
		select {
		case <-release:
			return agentcore.TextResult("waited"), nil
		case <-ctx.Done():
			return agentcore.ToolResult{}, ctx.Err()
		}
	})
}

// sendDuringRun sends requests that the session keeps for its run's end:
// each Send, its ctx ending first, reports the request recorded.
func sendDuringRun(ctx context.Context, t *testing.T, s *durable.Session, requests ...durable.Control) {
	t.Helper()
	for _, c := range requests {
		short, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
		require.ErrorIs(t, s.Send(short, c), durable.ErrRecorded, "applied at the run's end")
		cancel()
	}
}

// TestDecideDuringTheHoldingRun decides a held call while the run that
// holds it is still going (its other call runs): the decision waits for
// the run's end (Send reports it recorded, not applied), the run holds
// the call, applies the decision and goes on under the same number, as
// on an Agent deciding from its Gate's HeldEvent; the transcripts are the
// same. A decision sent meanwhile on a call the run does not hold is
// refused at the run's end with ErrNotHeld.
func TestDecideDuringTheHoldingRun(t *testing.T) {
	ctx := testCtx(t)
	script := func() *agentcoretest.Fake {
		return agentcoretest.New(agentcoretest.ToolCallResponse(echoCall("c1", "a"), agentcoretest.ToolCall("c2", "wait", map[string]any{})),
			agentcoretest.TextResponse("done"))
	}
	var agentRan, sessionRan atomic.Int32

	agentFake := script()
	ao := holdOptions(agentFake.Stream, &agentRan, hold.Options{})
	var gate *hold.Gate
	ho := *ao.Hold
	ho.OnEvent = func(ev hold.Event) {
		if h, ok := ev.(*hold.HeldEvent); ok {
			assert.NoError(t, gate.Decide(hold.Approve{ID: h.Call.ID}))
		}
	}
	gate = hold.New(ho)
	released := make(chan struct{})
	close(released)
	a := agentcore.New(agentcore.Options{Model: ao.Model, StreamFn: ao.StreamFn, Layers: []agentcore.Layer{gate},
		Tools: append(ao.Tools, waitTool(make(chan struct{}, 1), released))})
	require.NoError(t, a.Prompt(ctx, "echo a"))

	fake := script()
	o := holdOptions(fake.Stream, &sessionRan, hold.Options{})
	started, release := make(chan struct{}, 1), make(chan struct{})
	o.Tools = append(o.Tools, waitTool(started, release))
	s := startSession(t, o)
	seq, err := s.Start(ctx, agentcore.UserText("echo a"))
	require.NoError(t, err)
	select {
	case <-started:
	case <-ctx.Done():
		t.Fatal("the wait call never started")
	}
	approve := durable.Control{Key: durable.NewKey(), Kind: durable.ControlDecide, Decisions: durable.Decisions{hold.Approve{ID: "c1"}}}
	stray := durable.Control{Key: durable.NewKey(), Kind: durable.ControlDecide, Decisions: durable.Decisions{hold.Deny{ID: "c9"}}}
	sendDuringRun(ctx, t, s, approve, stray)
	close(release)

	require.NoError(t, s.Wait(ctx, seq), "the run went on")
	require.NoError(t, s.Send(ctx, approve), "applied")
	require.ErrorIs(t, s.Send(ctx, stray), hold.ErrNotHeld)
	assert.Equal(t, int32(1), sessionRan.Load())
	st, err := s.State(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, st.Runs)
	assert.False(t, st.Running)
	assert.Equal(t, normalize(t, a.State().Messages), normalize(t, st.Messages))
	require.Len(t, fake.Calls(), 2)
	results := toolResults(fake.Calls()[1].Request.Messages)
	require.Contains(t, results, "c1")
	assert.Equal(t, "echo: a", results["c1"].Text(), "the model saw the approved call's result")
	h, err := s.Held(ctx)
	require.NoError(t, err)
	assert.Empty(t, h.Calls)
	assert.Equal(t, int32(1), agentRan.Load())
}
