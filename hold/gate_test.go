package hold_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/hold"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHoldAmongParallelCalls holds the production deploy of a batch of
// three: the reads run, the run ends held with a placeholder, then an
// approval runs the deploy and the model sees every result.
func TestHoldAmongParallelCalls(t *testing.T) {
	f := newFixture(t, hold.Options{Policy: deployPolicy}, nil,
		agentcoretest.ToolCallResponse(read("c1", "a.txt"), deploy("c2", "production"), read("c3", "b.txt")),
		agentcoretest.TextResponse("deployed"),
	)
	err := f.agent.Prompt(t.Context(), "ship it")
	var held *hold.HeldError
	require.ErrorAs(t, err, &held)
	assert.ErrorIs(t, err, hold.ErrHeld)
	require.Len(t, held.Calls, 1)
	c := held.Calls[0]
	assert.Equal(t, "c2", c.ID)
	assert.Equal(t, "deploy", c.Tool)
	assert.JSONEq(t, `{"env":"production"}`, string(c.Arguments))
	assert.Equal(t, "Deploy to production?", c.Title)
	assert.Equal(t, []string{"prod"}, c.Touches)
	assert.Nil(t, c.Decision)

	assert.ElementsMatch(t, []string{"read a.txt", "read b.txt"}, f.ran.list(), "the other calls of the batch run")
	assert.Equal(t, 1, f.fake.CallCount(), "the run ends after the held turn")
	st := f.agent.State()
	assert.Empty(t, st.ErrorMessage, "a held run is no failure")
	assert.False(t, st.IsStreaming)
	placeholder := result(t, st.Messages, "c2")
	assert.True(t, placeholder.IsError)
	assert.Equal(t, hold.DefaultPlaceholder, placeholder.Text())
	require.Len(t, f.eventList(), 1)
	assert.Equal(t, "c2", f.eventList()[0].(*hold.HeldEvent).Call.ID)
	assert.Equal(t, []hold.Call{c}, f.gate.State().Calls)

	require.NoError(t, f.gate.Decide(hold.Approve{ID: "c2"}))
	require.NoError(t, f.agent.Continue(t.Context()))
	assert.Equal(t, []string{"read a.txt", "read b.txt", "deploy production"}, sortedReads(f.ran.list()))
	req := lastRequest(t, f.fake)
	r := result(t, req, "c2")
	assert.False(t, r.IsError)
	assert.Equal(t, "deployed to production", r.Text())
	assert.Equal(t, "contents of a.txt", result(t, req, "c1").Text())
	assert.Empty(t, f.gate.State().Calls)
	evs := f.eventList()
	require.Len(t, evs, 3)
	assert.IsType(t, &hold.DecidedEvent{}, evs[1])
	resolved := evs[2].(*hold.ResolvedEvent)
	assert.Equal(t, r, resolved.Result, "the event carries the message now in the transcript")
	assert.Equal(t, "deployed", f.agent.Messages()[len(f.agent.Messages())-1].(*agentcore.AssistantMessage).Text())
}

// sortedReads puts the reads, which ran concurrently, in path order.
func sortedReads(calls []string) []string {
	if len(calls) >= 2 && calls[0] > calls[1] {
		calls[0], calls[1] = calls[1], calls[0]
	}
	return calls
}

// TestDecisions resolves one held call each way and checks what the tool
// did and what the model read.
func TestDecisions(t *testing.T) {
	tests := []struct {
		name     string
		decision hold.Decision
		ran      []string
		text     string
		isError  bool
	}{
		{"approve", hold.Approve{ID: "c1"}, []string{"deploy production"}, "deployed to production", false},
		{"approve with edited arguments", hold.Approve{ID: "c1", Arguments: json.RawMessage(`{"env":"staging"}`)},
			[]string{"deploy staging"}, "deployed to staging\n(The user changed the arguments of this call before approving it; it ran with {\"env\":\"staging\"}.)", false},
		{"deny with a reason", hold.Deny{ID: "c1", Reason: "Not on a Friday."}, nil, "Not on a Friday.", true},
		{"deny", hold.Deny{ID: "c1"}, nil, "The user denied this tool call.", true},
		{"answer", hold.Answer{ID: "c1", Result: agentcore.TextResult("deployed by hand")}, nil, "deployed by hand", false},
		{"answer a failure", hold.Answer{ID: "c1", Result: agentcore.ToolResult{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "browser closed"}}, IsError: true}}, nil, "browser closed", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, hold.Options{Policy: deployPolicy}, nil,
				agentcoretest.ToolCallResponse(deploy("c1", "production")), agentcoretest.TextResponse("ok"))
			require.ErrorIs(t, f.agent.Prompt(t.Context(), "ship it"), hold.ErrHeld)
			require.NoError(t, f.gate.Decide(tt.decision))
			require.NoError(t, f.agent.Continue(t.Context()))
			assert.Equal(t, tt.ran, f.ran.list())
			r := result(t, lastRequest(t, f.fake), "c1")
			assert.Equal(t, tt.text, r.Text())
			assert.Equal(t, tt.isError, r.IsError)
		})
	}
}

