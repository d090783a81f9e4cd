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

// TestControlWithoutWorker steers and follows up a session while no
// worker runs: the requests are recorded, the errors say so, and a worker
// started later applies each once, a request sent again with its key
// included.
func TestControlWithoutWorker(t *testing.T) {
	ctx := testCtx(t)
	o := durable.Options{Model: agentcoretest.Model(), StreamFn: agentcoretest.New(agentcoretest.TextResponse("hi")).Stream}
	sessions := durable.New(o)
	queue := taskQueue(t)
	w := startWorker(t, queue, sessions)
	cl := newClient(t, queue, sessions)
	s, err := cl.Start(ctx, queue)
	require.NoError(t, err)
	require.NoError(t, s.Prompt(ctx, "hello"))
	w.kill()

	short, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	steer := durable.Control{Key: durable.NewKey(), Kind: durable.ControlSteer, Messages: durable.Messages{agentcore.UserText("s1")}}
	err = s.Send(short, steer)
	require.ErrorIs(t, err, durable.ErrRecorded, "no worker: recorded, not applied")
	short2, cancel2 := context.WithTimeout(ctx, time.Second)
	defer cancel2()
	assert.ErrorIs(t, s.FollowUp(short2, agentcore.UserText("f1")), durable.ErrRecorded)

	startWorker(t, queue, sessions)
	require.NoError(t, s.Send(ctx, steer), "sent again with its key: applied once")
	st, err := s.State(ctx)
	require.NoError(t, err)
	require.Len(t, st.Steering, 1)
	assert.Equal(t, "s1", st.Steering[0].(*agentcore.UserMessage).Text())
	require.Len(t, st.FollowUp, 1)

	assert.ErrorContains(t, s.Send(ctx, durable.Control{Kind: durable.ControlAbort}), "without a key")
}
