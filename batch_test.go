package agentcore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// callsResponse is a response calling tool name n times, IDs c0, c1, ...
func callsResponse(name string, n int) agentcoretest.Response {
	calls := make([]agentcore.ToolCall, n)
	for i := range calls {
		calls[i] = agentcoretest.ToolCall(fmt.Sprint("c", i), name, nil)
	}
	return agentcoretest.ToolCallResponse(calls...)
}

// toolResults returns the texts of the tool results in a's transcript.
func toolResults(a *agentcore.Agent) []string {
	var out []string
	for _, m := range a.Messages() {
		if r, ok := m.(*agentcore.ToolResultMessage); ok {
			out = append(out, r.Text())
		}
	}
	return out
}

// TestBatchCallsRunConcurrently checks that every call of a parallel batch
// runs at the same time as the others: each waits until all have started,
// which would end in a (virtual) timeout if any call waited for another.
func TestBatchCallsRunConcurrently(t *testing.T) {
	for _, n := range []int{2, 3, 8} {
		t.Run(fmt.Sprint(n, " calls"), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var arrived atomic.Int32
				all := make(chan struct{})
				rendezvous := agentcore.Tool{Name: "meet", Execute: func(ctx context.Context, _ string, _ json.RawMessage, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
					if arrived.Add(1) == int32(n) {
						close(all)
					}
					select {
					case <-all:
						return agentcore.TextResult("met"), nil
					case <-time.After(time.Minute):
						return agentcore.ToolResult{}, fmt.Errorf("calls did not run concurrently")
					}
				}}
				fake := agentcoretest.New(callsResponse("meet", n), agentcoretest.TextResponse("done"))
				a, _ := newAgent(fake, rendezvous)
				require.NoError(t, a.Prompt(t.Context(), "go"))
				assert.Equal(t, slices.Repeat([]string{"met"}, n), toolResults(a))
			})
		})
	}
}

// TestBatchUpdatesDoNotWaitForListeners checks that a tool's update reaches
// the listeners while the tool keeps running, in both batch modes: the tool
// waits for its own update to be seen before it returns.
func TestBatchUpdatesDoNotWaitForListeners(t *testing.T) {
	for _, mode := range []agentcore.ToolExecutionMode{agentcore.ToolsParallel, agentcore.ToolsSequential} {
		t.Run(string(mode), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				seen := make(chan string, 4)
				tool := agentcore.Tool{Name: "progress", Execute: func(ctx context.Context, id string, _ json.RawMessage, onUpdate func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
					onUpdate(agentcore.TextResult("half way " + id))
					select {
					case <-seen:
						return agentcore.TextResult("done " + id), nil
					case <-time.After(time.Minute):
						return agentcore.ToolResult{}, fmt.Errorf("update of %s not delivered while the tool ran", id)
					}
				}}
				fake := agentcoretest.New(callsResponse("progress", 2), agentcoretest.TextResponse("ok"))
				a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream,
					Tools: []agentcore.Tool{tool}, ToolExecution: mode})
				var order []string // listeners run one at a time
				a.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
					switch e := ev.(type) {
					case *agentcore.ToolExecutionUpdateEvent:
						order = append(order, "update:"+e.ToolCallID)
						seen <- e.ToolCallID
					case *agentcore.ToolExecutionEndEvent:
						order = append(order, "end:"+e.ToolCallID)
					}
				})
				require.NoError(t, a.Prompt(t.Context(), "go"))
				results := toolResults(a)
				require.Len(t, results, 2)
				for _, r := range results {
					assert.True(t, strings.HasPrefix(r, "done"), "result %q", r)
				}
				for _, id := range []string{"c0", "c1"} {
					update, end := slices.Index(order, "update:"+id), slices.Index(order, "end:"+id)
					assert.True(t, update >= 0 && end > update, "%s: events %q", id, order)
				}
			})
		})
	}
}

