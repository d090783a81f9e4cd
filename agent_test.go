package agentcore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// echoTool returns its arguments; it sleeps d first, honoring ctx.
func echoTool(name string, d time.Duration) agentcore.Tool {
	return agentcore.Tool{Name: name, Execute: func(ctx context.Context, _ string, args json.RawMessage, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return agentcore.ToolResult{}, ctx.Err()
		}
		return agentcore.TextResult(string(args)), nil
	}}
}

// eventLog records event types (and the tool call ID of tool events).
type eventLog struct {
	mu     sync.Mutex
	events []string
}

func (l *eventLog) listen(_ context.Context, ev agentcore.AgentEvent) {
	s := ev.Type()
	switch e := ev.(type) {
	case *agentcore.ToolExecutionStartEvent:
		s += ":" + e.ToolCallID
	case *agentcore.ToolExecutionEndEvent:
		s += ":" + e.ToolCallID
	case *agentcore.MessageEndEvent:
		s += ":" + e.Message.Role()
	case *agentcore.MessageUpdateEvent:
		return
	}
	l.mu.Lock()
	l.events = append(l.events, s)
	l.mu.Unlock()
}

func (l *eventLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.events, " ")
}

func newAgent(fake *agentcoretest.Fake, tools ...agentcore.Tool) (*agentcore.Agent, *eventLog) {
	a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: tools})
	log := &eventLog{}
	a.Subscribe(log.listen)
	return a, log
}

func lastAssistant(t *testing.T, a *agentcore.Agent) *agentcore.AssistantMessage {
	t.Helper()
	msgs := a.Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		if m, ok := msgs[i].(*agentcore.AssistantMessage); ok {
			return m
		}
	}
	require.FailNow(t, "no assistant message")
	return nil
}

func TestQueueDraining(t *testing.T) {
	tests := []struct {
		name           string
		mode           agentcore.QueueMode
		steer, follow  []string
		wantRequests   int
		wantUserPerReq []int // user messages new in each request
	}{
		{name: "one at a time", mode: agentcore.QueueModeOneAtATime, steer: []string{"s1", "s2"}, follow: []string{"f1"}, wantRequests: 3, wantUserPerReq: []int{2, 1, 1}},
		{name: "all", mode: agentcore.QueueModeAll, steer: []string{"s1", "s2"}, follow: []string{"f1", "f2"}, wantRequests: 2, wantUserPerReq: []int{3, 2}},
		{name: "nothing queued", mode: agentcore.QueueModeAll, wantRequests: 1, wantUserPerReq: []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := agentcoretest.NewFunc(func(context.Context, agentcoretest.Call) agentcoretest.Response {
				return agentcoretest.TextResponse("ok")
			})
			a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, SteeringMode: tt.mode, FollowUpMode: tt.mode})
			for _, s := range tt.steer {
				a.Steer(agentcore.UserText(s))
			}
			for _, f := range tt.follow {
				a.FollowUp(agentcore.UserText(f))
			}
			require.NoError(t, a.Prompt(context.Background(), "go"))
			calls := fake.Calls()
			require.Equal(t, tt.wantRequests, len(calls), "requests")
			prev := 0
			for i, c := range calls {
				users := 0
				for _, m := range c.Request.Messages {
					if m.Role() == "user" {
						users++
					}
				}
				assert.Equal(t, tt.wantUserPerReq[i], users-prev, "new user messages in request %d", i+1)
				prev = users
			}
			assert.False(t, a.HasQueued(), "queues not drained")
		})
	}
}

