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
