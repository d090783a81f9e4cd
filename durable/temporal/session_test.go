package temporal_test

import (
	"context"
	"errors"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	durable "github.com/pi-go/agentcore/durable/temporal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scenario is a scripted session: the same script runs on a plain Agent
// and on a durable session, which must give the same transcript.
type scenario struct {
	name      string
	responses []agentcoretest.Response
	opts      func(o *agentcore.Options)
	steer     []string // queued before the prompt
	followUp  []string // queued before the prompt
}

var scenarios = []scenario{
	{name: "text", responses: []agentcoretest.Response{agentcoretest.TextResponse("hello")}},
	{name: "parallel tools", responses: []agentcoretest.Response{
		agentcoretest.ToolCallResponse(echoCall("c1", "a"), echoCall("c2", "b")),
		agentcoretest.TextResponse("done"),
	}},
	{name: "sequential tools", opts: func(o *agentcore.Options) { o.ToolExecution = agentcore.ToolsSequential }, responses: []agentcoretest.Response{
		agentcoretest.ToolCallResponse(echoCall("c1", "a"), echoCall("c2", "b")),
		agentcoretest.ToolCallResponse(echoCall("c1", "again")),
		agentcoretest.TextResponse("done"),
	}},
	{name: "unknown tool and bad arguments", responses: []agentcoretest.Response{
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "nope", nil), agentcoretest.ToolCall("c2", "echo", map[string]any{"text": 3})),
		agentcoretest.TextResponse("done"),
	}},
	{name: "blocked call", opts: func(o *agentcore.Options) {
		o.BeforeToolCall = func(_ context.Context, c agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
			if c.ToolCall.ID == "c2" {
				return agentcore.Block("not c2"), nil
			}
			return nil, nil
		}
	}, responses: []agentcoretest.Response{
		agentcoretest.ToolCallResponse(echoCall("c1", "a"), echoCall("c2", "b")),
		agentcoretest.TextResponse("done"),
	}},
	{name: "finish turn continues once", opts: func(o *agentcore.Options) {
		o.FinishTurn = func(_ context.Context, t agentcore.TurnContext) (agentcore.TurnDecision, error) {
			if t.Message.Text() == "first" {
				return agentcore.TurnContinue, nil
			}
			return agentcore.TurnDefault, nil
		}
	}, responses: []agentcoretest.Response{agentcoretest.TextResponse("first"), agentcoretest.TextResponse("second")}},
	{name: "steering and follow-up", steer: []string{"steer 1", "steer 2"}, followUp: []string{"later"}, responses: []agentcoretest.Response{
		agentcoretest.ToolCallResponse(echoCall("c1", "a")),
		agentcoretest.TextResponse("after steering"),
		agentcoretest.TextResponse("after second steering"),
		agentcoretest.TextResponse("after follow-up"),
	}},
	{name: "model error", responses: []agentcoretest.Response{agentcoretest.ErrorResponse("overloaded")}},
	{name: "hook failure", opts: func(o *agentcore.Options) {
		o.PrepareRequest = func(context.Context, agentcore.RequestContext) (*agentcore.RequestUpdate, error) {
			return nil, errors.New("hook says no")
		}
	}},
}

// agentOptions are the scenario's options for a plain Agent.
func (sc scenario) agentOptions() agentcore.Options {
	o := agentcore.Options{
		SystemPrompt: "You are terse.", Model: agentcoretest.Model(),
		Tools: []agentcore.Tool{echoTool(agentcore.ReplayNever, nil)},
	}
	if sc.opts != nil {
		sc.opts(&o)
	}
	return o
}

// durableOptions are the same options for a session type.
func durableOptions(o agentcore.Options, fn agentcore.StreamFn) durable.Options {
	return durable.Options{
		Hooks: o.Hooks, SystemPrompt: o.SystemPrompt, Model: o.Model, Tools: o.Tools, StreamFn: fn,
		ToolExecution: o.ToolExecution, SteeringMode: o.SteeringMode, FollowUpMode: o.FollowUpMode,
	}
}

// runAgent runs the scenario on a plain Agent.
func runAgent(t *testing.T, sc scenario) ([]agentcore.Message, error) {
	o := sc.agentOptions()
	o.StreamFn = agentcoretest.New(sc.responses...).Stream
	a := agentcore.New(o)
	for _, s := range sc.steer {
		a.Steer(agentcore.UserText(s))
	}
	for _, s := range sc.followUp {
		a.FollowUp(agentcore.UserText(s))
	}
	err := a.Prompt(context.Background(), "go")
	return a.State().Messages, err
}

func TestSessionMatchesAgent(t *testing.T) {
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			ctx := testCtx(t)
			want, wantErr := runAgent(t, sc)

			s := startSession(t, durableOptions(sc.agentOptions(), agentcoretest.New(sc.responses...).Stream))
			for _, m := range sc.steer {
				require.NoError(t, s.Steer(ctx, agentcore.UserText(m)))
			}
			for _, m := range sc.followUp {
				require.NoError(t, s.FollowUp(ctx, agentcore.UserText(m)))
			}
			err := s.Prompt(ctx, "go")
			if wantErr == nil {
				require.NoError(t, err)
			} else {
				var runErr *agentcore.RunError
				require.ErrorAs(t, err, &runErr)
				assert.Equal(t, wantErr.(*agentcore.RunError).Message.ErrorMessage, runErr.Message.ErrorMessage)
			}
			st, err := s.State(ctx)
			require.NoError(t, err)
			assert.Equal(t, normalize(t, want), normalize(t, st.Messages))
			assert.False(t, st.Running)
			assertOneResultPerCall(t, st.Messages)
		})
	}
}

// assertOneResultPerCall checks that every tool call of the transcript has
// exactly one result, right after its assistant message.
func assertOneResultPerCall(t *testing.T, msgs []agentcore.Message) {
	t.Helper()
	for i, m := range msgs {
		a, ok := m.(*agentcore.AssistantMessage)
		if !ok || a.StopReason.Failed() {
			continue
		}
		calls := a.ToolCalls()
		seen := map[string]int{}
		for _, r := range msgs[i+1:] {
			tr, ok := r.(*agentcore.ToolResultMessage)
			if !ok {
				break
			}
			seen[tr.ToolCallID]++
		}
		for _, c := range calls {
			assert.Equal(t, 1, seen[c.ID], "results of call %s", c.ID)
		}
		assert.Len(t, seen, len(calls))
	}
}