func TestHookOrder(t *testing.T) {
	var mu sync.Mutex
	var order []string
	note := func(s string) {
		mu.Lock()
		order = append(order, s)
		mu.Unlock()
	}
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "echo", map[string]int{"n": 1})),
		agentcoretest.TextResponse("done"),
	)
	a := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{echoTool("echo", 0)},
		Hooks: agentcore.Hooks{
			PrepareNextTurn: func(context.Context, agentcore.TurnContext) (*agentcore.TurnUpdate, error) {
				note("prepareNextTurn")
				return nil, nil
			},
			PrepareRequest: func(context.Context, agentcore.RequestContext) (*agentcore.RequestUpdate, error) {
				note("prepareRequest")
				return nil, nil
			},
			TransformContext: func(_ context.Context, m []agentcore.Message) ([]agentcore.Message, error) {
				note("transformContext")
				return m, nil
			},
			ConvertToLLM: func(ctx context.Context, m []agentcore.Message) ([]agentcore.Message, error) {
				note("convertToLLM")
				return agentcore.DefaultConvertToLLM(ctx, m)
			},
			GetAPIKey: func(context.Context, string) (string, error) { note("getAPIKey"); return "k", nil },
			BeforeToolCall: func(context.Context, agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
				note("beforeToolCall")
				return nil, nil
			},
			AfterToolCall: func(context.Context, agentcore.AfterToolCallContext) (*agentcore.AfterToolCallResult, error) {
				note("afterToolCall")
				return nil, nil
			},
			FinishTurn: func(context.Context, agentcore.TurnContext) (agentcore.TurnDecision, error) {
				note("finishTurn")
				return agentcore.TurnDefault, nil
			},
		},
	})
	a.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		switch ev.(type) {
		case *agentcore.TurnStartEvent, *agentcore.TurnEndEvent:
			note(ev.Type())
		}
	})
	require.NoError(t, a.Prompt(context.Background(), "go"))
	want := "turn_start prepareRequest transformContext convertToLLM getAPIKey beforeToolCall afterToolCall finishTurn turn_end " +
		"prepareNextTurn turn_start prepareRequest transformContext convertToLLM getAPIKey finishTurn turn_end"
	assert.Equal(t, want, strings.Join(order, " "), "order")
}

// TestAbortStages aborts at each stage of a turn: the run ends, the
// transcript records how, and nothing is left running.
func TestAbortStages(t *testing.T) {
	tests := []struct {
		name       string
		hang       bool
		before     bool
		executing  bool
		after      bool
		wantResult string // text of the tool result, "" when none
		wantStop   agentcore.StopReason
	}{
		{name: "while streaming", hang: true, wantStop: agentcore.StopAborted},
		{name: "in beforeToolCall", before: true, wantResult: "Operation aborted", wantStop: agentcore.StopAborted},
		{name: "while executing", executing: true, wantResult: "context canceled", wantStop: agentcore.StopAborted},
		{name: "in afterToolCall", after: true, wantResult: "{}", wantStop: agentcore.StopAborted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a *agentcore.Agent
			first := agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "slow", nil))
			if tt.hang {
				first = agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "thinking..."}}, Hang: true}
			}
			fake := agentcoretest.New(first, agentcoretest.TextResponse("unreached"))
			slow := agentcore.Tool{Name: "slow", Execute: func(ctx context.Context, _ string, args json.RawMessage, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
				if tt.executing {
					a.Abort()
					<-ctx.Done()
					return agentcore.ToolResult{}, ctx.Err()
				}
				return agentcore.TextResult(string(args)), nil
			}}
			a = agentcore.New(agentcore.Options{
				Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{slow},
				Hooks: agentcore.Hooks{
					BeforeToolCall: func(context.Context, agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
						if tt.before {
							a.Abort()
						}
						return nil, nil
					},
					AfterToolCall: func(context.Context, agentcore.AfterToolCallContext) (*agentcore.AfterToolCallResult, error) {
						if tt.after {
							a.Abort()
						}
						return nil, nil
					},
				},
			})
			a.FollowUp(agentcore.UserText("kept"))
			if tt.hang {
				a.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
					if u, ok := ev.(*agentcore.MessageUpdateEvent); ok && u.AssistantEvent.Type() == "text_end" {
						a.Abort()
					}
				})
			}
			err := a.Prompt(context.Background(), "go")
			assert.ErrorIs(t, err, context.Canceled, "Prompt: want an abort")
			assert.Equal(t, tt.wantStop, lastAssistant(t, a).StopReason, "last stop reason")
			var result string
			for _, m := range a.Messages() {
				if r, ok := m.(*agentcore.ToolResultMessage); ok {
					result = agentcore.Blocks(r.Content...).Text()
				}
			}
			assert.Equal(t, tt.wantResult, result, "tool result")
			st := a.State()
			assert.False(t, st.IsStreaming, "state after abort: streaming")
			assert.Empty(t, st.PendingToolCalls, "state after abort: pending tool calls")
			assert.True(t, a.HasQueued(), "state after abort: the follow-up is no longer queued")
			assert.Equal(t, agentcoretest.AbortedText, st.ErrorMessage, "error message")
		})
	}
}

