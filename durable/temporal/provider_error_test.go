package temporal_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rateLimited is the failure the scripted provider reports.
func rateLimited() *agentcore.ProviderError {
	return &agentcore.ProviderError{StatusCode: 429, Message: "429 rate limited", RetryAfter: 2 * time.Second, Err: errors.New("quota window")}
}

// TestProviderErrorCrossesActivity checks that a failed request's
// *agentcore.ProviderError reaches the workflow's hooks, the committed
// transcript and the client's RunError as it reaches the plain Agent's.
func TestProviderErrorCrossesActivity(t *testing.T) {
	ctx := testCtx(t)
	responses := []agentcoretest.Response{{StopReason: agentcore.StopError, Err: rateLimited()}}

	var mu sync.Mutex
	var seen []error // FinishTurn's view of the failed message's Err
	o := agentcore.Options{SystemPrompt: "sys", Model: agentcoretest.Model()}
	o.FinishTurn = func(_ context.Context, t agentcore.TurnContext) (agentcore.TurnDecision, error) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, t.Message.Err)
		return agentcore.TurnDefault, nil
	}

	o.StreamFn = agentcoretest.New(responses...).Stream
	wantErr := agentcore.New(o).Prompt(ctx, "go")
	var wantPE *agentcore.ProviderError
	require.ErrorAs(t, wantErr, &wantPE)
	mu.Lock()
	agentSeen := seen
	seen = nil
	mu.Unlock()
	require.Len(t, agentSeen, 1)

	s := startSession(t, durableOptions(o, agentcoretest.New(responses...).Stream))
	err := s.Prompt(ctx, "go")

	want := rateLimited()
	want.Err = errors.New(want.Err.Error())
	var runErr *agentcore.RunError
	require.ErrorAs(t, err, &runErr)
	var pe *agentcore.ProviderError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, want, pe)
	assert.Equal(t, wantErr.Error(), err.Error())
	assert.True(t, agentcore.IsRetryable(err))
	require.NotNil(t, runErr.Message)
	assert.Equal(t, "429 rate limited", runErr.Message.ErrorMessage)
	assert.Equal(t, want, runErr.Message.Err)

	mu.Lock()
	require.NotEmpty(t, seen, "FinishTurn ran in the workflow")
	for _, e := range seen {
		assert.Equal(t, want, e)
	}
	mu.Unlock()

	st, err := s.State(ctx)
	require.NoError(t, err)
	require.Len(t, st.Messages, 3)
	last, ok := st.Messages[2].(*agentcore.AssistantMessage)
	require.True(t, ok)
	assert.Equal(t, want, last.Err)
	assert.Equal(t, "429 rate limited", st.ErrorMessage)
}
