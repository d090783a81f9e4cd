package agentcore_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// TestNilMessages gives nil messages wherever a message is taken: a prompt
// is refused with ErrNilMessage and changes nothing, a queued or appended
// nil is ignored, a nil a hook returns fails the run with ErrNilMessage,
// and nothing panics or puts a nil in the transcript.
func TestNilMessages(t *testing.T) {
	user := agentcore.UserText("hi")
	ctx := context.Background()
	newAgent := func(opts agentcore.Options) *agentcore.Agent {
		opts.Model = agentcoretest.Model()
		opts.StreamFn = agentcoretest.New(agentcoretest.TextResponse("ok"), agentcoretest.TextResponse("ok")).Stream
		return agentcore.New(opts)
	}
	noNil := func(t *testing.T, msgs []agentcore.Message) {
		t.Helper()
		for i, m := range msgs {
			assert.NotNil(t, m, "message %d", i)
		}
	}

	t.Run("New drops nil messages", func(t *testing.T) {
		a := newAgent(agentcore.Options{SystemPrompt: "Be brief.", Messages: []agentcore.Message{nil, user, nil}})
		assert.Equal(t, "Be brief.", a.State().SystemPrompt)
		assert.Equal(t, []string{"system", "user"}, roles(a.Messages()))
		require.NoError(t, a.Continue(ctx))
	})
	t.Run("SetMessages drops nil messages", func(t *testing.T) {
		a := newAgent(agentcore.Options{})
		a.SetMessages([]agentcore.Message{nil, user, nil})
		assert.Equal(t, []string{"user"}, roles(a.Messages()))
		require.NoError(t, a.Continue(ctx))
		noNil(t, a.Messages())
	})
	t.Run("PromptMessages refuses a nil", func(t *testing.T) {
		a := newAgent(agentcore.Options{})
		err := a.PromptMessages(ctx, user, nil)
		require.ErrorIs(t, err, agentcore.ErrNilMessage)
		var runErr *agentcore.RunError
		assert.False(t, errors.As(err, &runErr), "a refusal is no RunError")
		assert.Empty(t, a.Messages(), "a refused prompt changed the transcript")
	})
	t.Run("RunLoop refuses a nil prompt", func(t *testing.T) {
		_, err := agentcore.RunLoop(ctx, []agentcore.Message{nil}, agentcore.AgentContext{},
			agentcore.LoopConfig{StreamFn: agentcoretest.New(agentcoretest.TextResponse("ok")).Stream})
		require.ErrorIs(t, err, agentcore.ErrNilMessage)
	})
	t.Run("Steer, FollowUp and AppendMessage ignore a nil", func(t *testing.T) {
		a := newAgent(agentcore.Options{})
		a.Steer(nil)
		a.FollowUp(nil)
		a.AppendMessage(nil)
		assert.False(t, a.HasQueued())
		assert.Empty(t, a.Messages())
		require.NoError(t, a.Prompt(ctx, "go"))
		assert.Equal(t, []string{"user", "assistant:stop"}, roles(a.Messages()))
	})
	t.Run("a hook's nil fails the run", func(t *testing.T) {
		a := newAgent(agentcore.Options{Hooks: agentcore.Hooks{
			FinishTurn: func(context.Context, agentcore.TurnContext) (agentcore.TurnDecision, error) {
				return agentcore.TurnContinue, nil
			},
			PrepareNextTurn: func(context.Context, agentcore.TurnContext) (*agentcore.TurnUpdate, error) {
				return &agentcore.TurnUpdate{Messages: []agentcore.Message{nil}}, nil
			},
		}})
		err := a.Prompt(ctx, "go")
		require.ErrorIs(t, err, agentcore.ErrNilMessage)
		noNil(t, a.Messages())
		assert.Equal(t, []string{"user", "assistant:stop", "assistant:error"}, roles(a.Messages()))
	})
	t.Run("a steering poll's nil fails a RunLoop", func(t *testing.T) {
		polls := 0
		run, err := agentcore.RunLoop(ctx, []agentcore.Message{user}, agentcore.AgentContext{}, agentcore.LoopConfig{
			StreamFn: agentcoretest.New(agentcoretest.TextResponse("ok"), agentcoretest.TextResponse("ok")).Stream,
			GetSteeringMessages: func(context.Context) []agentcore.Message {
				polls++
				if polls == 2 {
					return []agentcore.Message{nil}
				}
				return nil
			},
		})
		require.NoError(t, err)
		msgs, err := run.Wait()
		require.ErrorIs(t, err, agentcore.ErrNilMessage)
		noNil(t, msgs)
	})
	t.Run("typed nil messages count as nil", func(t *testing.T) {
		a := newAgent(agentcore.Options{Messages: []agentcore.Message{(*agentcore.UserMessage)(nil), user}})
		assert.Equal(t, []string{"user"}, roles(a.Messages()))
		require.ErrorIs(t, a.PromptMessages(ctx, (*agentcore.UserMessage)(nil)), agentcore.ErrNilMessage)
		a.Steer((*agentcore.UserMessage)(nil))
		assert.False(t, a.HasQueued())
	})
}

// grumpy is an app-defined message whose Role panics.
type grumpy struct{}

func (grumpy) Role() string { panic("grumpy has no role") }

// TestAgentCallsNoRoleUnderItsLock puts a message whose Role panics at the
// head of the transcript: New and Continue decide without calling it, so
// nothing panics and the Agent stays usable.
func TestAgentCallsNoRoleUnderItsLock(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.TextResponse("ok"))
	a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, SystemPrompt: "Be brief.",
		Messages: []agentcore.Message{grumpy{}, agentcore.UserText("hi")}})
	require.NoError(t, a.Continue(context.Background()))
	assert.Len(t, a.Messages(), 4, "system, grumpy, user, assistant")
}