// TestBusy checks that Prompt, Continue and Reset refuse to run while a
// run is streaming, and change nothing. The bubble tells when the run is
// blocked on the model.
func TestBusy(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		fake := agentcoretest.NewFunc(func(ctx context.Context, _ agentcoretest.Call) agentcoretest.Response {
			<-release
			return agentcoretest.TextResponse("ok")
		})
		a, _ := newAgent(fake)
		a.FollowUp(agentcore.UserText("queued"))
		done := make(chan error, 1)
		go func() { done <- a.Prompt(t.Context(), "first") }()
		synctest.Wait()
		require.True(t, a.IsStreaming(), "the run waits for the model")
		before := len(a.Messages())
		for name, call := range map[string]func() error{
			"prompt":   func() error { return a.Prompt(t.Context(), "second") },
			"continue": func() error { return a.Continue(t.Context()) },
			"reset":    a.Reset,
		} {
			assert.ErrorIs(t, call(), agentcore.ErrBusy, "%s during a run", name)
		}
		assert.Equal(t, before, len(a.Messages()), "a refused call changed the transcript")
		assert.True(t, a.HasQueued(), "a refused call changed the queue")
		close(release)
		require.NoError(t, <-done)
		require.NoError(t, a.WaitForIdle(t.Context()))
	})
}

func TestContinueRules(t *testing.T) {
	ctx := context.Background()
	fake := agentcoretest.NewFunc(func(context.Context, agentcoretest.Call) agentcoretest.Response {
		return agentcoretest.TextResponse("ok")
	})
	a, _ := newAgent(fake)
	assert.ErrorIs(t, a.Continue(ctx), agentcore.ErrNoMessages, "empty")
	a.SetMessages([]agentcore.Message{&agentcore.SystemMessage{Content: agentcore.Text("only system")}})
	assert.ErrorIs(t, a.Continue(ctx), agentcore.ErrNoMessages, "only system")
	require.NoError(t, a.Prompt(ctx, "hi"))
	assert.ErrorIs(t, a.Continue(ctx), agentcore.ErrContinueFromAssistant, "assistant tail")
	a.Steer(agentcore.UserText("steer"))
	require.NoError(t, a.Continue(ctx), "assistant tail with steering")
	a.FollowUp(agentcore.UserText("follow"))
	require.NoError(t, a.Continue(ctx), "assistant tail with follow-up")
	a.AppendMessage(agentcore.UserText("retry me"))
	require.NoError(t, a.Continue(ctx), "user tail")
	assert.Equal(t, 4, fake.CallCount(), "requests")
}