// TestBadDecisions checks that every refused Decide names the problem and
// changes nothing: the held call still takes a good decision afterwards.
func TestBadDecisions(t *testing.T) {
	tests := []struct {
		name      string
		before    []hold.Decision // accepted first
		decisions []hold.Decision
		want      []error
	}{
		{"not held", nil, []hold.Decision{hold.Deny{ID: "nope"}}, []error{hold.ErrNotHeld}},
		{"the held call was not held twice", nil, []hold.Decision{hold.Approve{ID: "c1"}, hold.Deny{ID: "c1"}}, []error{hold.ErrDecided}},
		{"second decision", []hold.Decision{hold.Deny{ID: "c2"}}, []hold.Decision{hold.Approve{ID: "c2"}}, []error{hold.ErrDecided}},
		{"nil", nil, []hold.Decision{nil}, []error{hold.ErrInvalidDecision}},
		{"arguments the schema refuses", nil, []hold.Decision{hold.Approve{ID: "c1", Arguments: json.RawMessage(`{"env":"moon"}`)}}, []error{hold.ErrInvalidDecision}},
		{"arguments that are no object", nil, []hold.Decision{hold.Approve{ID: "c1", Arguments: json.RawMessage(`[1]`)}}, []error{hold.ErrInvalidDecision}},
		{"nil block", nil, []hold.Decision{hold.Answer{ID: "c1", Result: agentcore.ToolResult{Content: []agentcore.ContentBlock{(*agentcore.TextBlock)(nil)}}}}, []error{hold.ErrInvalidDecision}},
		{"one bad among good", nil, []hold.Decision{hold.Approve{ID: "c1"}, hold.Deny{ID: "c3"}}, []error{hold.ErrNotHeld}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, hold.Options{Policy: deployPolicy}, nil,
				agentcoretest.ToolCallResponse(deploy("c1", "production"), deploy("c2", "production")), agentcoretest.TextResponse("ok"))
			require.ErrorIs(t, f.agent.Prompt(t.Context(), "ship it"), hold.ErrHeld)
			require.NoError(t, f.gate.Decide(tt.before...))
			before := mustJSON(t, f.gate.State())
			err := f.gate.Decide(tt.decisions...)
			for _, want := range tt.want {
				assert.ErrorIs(t, err, want)
			}
			assert.Equal(t, before, mustJSON(t, f.gate.State()), "a refused Decide changes nothing")

			// Still waiting: Continue and Prompt are refused and change nothing.
			msgs := mustJSON(t, f.agent.Messages())
			assert.ErrorIs(t, f.agent.Continue(t.Context()), hold.ErrHeld)
			assert.ErrorIs(t, f.agent.Prompt(t.Context(), "and?"), hold.ErrHeld)
			assert.Equal(t, msgs, mustJSON(t, f.agent.Messages()))
			assert.Equal(t, 1, f.fake.CallCount())

			var rest []hold.Decision
			for _, c := range f.gate.State().Undecided() {
				rest = append(rest, hold.Deny{ID: c.ID})
			}
			require.NoError(t, f.gate.Decide(rest...))
			require.NoError(t, f.agent.Continue(t.Context()))
			assert.Empty(t, f.ran.list())
		})
	}
}

