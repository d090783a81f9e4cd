package temporal_test

import (
	"context"
	"encoding/json"
	"strings"
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

// crashOptions make a lost worker's activity attempt time out fast. On a
// busy machine an attempt of a live worker may time out too (its
// heartbeats come late): the crash tests hold for any number of such
// timeouts. Their model answers by turn ([byTurn]), so a request run again
// gets the same answer, and they assert what each call's recorded attempts
// ([attempts]) make legal rather than a fixed count.
func crashOptions(o *durable.Options) {
	o.ModelActivity = workflow.ActivityOptions{StartToCloseTimeout: time.Minute, HeartbeatTimeout: 2 * time.Second}
	o.ToolActivity = o.ModelActivity
}

// byTurn returns a fake model that answers a request with the response of
// its turn, the number of assistant messages in its context, whatever the
// number of requests before it: an attempt of a request run again answers
// as the first did.
func byTurn(responses ...agentcoretest.Response) *agentcoretest.Fake {
	return agentcoretest.NewFunc(func(_ context.Context, c agentcoretest.Call) agentcoretest.Response {
		n := 0
		for _, m := range c.Request.Messages {
			if _, ok := m.(*agentcore.AssistantMessage); ok {
				n++
			}
		}
		if n >= len(responses) {
			return agentcoretest.Response{StopReason: agentcore.StopError, Err: agentcoretest.ErrNoResponse, NoStart: true}
		}
		return responses[n]
	})
}

// attempts are the attempts of a session's activities, as its history
// records them: the attempt number of the attempt that ended each.
type attempts struct {
	// tools are those of the tool calls, by call ID; requests those of the
	// model requests, in order.
	tools    map[string]int32
	requests []int32
}

// readAttempts reads the attempts of the activities of session id.
func readAttempts(ctx context.Context, t *testing.T, cl *durable.Client, id string) attempts {
	t.Helper()
	h, err := cl.History(ctx, id)
	require.NoError(t, err)
	calls := map[int64]string{} // tool calls' IDs by scheduled event
	out := attempts{tools: map[string]int32{}}
	for _, ev := range h.Events {
		if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil && strings.HasSuffix(a.GetActivityType().GetName(), ".tool") {
			var in struct {
				CallID string `json:"callId"`
			}
			require.NoError(t, json.Unmarshal(a.GetInput().GetPayloads()[0].GetData(), &in))
			calls[ev.GetEventId()] = in.CallID
		}
		if a := ev.GetActivityTaskStartedEventAttributes(); a != nil {
			if id, ok := calls[a.GetScheduledEventId()]; ok {
				out.tools[id] = a.GetAttempt()
			} else {
				out.requests = append(out.requests, a.GetAttempt())
			}
		}
	}
	return out
}

// total sums attempts.
func total(attempts []int32) int {
	n := 0
	for _, a := range attempts {
		n += int(a)
	}
	return n
}

// ranOnce is the result of a call of a tool that is not safe to replay:
// its own, when its first attempt's outcome was recorded, else
// [durable.UnknownOutcomeText].
func ranOnce(a attempts, callID, result string) string {
	if a.tools[callID] == 1 {
		return result
	}
	return durable.UnknownOutcomeText("echo")
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

// enter counts a call and hangs the first one, which it reports.
func (h *hang) enter() (hung bool) {
	if h.calls.Add(1) == 1 {
		h.once.Do(func() { close(h.started) })
		<-h.release
		return true
	}
	return false
}

// crash runs prompt on worker A, kills A once step has started and the
// history holds completed activities, starts worker B, and returns the
// finished session's state and its activities' attempts.
func crash(t *testing.T, sessions *durable.Sessions, step *hang, completed int) (durable.State, attempts) {
	t.Helper()
	_, st, att := upgrade(t, sessions, sessions, step, completed)
	return st, att
}

// upgrade is crash with worker B serving the session type after: the
// session's code as a new version of the workers has it.
func upgrade(t *testing.T, before, after *durable.Sessions, step *hang, completed int) (*durable.Session, durable.State, attempts) {
	t.Helper()
	ctx := testCtx(t)
	queue := taskQueue(t)
	a := startWorker(t, queue, before)
	cl := newClient(t, queue, before)
	s, err := cl.Start(ctx, queue)
	require.NoError(t, err)
	seq, err := s.Start(ctx, agentcore.UserText("go"))
	require.NoError(t, err)
	select {
	case <-step.started:
	case <-ctx.Done():
		t.Fatal("the step never started")
	}
	waitCompleted(ctx, t, queue, completed)
	a.c.Close() // the process is gone: nothing it does reaches the server
	step.free()
	a.kill()
	startWorker(t, queue, after)
	require.NoError(t, s.Wait(ctx, seq))
	st, err := s.State(ctx)
	require.NoError(t, err)
	assertOneResultPerCall(t, st.Messages)
	att := readAttempts(ctx, t, cl, queue)
	t.Logf("attempts: tool calls %v, requests %v", att.tools, att.requests)
	return s, st, att
}

// waitCompleted waits until the history of session id records n completed
// activities, reading it by long poll: the server answers when events come.
func waitCompleted(ctx context.Context, t *testing.T, id string, n int) {
	t.Helper()
	if n == 0 {
		return
	}
	c := dial(t)
	defer c.Close()
	it := c.GetWorkflowHistory(ctx, id, "", true, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for seen := 0; seen < n; {
		require.True(t, it.HasNext(), "the session ended")
		ev, err := it.Next()
		require.NoError(t, err)
		if ev.GetEventType() == enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED {
			seen++
		}
	}
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

// TestCrashWhileModelStreams kills the worker while the model streams:
// the request runs again on the next worker, and the attempt that
// completed streamed it again, live.
func TestCrashWhileModelStreams(t *testing.T) {
	step := newHang(t)
	lost := agentcoretest.New(agentcoretest.TextResponse("lost"))
	fake := byTurn(agentcoretest.TextResponse("hello"))
	stream := func(ctx context.Context, m agentcore.Model, r agentcore.Request, o agentcore.StreamOptions) agentcore.AssistantStream {
		return func(yield func(agentcore.AssistantEvent) bool) {
			if step.enter() {
				lost.Stream(ctx, m, r, o)(yield) // never reported
				return
			}
			fake.Stream(ctx, m, r, o)(yield)
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
	st, att := crash(t, durable.New(o), step, 0)
	require.Len(t, st.Messages, 2)
	assert.Equal(t, "hello", st.Messages[1].(*agentcore.AssistantMessage).Text())
	require.Len(t, att.requests, 1)
	// The lost attempt and the one that completed made the request; an
	// attempt a busy machine timed out may have made it too.
	assert.GreaterOrEqual(t, step.calls.Load(), int32(2))
	assert.LessOrEqual(t, step.calls.Load(), att.requests[0], "no request without an attempt")

	// The attempt that completed, the last, streamed the request again
	// from its start; what the lost attempt may have streamed is void.
	mu.Lock()
	defer mu.Unlock()
	var retried []string
	for _, ev := range live {
		if ev.Attempt == int(att.requests[0]) {
			retried = append(retried, ev.Event.Type())
			if d, ok := ev.Event.(*agentcore.TextDeltaEvent); ok {
				assert.Equal(t, "hello", d.Delta)
			}
		}
	}
	assert.Equal(t, []string{"start", "text_start", "text_delta", "text_end", "done"}, retried)
}

// TestCrashWhileToolRuns kills the worker while a tool runs: the call is
// run again only when its tool is safe to replay, else answered as of an
// unknown outcome.
func TestCrashWhileToolRuns(t *testing.T) {
	for _, tc := range []struct {
		name   string
		replay agentcore.ReplayPolicy
		want   string
	}{
		{name: "never", replay: agentcore.ReplayNever, want: durable.UnknownOutcomeText("echo")},
		{name: "default", replay: "", want: durable.UnknownOutcomeText("echo")},
		{name: "safe", replay: agentcore.ReplaySafe, want: "echo: a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			step := newHang(t)
			tool := echoTool(tc.replay, func(_ context.Context, text string) (string, error) {
				step.enter()
				return text, nil
			})
			fake := byTurn(agentcoretest.ToolCallResponse(echoCall("c1", "a")), agentcoretest.TextResponse("done"))
			o := durable.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{tool}}
			crashOptions(&o)
			st, att := crash(t, durable.New(o), step, 0)
			results := toolResults(st.Messages)
			require.Contains(t, results, "c1")
			assert.Equal(t, tc.want, results["c1"].Text())
			assert.Equal(t, tc.replay != agentcore.ReplaySafe, results["c1"].IsError)
			assert.GreaterOrEqual(t, att.tools["c1"], int32(2), "the lost attempt was retried")
			if tc.replay == agentcore.ReplaySafe {
				// The lost attempt and the one that completed ran it; an
				// attempt a busy machine timed out may have run it too.
				assert.GreaterOrEqual(t, step.calls.Load(), int32(2))
				assert.LessOrEqual(t, step.calls.Load(), att.tools["c1"], "no run without an attempt")
			} else {
				assert.Equal(t, int32(1), step.calls.Load(), "only the first attempt ran the call")
			}
			assert.Equal(t, "done", st.Messages[len(st.Messages)-1].(*agentcore.AssistantMessage).Text())
		})
	}
}

// TestCrashInParallelBatch kills the worker while one call of a parallel
// batch hangs and the other has finished: the finished one keeps its
// result, the lost one is answered by its policy, each exactly once.
// Neither is safe to replay, so neither runs twice; the finished one's
// result is its own unless a heartbeat timeout on a busy machine lost its
// first attempt before the crash (see [ranOnce]).
func TestCrashInParallelBatch(t *testing.T) {
	step := newHang(t)
	var fast atomic.Int32
	tool := echoTool(agentcore.ReplayNever, func(_ context.Context, text string) (string, error) {
		if text == "slow" {
			step.enter()
		} else {
			fast.Add(1)
		}
		return text, nil
	})
	fake := byTurn(agentcoretest.ToolCallResponse(echoCall("c1", "fast"), echoCall("c2", "slow")), agentcoretest.TextResponse("done"))
	o := durable.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{tool}}
	crashOptions(&o)
	st, att := crash(t, durable.New(o), step, 2) // the request and the fast call
	results := toolResults(st.Messages)
	require.Contains(t, results, "c1")
	require.Contains(t, results, "c2")
	assert.Equal(t, ranOnce(att, "c1", "echo: fast"), results["c1"].Text())
	assert.Equal(t, durable.UnknownOutcomeText("echo"), results["c2"].Text())
	assert.LessOrEqual(t, fast.Load(), int32(1), "the fast call ran at most once")
	assert.Equal(t, int32(1), step.calls.Load(), "the slow call ran once")
	assert.Equal(t, "done", st.Messages[len(st.Messages)-1].(*agentcore.AssistantMessage).Text())
}

// TestCrashInHookAndBetweenTurns kills the worker while a hook runs, after
// a tool batch and before the next request: the workflow task never
// completes, so the next worker replays the history from the start, hooks
// included, and goes on from there. No request or call runs again but
// for an attempt the history records.
func TestCrashInHookAndBetweenTurns(t *testing.T) {
	step := newHang(t)
	var once atomic.Bool
	var runs atomic.Int32
	fake := byTurn(agentcoretest.ToolCallResponse(echoCall("c1", "a")), agentcoretest.TextResponse("done"))
	tool := echoTool(agentcore.ReplayNever, func(_ context.Context, text string) (string, error) {
		runs.Add(1)
		return text, nil
	})
	o := durable.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{tool}}
	o.FinishTurn = func(_ context.Context, t agentcore.TurnContext) (agentcore.TurnDecision, error) {
		if len(t.ToolResults) > 0 && once.CompareAndSwap(false, true) {
			step.enter()
		}
		return agentcore.TurnDefault, nil
	}
	crashOptions(&o)
	st, att := crash(t, durable.New(o), step, 0)
	assert.Equal(t, ranOnce(att, "c1", "echo: a"), toolResults(st.Messages)["c1"].Text())
	assert.Equal(t, int32(1), runs.Load(), "the call ran once")
	require.Len(t, att.requests, 2)
	assert.LessOrEqual(t, fake.CallCount(), total(att.requests), "no request repeated but by a recorded attempt")
	assert.Equal(t, "done", st.Messages[len(st.Messages)-1].(*agentcore.AssistantMessage).Text())
}