// TestHookFailure: a failing hook ends the run with the minimal failure
// sequence; what was already in the transcript stays.
func TestHookFailure(t *testing.T) {
	for _, panics := range []bool{false, true} {
		t.Run(fmt.Sprintf("panic=%v", panics), func(t *testing.T) {
			fake := agentcoretest.New(agentcoretest.TextResponse("unreached"))
			a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Hooks: agentcore.Hooks{
				PrepareRequest: func(context.Context, agentcore.RequestContext) (*agentcore.RequestUpdate, error) {
					if panics {
						panic("boom")
					}
					return nil, errors.New("boom")
				},
			}})
			log := &eventLog{}
			a.Subscribe(log.listen)
			var runErr *agentcore.RunError
			err := a.Prompt(context.Background(), "hi")
			if assert.ErrorAs(t, err, &runErr, "Prompt: want the hook's error") {
				assert.EqualError(t, runErr.Err, "boom", "Prompt: want the hook's error")
			}
			want := "agent_start turn_start message_start message_end:user message_start message_end:assistant turn_end agent_end"
			assert.Equal(t, want, log.String(), "events")
			m := lastAssistant(t, a)
			assert.Equal(t, agentcore.StopError, m.StopReason, "failure message %+v", m)
			assert.Equal(t, "boom", m.ErrorMessage, "failure message %+v", m)
			assert.Zero(t, fake.CallCount(), "the model was called")
			assert.False(t, a.IsStreaming(), "the agent is still streaming")
		})
	}
}

func TestToolPanicIsAnErrorResult(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "bad", nil)), agentcoretest.TextResponse("ok"))
	bad := agentcore.Tool{Name: "bad", Execute: func(context.Context, string, json.RawMessage, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		panic("tool bug")
	}}
	a, _ := newAgent(fake, bad)
	require.NoError(t, a.Prompt(context.Background(), "go"))
	r := a.Messages()[len(a.Messages())-2].(*agentcore.ToolResultMessage)
	assert.True(t, r.IsError, "result %+v", r)
	assert.Equal(t, "tool bug", agentcore.Blocks(r.Content...).Text(), "result %+v", r)
}

// TestParallelOrdering checks that a parallel batch's end events come as
// the calls end (the slow call sleeps a virtual minute), and the results in
// call order.
func TestParallelOrdering(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fake := agentcoretest.New(agentcoretest.ToolCallResponse(
			agentcoretest.ToolCall("slow", "slow", nil), agentcoretest.ToolCall("fast", "fast", nil),
		), agentcoretest.TextResponse("ok"))
		a, log := newAgent(fake, echoTool("slow", time.Minute), echoTool("fast", 0))
		require.NoError(t, a.Prompt(t.Context(), "go"))
		assert.Contains(t, log.String(), "tool_execution_start:slow tool_execution_start:fast tool_execution_end:fast tool_execution_end:slow")
		var ids []string
		for _, m := range a.Messages() {
			if r, ok := m.(*agentcore.ToolResultMessage); ok {
				ids = append(ids, r.ToolCallID)
			}
		}
		assert.Equal(t, []string{"slow", "fast"}, ids, "results in call order")
	})
}

// TestConcurrentUse hammers an Agent from many goroutines; run with -race.
// The streams and tools take virtual milliseconds.
func TestConcurrentUse(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fake := agentcoretest.NewFunc(func(ctx context.Context, c agentcoretest.Call) agentcoretest.Response {
			if c.Index%3 == 0 {
				return agentcoretest.ToolCallResponse(agentcoretest.ToolCall(fmt.Sprint("c", c.Index), "echo", nil))
			}
			return agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "some streamed text"}}, Chunks: 4, ChunkDelay: time.Millisecond}
		})
		a, _ := newAgent(fake, echoTool("echo", time.Millisecond))
		ctx := t.Context()
		// Each use's error, when it can fail, is one of the expected ones.
		uses := []func() error{
			func() error { return a.Prompt(ctx, "p") },
			func() error { a.Steer(agentcore.UserText("s")); return nil },
			func() error { a.FollowUp(agentcore.UserText("f")); return nil },
			func() error { a.Abort(); return nil },
			func() error { _, _ = a.State(), a.PeekQueued(); return nil },
			func() error { return a.Continue(ctx) },
		}
		expected := []error{agentcore.ErrBusy, context.Canceled, agentcore.ErrContinueFromAssistant, agentcore.ErrNoMessages}
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Go(func() {
				for i := range 25 {
					err := uses[(g+i)%len(uses)]()
					if err != nil && !slices.ContainsFunc(expected, func(e error) bool { return errors.Is(err, e) }) {
						assert.NoError(t, err)
					}
				}
			})
		}
		wg.Wait()
		require.NoError(t, a.WaitForIdle(ctx))
		assert.False(t, a.IsStreaming(), "still streaming")
	})
}

