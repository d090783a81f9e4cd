package temporal_test

import (
	"context"
	"testing"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	durable "github.com/pi-go/agentcore/durable/temporal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestControlWithoutWorker steers, follows up and prompts a session while
// no worker runs: the requests are recorded, the errors say so, and a
// worker started later applies each once, requests sent again with their
// keys included.
func TestControlWithoutWorker(t *testing.T) {
	ctx := testCtx(t)
	fake := agentcoretest.NewFunc(func(context.Context, agentcoretest.Call) agentcoretest.Response {
		return agentcoretest.TextResponse("ok")
	})
	sessions := durable.New(durable.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream})
	queue := taskQueue(t)
	w := startWorker(t, queue, sessions)
	cl := newClient(t, queue, sessions)
	s, err := cl.Start(ctx, queue)
	require.NoError(t, err)
	require.NoError(t, s.Prompt(ctx, "hello"))
	w.kill()

	offline := func() context.Context {
		short, cancel := context.WithTimeout(ctx, time.Second)
		t.Cleanup(cancel)
		return short
	}
	steer := durable.Control{Key: durable.NewKey(), Kind: durable.ControlSteer, Messages: durable.Messages{agentcore.UserText("s1")}}
	require.ErrorIs(t, s.Send(offline(), steer), durable.ErrRecorded, "no worker: recorded, not applied")
	assert.ErrorIs(t, s.FollowUp(offline(), agentcore.UserText("f1")), durable.ErrRecorded)
	prompt := durable.Control{Key: durable.NewKey(), Kind: durable.ControlPrompt, Messages: durable.Messages{agentcore.UserText("p1")}}
	require.ErrorIs(t, s.Send(offline(), prompt), durable.ErrRecorded)

	startWorker(t, queue, sessions)
	require.NoError(t, s.Send(ctx, steer), "sent again with its key: applied once")
	require.NoError(t, s.Send(ctx, prompt))
	require.NoError(t, s.Wait(ctx, 2))
	st, err := s.State(ctx)
	require.NoError(t, err)
	assert.Equal(t, 2, st.Runs, "the prompt started one run")
	texts := map[string]int{}
	for _, m := range st.Messages {
		if u, ok := m.(*agentcore.UserMessage); ok {
			texts[u.Text()]++
		}
	}
	assert.Equal(t, map[string]int{"hello": 1, "p1": 1, "s1": 1, "f1": 1}, texts, "each request applied once")
	assert.Empty(t, st.Steering)
	assert.Empty(t, st.FollowUp)

	assert.ErrorContains(t, s.Send(ctx, durable.Control{Kind: durable.ControlAbort}), "without a key")
}