// TestBatchListenersNeverOverlap checks that the events of a batch whose
// calls report updates concurrently reach the listeners one at a time. The
// listener sleeps on each update: in the bubble, until every other goroutine
// is blocked, so every update that could overlap it is posted meanwhile.
func TestBatchListenersNeverOverlap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const calls, updates = 6, 20
		chatty := agentcore.Tool{Name: "chatty", Execute: func(ctx context.Context, id string, _ json.RawMessage, onUpdate func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			var wg sync.WaitGroup
			for i := range updates {
				wg.Go(func() { onUpdate(agentcore.TextResult(fmt.Sprint(id, " ", i))) })
			}
			wg.Wait()
			return agentcore.TextResult("ok"), nil
		}}
		fake := agentcoretest.New(callsResponse("chatty", calls), agentcoretest.TextResponse("done"))
		a, _ := newAgent(fake, chatty)
		var inside, overlaps, delivered atomic.Int32
		a.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
			if inside.Add(1) > 1 {
				overlaps.Add(1)
			}
			if _, ok := ev.(*agentcore.ToolExecutionUpdateEvent); ok {
				delivered.Add(1)
				time.Sleep(time.Millisecond)
			}
			inside.Add(-1)
		})
		require.NoError(t, a.Prompt(t.Context(), "go"))
		assert.Zero(t, overlaps.Load(), "listener calls overlapped")
		assert.Equal(t, int32(calls*updates), delivered.Load(), "updates delivered")
	})
}

// TestBatchListenerPanic checks that a listener panicking on a tool event of
// a parallel batch ends the run with the failure sequence, cancels the
// calls still running, and leaves no goroutine behind (TestMain checks).
func TestBatchListenerPanic(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fake := agentcoretest.New(agentcoretest.ToolCallResponse(
			agentcoretest.ToolCall("fast", "fast", nil), agentcoretest.ToolCall("slow", "slow", nil),
		), agentcoretest.TextResponse("never"))
		a, log := newAgent(fake, echoTool("fast", 0), echoTool("slow", time.Minute))
		a.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
			if e, ok := ev.(*agentcore.ToolExecutionEndEvent); ok && e.ToolCallID == "fast" {
				panic("listener broke")
			}
		})
		start := time.Now()
		require.EqualError(t, a.Prompt(t.Context(), "go"), "agentcore: run failed: listener broke")
		assert.Zero(t, time.Since(start), "the slow call was not cancelled")
		assert.Equal(t, "listener broke", a.State().ErrorMessage)
		assert.True(t, strings.HasSuffix(log.String(), "message_start message_end:assistant turn_end agent_end"), "events %s", log)
		assert.Equal(t, 1, fake.CallCount(), "requests")
	})
}

// TestBatchLateUpdatesDropped checks that an update callback kept past its
// call reports nothing, even while a later call runs in its place.
func TestBatchLateUpdatesDropped(t *testing.T) {
	var kept func(agentcore.ToolResult)
	leaky := agentcore.Tool{Name: "leaky", Execute: func(_ context.Context, _ string, _ json.RawMessage, onUpdate func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		kept = onUpdate
		return agentcore.TextResult("kept the callback"), nil
	}}
	probe := agentcore.Tool{Name: "probe", Execute: func(_ context.Context, _ string, _ json.RawMessage, onUpdate func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		kept(agentcore.TextResult("stale"))
		onUpdate(agentcore.TextResult("fresh"))
		return agentcore.TextResult("done"), nil
	}}
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("first", "leaky", nil)),
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("second", "probe", nil)),
		agentcoretest.TextResponse("ok"))
	a, _ := newAgent(fake, leaky, probe)
	var updates []string
	a.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		if u, ok := ev.(*agentcore.ToolExecutionUpdateEvent); ok {
			updates = append(updates, u.ToolCallID+":"+u.PartialResult.Text())
		}
	})
	require.NoError(t, a.Prompt(context.Background(), "go"))
	assert.Equal(t, "second:fresh", strings.Join(updates, ","), "updates: want only the probe's own")
}