// TestSteeringWhileWaiting queues steering and a follow-up while a call is
// held: both are kept, the steering reaches the model with the resumed
// run's first request, the follow-up after it.
func TestSteeringWhileWaiting(t *testing.T) {
	f := newFixture(t, hold.Options{Policy: deployPolicy}, nil,
		agentcoretest.ToolCallResponse(deploy("c1", "production")),
		agentcoretest.TextResponse("deployed, and I will write the notes"),
		agentcoretest.TextResponse("notes written"),
	)
	require.ErrorIs(t, f.agent.Prompt(t.Context(), "ship it"), hold.ErrHeld)
	f.agent.Steer(agentcore.UserText("mention it in the changelog"))
	f.agent.FollowUp(agentcore.UserText("then write release notes"))
	queued := f.agent.PeekQueued()
	assert.ErrorIs(t, f.agent.Continue(t.Context()), hold.ErrHeld)
	assert.Equal(t, queued, f.agent.PeekQueued(), "a refused Continue takes nothing from the queues")

	require.NoError(t, f.gate.Decide(hold.Approve{ID: "c1"}))
	require.NoError(t, f.agent.Continue(t.Context()))
	calls := f.fake.Calls()
	require.Len(t, calls, 3)
	second := calls[1].Request.Messages
	assert.Equal(t, "mention it in the changelog", second[len(second)-1].(*agentcore.UserMessage).Text())
	assert.Equal(t, "deployed to production", result(t, second, "c1").Text())
	third := calls[2].Request.Messages
	assert.Equal(t, "then write release notes", third[len(third)-1].(*agentcore.UserMessage).Text())
	assert.Empty(t, f.agent.PeekQueued())
}

// TestDecidedDuringTheRun decides from the HeldEvent: the same run goes on.
func TestDecidedDuringTheRun(t *testing.T) {
	var gate *hold.Gate
	f := newFixture(t, hold.Options{Policy: deployPolicy, OnEvent: func(ev hold.Event) {
		if h, ok := ev.(*hold.HeldEvent); ok {
			_ = gate.Decide(hold.Approve{ID: h.Call.ID})
		}
	}}, nil, agentcoretest.ToolCallResponse(deploy("c1", "production")), agentcoretest.TextResponse("done"))
	gate = f.gate
	require.NoError(t, f.agent.Prompt(t.Context(), "ship it"))
	assert.Equal(t, []string{"deploy production"}, f.ran.list())
	assert.Equal(t, 2, f.fake.CallCount())
}

// TestPromptAfterDecisions resolves the decided calls before a new prompt.
func TestPromptAfterDecisions(t *testing.T) {
	f := newFixture(t, hold.Options{Policy: deployPolicy}, nil,
		agentcoretest.ToolCallResponse(deploy("c1", "production")), agentcoretest.TextResponse("ok"))
	require.ErrorIs(t, f.agent.Prompt(t.Context(), "ship it"), hold.ErrHeld)
	require.NoError(t, f.gate.Decide(hold.Deny{ID: "c1", Reason: "later"}))
	require.NoError(t, f.agent.Prompt(t.Context(), "something else"))
	req := lastRequest(t, f.fake)
	assert.Equal(t, "later", result(t, req, "c1").Text())
	assert.Equal(t, "something else", req[len(req)-1].(*agentcore.UserMessage).Text())
}

// TestResetDiscards drops what is held once the transcript lost it.
func TestResetDiscards(t *testing.T) {
	f := newFixture(t, hold.Options{Policy: deployPolicy}, nil,
		agentcoretest.ToolCallResponse(deploy("c1", "production")), agentcoretest.TextResponse("hi"))
	require.ErrorIs(t, f.agent.Prompt(t.Context(), "ship it"), hold.ErrHeld)
	require.NoError(t, f.agent.Reset())
	require.NoError(t, f.agent.Prompt(t.Context(), "hello"))
	assert.Empty(t, f.gate.State().Calls)
	evs := f.eventList()
	assert.IsType(t, &hold.DiscardedEvent{}, evs[len(evs)-1])
}

