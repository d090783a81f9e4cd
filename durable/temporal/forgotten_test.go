package temporal_test

import (
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	durable "github.com/pi-go/agentcore/durable/temporal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWaitForgottenRun waits for a failed run after the session forgot
// its outcome: the answer is an error, never the nil of a success.
func TestWaitForgottenRun(t *testing.T) {
	ctx := testCtx(t)
	responses := []agentcoretest.Response{{StopReason: agentcore.StopError, Err: rateLimited()}}
	for range 16 {
		responses = append(responses, agentcoretest.TextResponse("ok"))
	}
	s := startSession(t, durable.Options{Model: agentcoretest.Model(), StreamFn: agentcoretest.New(responses...).Stream})
	failed, err := s.Start(ctx, agentcore.UserText("fail"))
	require.NoError(t, err)
	require.Error(t, s.Wait(ctx, failed))
	var last int
	for range 16 {
		last, err = s.Start(ctx, agentcore.UserText("ok"))
		require.NoError(t, err)
		require.NoError(t, s.Wait(ctx, last))
	}
	err = s.Wait(ctx, failed)
	require.Error(t, err, "a forgotten run's outcome is unknown, not a success")
	assert.ErrorIs(t, err, durable.ErrForgotten)
	require.NoError(t, s.Wait(ctx, last), "a remembered success")
}
