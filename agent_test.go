package agentcore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	t.Fatal("no assistant message")
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
		{name: "one at a time", mode: agentcore.QueueOneAtATime, steer: []string{"s1", "s2"}, follow: []string{"f1"}, wantRequests: 3, wantUserPerReq: []int{2, 1, 1}},
		{name: "all", mode: agentcore.QueueAll, steer: []string{"s1", "s2"}, follow: []string{"f1", "f2"}, wantRequests: 2, wantUserPerReq: []int{3, 2}},
		{name: "nothing queued", mode: agentcore.QueueAll, wantRequests: 1, wantUserPerReq: []int{1}},
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
			if err := a.Prompt(context.Background(), "go"); err != nil {
				t.Fatal(err)
			}
			calls := fake.Calls()
			if len(calls) != tt.wantRequests {
				t.Fatalf("%d requests, want %d", len(calls), tt.wantRequests)
			}
			prev := 0
			for i, c := range calls {
				users := 0
				for _, m := range c.Request.Messages {
					if m.Role() == "user" {
						users++
					}
				}
				if users-prev != tt.wantUserPerReq[i] {
					t.Fatalf("request %d has %d new user messages, want %d", i+1, users-prev, tt.wantUserPerReq[i])
				}
				prev = users
			}
			if a.HasQueued() {
				t.Fatal("queues not drained")
			}
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
	if err := a.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	want := "turn_start prepareRequest transformContext convertToLLM getAPIKey beforeToolCall afterToolCall finishTurn turn_end " +
		"prepareNextTurn turn_start prepareRequest transformContext convertToLLM getAPIKey finishTurn turn_end"
	if got := strings.Join(order, " "); got != want {
		t.Fatalf("order:\n got %s\nwant %s", got, want)
	}
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
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("Prompt returned %v, want an abort", err)
			}
			if got := lastAssistant(t, a).StopReason; got != tt.wantStop {
				t.Fatalf("last stop reason %s, want %s", got, tt.wantStop)
			}
			var result string
			for _, m := range a.Messages() {
				if r, ok := m.(*agentcore.ToolResultMessage); ok {
					result = agentcore.Blocks(r.Content...).Text()
				}
			}
			if result != tt.wantResult {
				t.Fatalf("tool result %q, want %q", result, tt.wantResult)
			}
			st := a.State()
			if st.IsStreaming || len(st.PendingToolCalls) != 0 || !a.HasQueued() {
				t.Fatalf("state after abort: streaming=%v pending=%v queued=%v", st.IsStreaming, st.PendingToolCalls, a.HasQueued())
			}
			if st.ErrorMessage != agentcoretest.AbortedText {
				t.Fatalf("error message %q", st.ErrorMessage)
			}
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
	if err := a.Continue(ctx); !errors.Is(err, agentcore.ErrNoMessages) {
		t.Fatalf("empty: %v", err)
	}
	a.SetMessages([]agentcore.Message{&agentcore.SystemMessage{Content: agentcore.Text("only system")}})
	if err := a.Continue(ctx); !errors.Is(err, agentcore.ErrNoMessages) {
		t.Fatalf("only system: %v", err)
	}
	if err := a.Prompt(ctx, "hi"); err != nil {
		t.Fatal(err)
	}
	if err := a.Continue(ctx); !errors.Is(err, agentcore.ErrContinueFromAssistant) {
		t.Fatalf("assistant tail: %v", err)
	}
	a.Steer(agentcore.UserText("steer"))
	if err := a.Continue(ctx); err != nil {
		t.Fatalf("assistant tail with steering: %v", err)
	}
	a.FollowUp(agentcore.UserText("follow"))
	if err := a.Continue(ctx); err != nil {
		t.Fatalf("assistant tail with follow-up: %v", err)
	}
	a.AppendMessage(agentcore.UserText("retry me"))
	if err := a.Continue(ctx); err != nil {
		t.Fatalf("user tail: %v", err)
	}
	if got := fake.CallCount(); got != 4 {
		t.Fatalf("%d requests, want 4", got)
	}
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
			if err := a.Prompt(context.Background(), "hi"); !errors.As(err, &runErr) || runErr.Err.Error() != "boom" {
				t.Fatalf("Prompt returned %v, want the hook's error", err)
			}
			want := "agent_start turn_start message_start message_end:user message_start message_end:assistant turn_end agent_end"
			if got := log.String(); got != want {
				t.Fatalf("events:\n got %s\nwant %s", got, want)
			}
			if m := lastAssistant(t, a); m.StopReason != agentcore.StopError || m.ErrorMessage != "boom" {
				t.Fatalf("failure message %+v", m)
			}
			if fake.CallCount() != 0 || a.IsStreaming() {
				t.Fatal("the model was called or the agent is still streaming")
			}
		})
	}
}

func TestToolPanicIsAnErrorResult(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "bad", nil)), agentcoretest.TextResponse("ok"))
	bad := agentcore.Tool{Name: "bad", Execute: func(context.Context, string, json.RawMessage, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		panic("tool bug")
	}}
	a, _ := newAgent(fake, bad)
	if err := a.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	r := a.Messages()[len(a.Messages())-2].(*agentcore.ToolResultMessage)
	if !r.IsError || agentcore.Blocks(r.Content...).Text() != "tool bug" {
		t.Fatalf("result %+v", r)
	}
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
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Go(func() {
				for i := range 25 {
					switch (g + i) % 6 {
					case 0:
						if err := a.Prompt(ctx, "p"); !errors.Is(err, agentcore.ErrBusy) && !errors.Is(err, context.Canceled) {
							assert.NoError(t, err)
						}
					case 1:
						a.Steer(agentcore.UserText("s"))
					case 2:
						a.FollowUp(agentcore.UserText("f"))
					case 3:
						a.Abort()
					case 4:
						_ = a.State()
						_ = a.PeekQueued()
					case 5:
						err := a.Continue(ctx)
						if !errors.Is(err, agentcore.ErrBusy) && !errors.Is(err, context.Canceled) &&
							!errors.Is(err, agentcore.ErrContinueFromAssistant) && !errors.Is(err, agentcore.ErrNoMessages) {
							assert.NoError(t, err)
						}
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
	if err := a.Prompt(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	a.Steer(agentcore.UserText("x"))
	if err := a.Reset(); err != nil {
		t.Fatal(err)
	}
	st := a.State()
	if len(st.Messages) != 1 || st.SystemPrompt != "Base." || a.HasQueued() {
		t.Fatalf("after reset: %d messages, prompt %q, queued %v", len(st.Messages), st.SystemPrompt, a.HasQueued())
	}
	if tools := agentcore.CurrentTools(st.Messages); len(tools) != 1 || tools[0].Name != "echo" {
		t.Fatalf("baseline tools %v", tools)
	}
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
		if !errors.Is(err, agentcore.ErrNilContext) {
			t.Errorf("%s(nil): %v", name, err)
		}
	}
	if _, err := agentcore.RunLoop(nilCtx, nil, agentcore.AgentContext{}, agentcore.LoopConfig{StreamFn: agentcoretest.New().Stream}); !errors.Is(err, agentcore.ErrNilContext) {
		t.Errorf("RunLoop(nil): %v", err)
	}
	if out := agentcore.RunToolCall(nilCtx, agentcore.ToolCall{Name: "x"}, agentcore.RunToolCallOptions{}); !out.IsError {
		t.Error("RunToolCall(nil) did not fail")
	}
	if len(a.Messages()) != 0 {
		t.Fatal("a refused call changed the transcript")
	}
}
