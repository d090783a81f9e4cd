package temporal_test

import (
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/compaction"
	durable "github.com/pi-go/agentcore/durable/temporal"
	"github.com/pi-go/agentcore/session"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExportSession exports a session whose transcript holds a
// compaction summary, later runs and a tool call to a pi session file, opens the
// file again and finds the session's context there: the messages after
// the system message (the summary as pi's compaction entry), the model
// and the thinking level.
func TestExportSession(t *testing.T) {
	ctx := testCtx(t)
	fake := agentcoretest.New(append(compactResponses(),
		agentcoretest.ToolCallResponse(echoCall("c1", "a")), agentcoretest.TextResponse("echoed"))...)
	o := durableOptions(scenarios[0].agentOptions(), fake.Stream)
	o.Tools = []agentcore.Tool{echoTool(agentcore.ReplaySafe, nil)}
	o.Compaction = &compactSettings
	s := startSession(t, o)
	compactScript(t, s)
	require.NoError(t, s.Prompt(ctx, "echo a"))
	require.NoError(t, s.SetThinkingLevel(ctx, agentcore.ThinkingHigh))
	st, err := s.State(ctx)
	require.NoError(t, err)
	require.Equal(t, "system", st.Messages[0].Role())
	want, ok := compaction.AsSummary(st.Messages[1])
	require.True(t, ok, "the transcript was compacted")

	dir := t.TempDir()
	dst, err := session.Create(dir, "/work", nil)
	require.NoError(t, err)
	require.NoError(t, durable.ExportSession(ctx, s, dst))
	require.NoError(t, dst.Close())

	f, err := session.Open(dst.File(), &session.Options{ReadOnly: true})
	require.NoError(t, err)
	got := f.Context()
	require.Len(t, got.Messages, len(st.Messages)-1)
	sum, ok := got.Messages[0].(*compaction.Summary)
	require.True(t, ok, "the summary comes first, from the compaction entry")
	assert.Equal(t, want.Summary, sum.Summary)
	assert.Equal(t, want.TokensBefore, sum.TokensBefore)
	assert.Equal(t, normalize(t, st.Messages[2:]), normalize(t, got.Messages[1:]))
	assert.Equal(t, st.Messages[len(st.Messages)-1], got.Messages[len(got.Messages)-1])
	require.NotNil(t, got.Model)
	assert.Equal(t, session.ModelRef{Provider: st.Model.Provider, ModelID: st.Model.ID}, *got.Model)
	assert.Equal(t, agentcore.ThinkingHigh, got.ThinkingLevel)

}