func TestResetKeepsBaseline(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.TextResponse("ok"))
	a := agentcore.New(agentcore.Options{SystemPrompt: "Base.", Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{echoTool("echo", 0)}})
	require.NoError(t, a.Prompt(context.Background(), "hi"))
	a.Steer(agentcore.UserText("x"))
	require.NoError(t, a.Reset())
	st := a.State()
	assert.Len(t, st.Messages, 1, "after reset: messages")
	assert.Equal(t, "Base.", st.SystemPrompt, "after reset: prompt")
	assert.False(t, a.HasQueued(), "after reset: queued")
	tools := agentcore.CurrentTools(st.Messages)
	require.Len(t, tools, 1, "baseline tools")
	assert.Equal(t, "echo", tools[0].Name, "baseline tools %v", tools)
}

// TestWaitForIdleContext checks that WaitForIdle gives up when its ctx
// ends, and returns once the run it waits for is aborted.
func TestWaitForIdleContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fake := agentcoretest.New(agentcoretest.Response{Hang: true})
		a, _ := newAgent(fake)
		done := make(chan error, 1)
		go func() { done <- a.Prompt(t.Context(), "hang") }()
		synctest.Wait()
		require.True(t, a.IsStreaming(), "the response hangs")
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Millisecond)
		defer cancel()
		require.ErrorIs(t, a.WaitForIdle(ctx), context.DeadlineExceeded)
		a.Abort()
		require.NoError(t, a.WaitForIdle(t.Context()))
		require.ErrorIs(t, <-done, context.Canceled, "the aborted prompt")
	})
}

func TestNilContext(t *testing.T) {
	a, _ := newAgent(agentcoretest.New(agentcoretest.TextResponse("x")))
	//lint:ignore SA1012 the nil context is the point of the test
	var nilCtx context.Context
	for name, err := range map[string]error{
		"Prompt":      a.Prompt(nilCtx, "hi"),
		"Continue":    a.Continue(nilCtx),
		"WaitForIdle": a.WaitForIdle(nilCtx),
	} {
		t.Run(name, func(t *testing.T) {
			assert.ErrorIs(t, err, agentcore.ErrNilContext, "%s(nil)", name)
		})
	}
	t.Run("RunLoop", func(t *testing.T) {
		_, err := agentcore.RunLoop(nilCtx, nil, agentcore.AgentContext{}, agentcore.LoopConfig{StreamFn: agentcoretest.New().Stream})
		assert.ErrorIs(t, err, agentcore.ErrNilContext, "RunLoop(nil)")
	})
	t.Run("RunToolCall", func(t *testing.T) {
		out := agentcore.RunToolCall(nilCtx, agentcore.ToolCall{Name: "x"}, agentcore.RunToolCallOptions{})
		assert.True(t, out.IsError, "RunToolCall(nil) did not fail")
	})
	assert.Empty(t, a.Messages(), "a refused call changed the transcript")
}

func TestClearQueue(t *testing.T) {
	tests := []struct {
		name                   string
		q                      agentcore.Queue
		steering, followUpLeft bool
	}{
		{"steering", agentcore.SteeringQueue, false, true},
		{"follow-up", agentcore.FollowUpQueue, true, false},
		{"all", agentcore.AllQueues, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := agentcore.New(agentcore.Options{SteeringMode: agentcore.QueueModeAll, FollowUpMode: agentcore.QueueModeAll})
			a.Steer(agentcore.UserText("s"))
			a.FollowUp(agentcore.UserText("f"))
			a.ClearQueue(tt.q)
			var left []string
			for _, m := range a.PeekQueued() {
				left = append(left, m.(*agentcore.UserMessage).Text())
			}
			var want []string
			if tt.steering {
				want = append(want, "s")
			}
			if tt.followUpLeft {
				want = append(want, "f")
			}
			assert.Equal(t, want, left)
		})
	}
}
