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
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
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
// which deadlocks (and times out) if any call waited for another.
func TestBatchCallsRunConcurrently(t *testing.T) {
	for _, n := range []int{2, 3, 8} {
		t.Run(fmt.Sprint(n, " calls"), func(t *testing.T) {
			var arrived atomic.Int32
			all := make(chan struct{})
			rendezvous := agentcore.Tool{Name: "meet", Execute: func(ctx context.Context, _ string, _ json.RawMessage, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
				if arrived.Add(1) == int32(n) {
					close(all)
				}
				select {
				case <-all:
					return agentcore.TextResult("met"), nil
				case <-time.After(5 * time.Second):
					return agentcore.ToolResult{}, fmt.Errorf("calls did not run concurrently")
				}
			}}
			fake := agentcoretest.New(callsResponse("meet", n), agentcoretest.TextResponse("done"))
			a, _ := newAgent(fake, rendezvous)
			if err := a.Prompt(context.Background(), "go"); err != nil {
				t.Fatal(err)
			}
			if got, want := strings.Join(toolResults(a), ","), strings.TrimSuffix(strings.Repeat("met,", n), ","); got != want {
				t.Fatalf("results %s, want %s", got, want)
			}
		})
	}
}

// TestBatchUpdatesDoNotWaitForListeners checks that a tool's update reaches
// the listeners while the tool keeps running, in both batch modes: the tool
// waits for its own update to be seen before it returns.
func TestBatchUpdatesDoNotWaitForListeners(t *testing.T) {
	for _, mode := range []agentcore.ToolExecutionMode{agentcore.ToolsParallel, agentcore.ToolsSequential} {
		t.Run(string(mode), func(t *testing.T) {
			seen := make(chan string, 4)
			tool := agentcore.Tool{Name: "progress", Execute: func(ctx context.Context, id string, _ json.RawMessage, onUpdate func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
				onUpdate(agentcore.TextResult("half way " + id))
				select {
				case <-seen:
					return agentcore.TextResult("done " + id), nil
				case <-time.After(5 * time.Second):
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
			if err := a.Prompt(context.Background(), "go"); err != nil {
				t.Fatal(err)
			}
			results := toolResults(a)
			if len(results) != 2 || !strings.HasPrefix(results[0], "done") || !strings.HasPrefix(results[1], "done") {
				t.Fatalf("results %q", results)
			}
			for _, id := range []string{"c0", "c1"} {
				update, end := slices.Index(order, "update:"+id), slices.Index(order, "end:"+id)
				if update < 0 || end < update {
					t.Fatalf("%s: events %q", id, order)
				}
			}
		})
	}
}

// TestBatchListenersNeverOverlap checks that the events of a batch whose
// calls report updates concurrently reach the listeners one at a time.
func TestBatchListenersNeverOverlap(t *testing.T) {
	const calls, updates = 6, 20
	chatty := agentcore.Tool{Name: "chatty", Execute: func(ctx context.Context, id string, _ json.RawMessage, onUpdate func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		var wg sync.WaitGroup
		for i := range updates {
			wg.Add(1)
			go func() {
				defer wg.Done()
				onUpdate(agentcore.TextResult(fmt.Sprint(id, " ", i)))
			}()
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
			time.Sleep(50 * time.Microsecond)
		}
		inside.Add(-1)
	})
	if err := a.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	if n := overlaps.Load(); n > 0 {
		t.Fatalf("%d listener calls overlapped", n)
	}
	if got := delivered.Load(); got != calls*updates {
		t.Fatalf("%d updates delivered, want %d", got, calls*updates)
	}
}

// TestBatchListenerPanic checks that a listener panicking on a tool event of
// a parallel batch ends the run with the failure sequence, cancels the
// calls still running, and leaves no goroutine behind (TestMain checks).
func TestBatchListenerPanic(t *testing.T) {
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
	if err := a.Prompt(context.Background(), "go"); err == nil || err.Error() != "agentcore: run failed: listener broke" {
		t.Fatalf("Prompt returned %v", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("run took %v: the slow call was not cancelled", d)
	}
	if got := a.State().ErrorMessage; got != "listener broke" {
		t.Fatalf("error message %q", got)
	}
	if !strings.HasSuffix(log.String(), "message_start message_end:assistant turn_end agent_end") {
		t.Fatalf("events %s", log)
	}
	if fake.CallCount() != 1 {
		t.Fatalf("%d requests", fake.CallCount())
	}
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
	if err := a.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(updates, ","); got != "second:fresh" {
		t.Fatalf("updates %q, want only the probe's own", got)
	}
}
