package agentcore_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// TestFailedRunRequeuesUndeliveredMessages fails a run after the Agent
// took a steering or follow-up message from its queue and before the
// message was delivered (its message_end): the message goes back to the
// front of its queue, as if never taken, instead of being lost. One that
// was delivered is in the transcript and is not queued again.
func TestFailedRunRequeuesUndeliveredMessages(t *testing.T) {
	errCompaction := errors.New("compaction failed")
	queued := agentcore.UserText("queued message")
	later := agentcore.UserText("queued later")
	tests := []struct {
		name       string
		followUp   bool                // queue a follow-up instead of steering
		failPrep   bool                // PrepareNextTurn fails
		panicOn    string              // a listener panics on this event of the queued message
		wantQueued []agentcore.Message // PeekQueued after the run, QueueModeAll mode
		wantInLog  bool                // the queued message is in the transcript
		wantErr    error               // the run's error unwraps to it
	}{
		{name: "steering, PrepareNextTurn fails", failPrep: true, wantQueued: []agentcore.Message{queued, later}, wantErr: errCompaction},
		{name: "follow-up, PrepareNextTurn fails", followUp: true, failPrep: true, wantQueued: []agentcore.Message{queued, later}, wantErr: errCompaction},
		{name: "steering, listener fails on its message_start", panicOn: "message_start", wantQueued: []agentcore.Message{queued, later}},
		{name: "steering, listener fails on its message_end", panicOn: "message_end", wantQueued: []agentcore.Message{later}, wantInLog: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a *agentcore.Agent
			first := agentcoretest.TextResponse("done")
			if !tt.followUp {
				first = agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "work", nil))
			}
			fake := agentcoretest.New(first, agentcoretest.TextResponse("done"))
			work := agentcore.Tool{Name: "work", Execute: func(context.Context, string, json.RawMessage, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
				return agentcore.TextResult("worked"), nil
			}}
			hooks := agentcore.Hooks{}
			if tt.failPrep {
				hooks.PrepareNextTurn = func(context.Context, agentcore.TurnContext) (*agentcore.TurnUpdate, error) {
					// Queued while the message was being delivered: it stays behind it.
					if tt.followUp {
						a.FollowUp(later)
					} else {
						a.Steer(later)
					}
					return nil, errCompaction
				}
			}
			a = agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{work}, Hooks: hooks,
				SteeringMode: agentcore.QueueModeAll, FollowUpMode: agentcore.QueueModeAll})
			a.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
				switch ev := ev.(type) {
				case *agentcore.MessageStartEvent:
					if ev.Message == agentcore.Message(queued) && tt.panicOn == "message_start" {
						a.Steer(later)
						panic("listener fails")
					}
				case *agentcore.MessageEndEvent:
					if ev.Message == agentcore.Message(queued) && tt.panicOn == "message_end" {
						a.Steer(later)
						panic("listener fails")
					}
				case *agentcore.ToolExecutionEndEvent:
					a.Steer(queued)
				}
			})
			if tt.followUp {
				a.FollowUp(queued)
			}
			err := a.Prompt(context.Background(), "go")
			require.Error(t, err)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
			}
			inLog := slices.ContainsFunc(a.Messages(), func(m agentcore.Message) bool { return m == agentcore.Message(queued) })
			assert.Equal(t, tt.wantInLog, inLog, "the queued message in the transcript")
			assert.Equal(t, tt.wantQueued, a.PeekQueued(), "the queue")
		})
	}
}

// TestFailedContinueRequeuesItsPrompts continues from an assistant tail,
// which takes the queued steering as the run's prompts, and fails the run
// before they are delivered: they go back to the queue.
func TestFailedContinueRequeuesItsPrompts(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.TextResponse("hi"), agentcoretest.TextResponse("again"))
	a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, SteeringMode: agentcore.QueueModeAll})
	require.NoError(t, a.Prompt(context.Background(), "hello"))
	steer := []agentcore.Message{agentcore.UserText("one"), agentcore.UserText("two")}
	for _, m := range steer {
		a.Steer(m)
	}
	failing := true
	a.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		if _, ok := ev.(*agentcore.AgentStartEvent); ok && failing {
			failing = false
			panic("listener fails")
		}
	})
	require.Error(t, a.Continue(context.Background()))
	assert.Equal(t, steer, a.PeekQueued(), "the steering taken as prompts")

	require.NoError(t, a.Continue(context.Background()))
	assert.False(t, a.HasQueued())
	msgs := a.Messages()
	assert.Equal(t, []string{"user", "assistant:stop", "assistant:error", "user", "user", "assistant:stop"}, roles(msgs))
}
