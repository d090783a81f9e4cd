package temporal_test

import (
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	durable "github.com/pi-go/agentcore/durable/temporal"
	"github.com/pi-go/agentcore/hold"
	"github.com/pi-go/agentcore/session"
)

// TestHeldCallResultReachesReaders: once an approved held call ran, a
// reader of the transcript that had read up to the placeholder is told the
// transcript was replaced and reads the real result, and ExportSession
// writes the real result, so that the pi session file's context is the
// durable transcript.
func TestHeldCallResultReachesReaders(t *testing.T) {
	ctx := testCtx(t)
	var ran atomic.Int32
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(echoCall("c1", "a")), agentcoretest.TextResponse("done"))
	s := startSession(t, holdOptions(fake.Stream, &ran, hold.Options{}))
	require.ErrorIs(t, s.Prompt(ctx, "echo a"), hold.ErrHeld)

	msgs, cursor, _, err := s.Messages(ctx, 0)
	require.NoError(t, err)
	placeholder := lastToolResultOf(t, msgs)
	assert.Equal(t, hold.DefaultPlaceholder, placeholder.Text())
	assert.True(t, placeholder.IsError)

	require.NoError(t, s.Decide(ctx, hold.Approve{ID: "c1"}))
	require.NoError(t, s.Continue(ctx))

	msgs, _, reset, err := s.Messages(ctx, cursor)
	require.NoError(t, err)
	assert.True(t, reset, "the placeholder's replacement replaced the transcript")
	real := lastToolResultOf(t, msgs)
	assert.Equal(t, "echo: a", real.Text())
	assert.False(t, real.IsError)

	st, err := s.State(ctx)
	require.NoError(t, err)
	dst, err := session.Create(t.TempDir(), "/work", nil)
	require.NoError(t, err)
	require.NoError(t, durable.ExportSession(ctx, s, dst))
	require.NoError(t, dst.Close())
	f, err := session.Open(dst.File(), &session.Options{ReadOnly: true})
	require.NoError(t, err)
	var want []agentcore.Message
	for _, m := range st.Messages {
		if m.Role() != "system" {
			want = append(want, m)
		}
	}
	assert.Equal(t, normalize(t, want), normalize(t, f.Context().Messages))
	exported := lastToolResultOf(t, f.Context().Messages)
	assert.Equal(t, "echo: a", exported.Text())
	assert.False(t, exported.IsError)
}