// TestNothingHeld compares the events of an Agent whose Gate holds nothing
// with those of one without a Gate: the same.
func TestNothingHeld(t *testing.T) {
	script := func() *agentcoretest.Fake {
		return agentcoretest.New(
			agentcoretest.ToolCallResponse(read("c1", "a.txt"), deploy("c2", "staging")),
			agentcoretest.TextResponse("done"))
	}
	record := func(layers []agentcore.Layer) []string {
		fake := script()
		agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: tools(&ran{}),
			ToolExecution: agentcore.ToolsSequential, Layers: layers})
		var out []string
		agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
			data, err := json.Marshal(ev)
			require.NoError(t, err)
			out = append(out, string(stripTimes(data)))
		})
		require.NoError(t, agent.Prompt(t.Context(), "stage it"))
		return out
	}
	assert.Equal(t, record(nil), record([]agentcore.Layer{hold.New(hold.Options{Policy: deployPolicy})}))
}

// TestAbortedBeforeHold keeps nothing held when an abort failed the call.
func TestAbortedBeforeHold(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	f := newFixture(t, hold.Options{Policy: func(context.Context, agentcore.BeforeToolCallContext) (*hold.Request, error) {
		cancel()
		return &hold.Request{}, nil
	}}, nil, agentcoretest.ToolCallResponse(deploy("c1", "production")))
	err := f.agent.Prompt(ctx, "ship it")
	assert.False(t, errors.Is(err, hold.ErrHeld), "an aborted call is not held: %v", err)
	assert.Empty(t, f.gate.State().Calls)
	assert.Equal(t, "Operation aborted", result(t, f.agent.Messages(), "c1").Text())
}

// TestHolds tells which calls the Gate holds: from the placeholder's
// message_end, through the wait, until the result replaces it.
func TestHolds(t *testing.T) {
	f := newFixture(t, hold.Options{Policy: deployPolicy}, nil,
		agentcoretest.ToolCallResponse(deploy("c1", "production"), read("c2", "a.txt")), agentcoretest.TextResponse("ok"))
	atEnd := map[string]bool{}
	f.agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		if e, ok := ev.(*agentcore.MessageEndEvent); ok {
			if r, ok := e.Message.(*agentcore.ToolResultMessage); ok {
				atEnd[r.ToolCallID] = f.gate.Holds(r.ToolCallID)
			}
		}
	})
	require.ErrorIs(t, f.agent.Prompt(t.Context(), "ship it"), hold.ErrHeld)
	assert.Equal(t, map[string]bool{"c1": true, "c2": false}, atEnd, "at the results' message_end")
	assert.True(t, f.gate.Holds("c1"))
	require.NoError(t, f.gate.Decide(hold.Approve{ID: "c1"}))
	assert.True(t, f.gate.Holds("c1"), "decided, not yet resolved")
	require.NoError(t, f.agent.Continue(t.Context()))
	assert.False(t, f.gate.Holds("c1"))
}

// TestApprovedCallPassesEveryHook runs an approved call through the hooks
// of the layers after the Gate and the program's, as any call: they see
// it, and their overrides apply to its result.
func TestApprovedCallPassesEveryHook(t *testing.T) {
	var seen []string
	audit := agentcore.LayerFunc(func(s *agentcore.Setup) {
		s.AddHooks(agentcore.Hooks{
			BeforeToolCall: func(_ context.Context, c agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
				seen = append(seen, "audit before "+c.ToolCall.ID)
				return nil, nil
			},
		})
	})
	r := &ran{}
	gate := hold.New(hold.Options{Policy: deployPolicy})
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(deploy("c1", "production")), agentcoretest.TextResponse("ok"))
	agent := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: tools(r),
		Layers: []agentcore.Layer{gate, audit},
		Hooks: agentcore.Hooks{AfterToolCall: func(_ context.Context, c agentcore.AfterToolCallContext) (*agentcore.AfterToolCallResult, error) {
			seen = append(seen, "program after "+c.ToolCall.ID)
			return &agentcore.AfterToolCallResult{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: c.Result.Text() + " (checked)"}}}, nil
		}},
	})
	require.ErrorIs(t, agent.Prompt(t.Context(), "ship it"), hold.ErrHeld)
	assert.Empty(t, seen, "a held call stops at the Gate")
	require.NoError(t, gate.Decide(hold.Approve{ID: "c1"}))
	require.NoError(t, agent.Continue(t.Context()))
	assert.Equal(t, []string{"audit before c1", "program after c1"}, seen)
	assert.Equal(t, "deployed to production (checked)", result(t, lastRequest(t, fake), "c1").Text())
}
