package temporal_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	durable "github.com/pi-go/agentcore/durable/temporal"
	"github.com/pi-go/agentcore/hold"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/prototext"
)

// TestHistoryCost measures what a turn adds to the workflow history: runs
// of a tool turn and a text turn, on a transcript that grows by about 1 KB
// a run. The figures are logged (go test -v -run HistoryCost) and bounded,
// so that a change that makes turns dearer is noticed.
func TestHistoryCost(t *testing.T) {
	ctx := testCtx(t)
	text := strings.Repeat("x", 400)
	fake := agentcoretest.NewFunc(func(_ context.Context, c agentcoretest.Call) agentcoretest.Response {
		if c.Index%2 == 1 {
			return agentcoretest.ToolCallResponse(echoCall("c1", text))
		}
		return agentcoretest.TextResponse(text)
	})
	o := durable.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{echoTool(agentcore.ReplayNever, nil)}}
	s := startSession(t, o)
	const runs = 6
	var events, sizes []int
	for range runs {
		before, err := s.State(ctx)
		require.NoError(t, err)
		require.NoError(t, s.Prompt(ctx, "go"))
		after, err := s.State(ctx)
		require.NoError(t, err)
		events = append(events, after.HistoryLength-before.HistoryLength)
		sizes = append(sizes, after.HistorySize-before.HistorySize)
	}
	t.Logf("per run of two turns (a request with one tool call, then a text request): events %v, bytes %v", events, sizes)
	for i := range runs {
		assert.LessOrEqual(t, events[i], 30, "events of run %d", i)
	}
	growth := (sizes[runs-1] - sizes[1]) / (runs - 2)
	t.Logf("bytes per run grow by %d a run (the requests carry the whole context)", growth)
}

// TestStreamOptionsStayOnWorker checks that the request's options, key and
// request hooks included, are the worker's, and that the key never enters
// the history.
func TestStreamOptionsStayOnWorker(t *testing.T) {
	ctx := testCtx(t)
	fake := agentcoretest.New(agentcoretest.TextResponse("hi"))
	o := durable.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, ThinkingLevel: agentcore.ThinkingHigh}
	o.StreamOptions.APIKey = "secret-key-123"
	o.StreamOptions.OnPayload = func(_ context.Context, _ agentcore.Model, p json.RawMessage) (json.RawMessage, error) { return p, nil }
	sessions := durable.New(o)
	queue := taskQueue(t)
	startWorker(t, queue, sessions)
	cl := newClient(t, queue, sessions)
	s, err := cl.Start(ctx, queue)
	require.NoError(t, err)
	require.NoError(t, s.Prompt(ctx, "go"))
	calls := fake.Calls()
	require.Len(t, calls, 1)
	assert.Equal(t, "secret-key-123", calls[0].Options.APIKey)
	assert.NotNil(t, calls[0].Options.OnPayload)
	assert.Equal(t, agentcore.ThinkingHigh, calls[0].Options.Reasoning)
	h, err := cl.History(ctx, queue)
	require.NoError(t, err)
	text := prototext.Format(h) // payload bytes as text, not base64
	require.Contains(t, text, "fake-model", "the check reads the payloads")
	assert.NotContains(t, text, "secret-key-123")
}

// TestHeldCallWaitingCost measures what a session's history costs while
// held calls wait: ten calls held by one run, with a day's deadline (a
// workflow timer), then decided one decide signal at a time. Waiting
// itself writes nothing (queries neither): no activity runs and no timer
// fires until the deadline. The figures are logged (go test -v -run
// WaitingCost) and bounded.
func TestHeldCallWaitingCost(t *testing.T) {
	ctx := testCtx(t)
	const n = 10
	calls := make([]agentcore.ToolCall, n)
	for i := range calls {
		calls[i] = echoCall(fmt.Sprintf("c%d", i), "a")
	}
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(calls...), agentcoretest.TextResponse("done"))
	var ran atomic.Int32
	s := startSession(t, holdOptions(fake.Stream, &ran, hold.Options{Timeout: 24 * time.Hour}))
	require.ErrorIs(t, s.Prompt(ctx, "echo"), hold.ErrHeld)
	held, err := s.State(ctx)
	require.NoError(t, err)
	h, err := s.Held(ctx)
	require.NoError(t, err)
	require.Len(t, h.Undecided(), n)
	again, err := s.State(ctx)
	require.NoError(t, err)
	assert.Equal(t, held.HistoryLength, again.HistoryLength, "queries write nothing")

	for i := range n {
		require.NoError(t, s.Decide(ctx, hold.Approve{ID: calls[i].ID}))
	}
	decided, err := s.State(ctx)
	require.NoError(t, err)
	perEvents := (decided.HistoryLength - held.HistoryLength) / n
	perBytes := (decided.HistorySize - held.HistorySize) / n
	t.Logf("after the hold of %d calls: %d events, %d bytes; each decide signal then adds %d events, %d bytes (%d events, %d bytes in all)",
		n, held.HistoryLength, held.HistorySize, perEvents, perBytes, decided.HistoryLength, decided.HistorySize)
	assert.LessOrEqual(t, perEvents, 5, "a signal, its workflow task and the deadline's timer")
	require.NoError(t, s.Continue(ctx))
	assert.Equal(t, int32(n), ran.Load())
}
