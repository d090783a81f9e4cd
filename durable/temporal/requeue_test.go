package temporal_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// errCompaction is the error of a PrepareNextTurn that fails.
var errCompaction = errors.New("compaction failed")

// failPrompt is the prompt whose turns fail in [failCompaction].
const failPrompt = "compact and fail"

// failCompaction is a PrepareNextTurn that fails while the context's last
// user message is [failPrompt]: a deterministic function of its arguments,
// as a session's hooks must be, which no other test's transcript triggers.
func failCompaction(_ context.Context, t agentcore.TurnContext) (*agentcore.TurnUpdate, error) {
	for _, m := range slices.Backward(t.Context.Messages) {
		if u, ok := m.(*agentcore.UserMessage); ok {
			if u.Text() == failPrompt {
				return nil, errCompaction
			}
			break
		}
	}
	return nil, nil
}

// queued are the texts of the messages queued in a session.
type queued struct {
	Steering, FollowUp []string
}

func texts(msgs []agentcore.Message) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, m.(*agentcore.UserMessage).Text())
	}
	return out
}

// TestFailedRunRequeuesLikeAgent fails a run in PrepareNextTurn after it
// took steering or follow-up messages from the queue and before it
// delivered them, then runs again: a session puts them back at the front
// of their queue, as the Agent does, and the next run delivers them in
// order. Transcripts, errors and queues are compared after each run.
func TestFailedRunRequeuesLikeAgent(t *testing.T) {
	tests := []struct {
		name      string
		mode      agentcore.QueueMode
		steer     []string // steered while the first run's tool runs
		followUp  []string // queued before the first run
		responses []agentcoretest.Response
		wantAfter queued // the session's queues after the failed run
	}{
		{
			name: "steering, one at a time", mode: agentcore.QueueModeOneAtATime, steer: []string{"s1", "s2"},
			responses: []agentcoretest.Response{agentcoretest.ToolCallResponse(echoCall("c1", "a")), agentcoretest.TextResponse("after s1"), agentcoretest.TextResponse("after s2")},
			wantAfter: queued{Steering: []string{"s1", "s2"}},
		},
		{
			name: "steering, all", mode: agentcore.QueueModeAll, steer: []string{"s1", "s2"},
			responses: []agentcoretest.Response{agentcoretest.ToolCallResponse(echoCall("c1", "a")), agentcoretest.TextResponse("after both")},
			wantAfter: queued{Steering: []string{"s1", "s2"}},
		},
		{
			name: "follow-up, one at a time", mode: agentcore.QueueModeOneAtATime, followUp: []string{"f1", "f2"},
			responses: []agentcoretest.Response{agentcoretest.TextResponse("first"), agentcoretest.TextResponse("after retry"), agentcoretest.TextResponse("after f1"), agentcoretest.TextResponse("after f2")},
			wantAfter: queued{FollowUp: []string{"f1", "f2"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := testCtx(t)
			var steer func(m agentcore.Message)
			tool := echoTool(agentcore.ReplayNever, func(_ context.Context, text string) (string, error) {
				for _, m := range tt.steer {
					steer(agentcore.UserText(m))
				}
				return text, nil
			})
			o := agentcore.Options{SystemPrompt: "sys", Model: agentcoretest.Model(), Tools: []agentcore.Tool{tool},
				SteeringMode: tt.mode, FollowUpMode: tt.mode, Hooks: agentcore.Hooks{PrepareNextTurn: failCompaction}}

			ao := o
			ao.StreamFn = agentcoretest.New(tt.responses...).Stream
			a := agentcore.New(ao)
			s := startSession(t, durableOptions(o, agentcoretest.New(tt.responses...).Stream))
			for _, m := range tt.followUp {
				a.FollowUp(agentcore.UserText(m))
				require.NoError(t, s.FollowUp(ctx, agentcore.UserText(m)))
			}

			// The failed run.
			steer = a.Steer
			aerr := a.Prompt(ctx, failPrompt)
			steer = func(m agentcore.Message) { assert.NoError(t, s.Steer(ctx, m)) }
			serr := s.Prompt(ctx, failPrompt)
			require.ErrorIs(t, aerr, errCompaction)
			require.Error(t, serr)
			assert.Equal(t, aerr.Error(), serr.Error())
			st, err := s.State(ctx)
			require.NoError(t, err)
			assert.Equal(t, normalize(t, a.Messages()), normalize(t, st.Messages))
			assert.Equal(t, tt.wantAfter, queued{Steering: texts(st.Steering), FollowUp: texts(st.FollowUp)}, "the session's queues")
			assert.Equal(t, normalize(t, a.PeekQueued()), normalize(t, peek(st)), "what the next drain point takes")

			// The next run delivers them.
			require.NoError(t, a.Prompt(ctx, "retry"))
			require.NoError(t, s.Prompt(ctx, "retry"))
			st, err = s.State(ctx)
			require.NoError(t, err)
			assert.Equal(t, normalize(t, a.Messages()), normalize(t, st.Messages))
			assert.False(t, a.HasQueued())
			assert.Empty(t, st.Steering)
			assert.Empty(t, st.FollowUp)
			for _, m := range slices.Concat(tt.steer, tt.followUp) {
				assert.True(t, slices.ContainsFunc(st.Messages, func(msg agentcore.Message) bool {
					u, ok := msg.(*agentcore.UserMessage)
					return ok && u.Text() == m
				}), "%s delivered", m)
			}
			assertOneResultPerCall(t, st.Messages)
		})
	}
}
