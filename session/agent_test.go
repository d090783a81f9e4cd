package session

import (
	"context"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/compaction"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLayerRestoreCompaction: an Agent's messages land in the session, a
// compaction result becomes pi's entry, and a restored Agent sees the
// compacted context with the thinking level set.
func TestLayerRestoreCompaction(t *testing.T) {
	s, err := Create(t.TempDir(), "/w", &Options{Now: clock()})
	require.NoError(t, err)
	defer s.Close()
	_, err = s.Append(&ThinkingLevelChange{ThinkingLevel: agentcore.ThinkingHigh})
	require.NoError(t, err)
	fake := agentcoretest.New(agentcoretest.TextResponse("one"), agentcoretest.TextResponse("two"))
	agent := agentcore.New(s.Restore(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream}, nil))
	assert.Equal(t, agentcore.ThinkingHigh, agent.State().ThinkingLevel)
	require.NoError(t, agent.Prompt(context.Background(), "first"))
	require.NoError(t, agent.Prompt(context.Background(), "second"))
	assert.Len(t, s.Context().Messages, 4, "user assistant user assistant")

	listener := s.OnCompaction(nil, func(err error) { t.Error(err) })
	listener(context.Background(), &compaction.EndEvent{Result: &compaction.Result{
		Summary: &compaction.Summary{Summary: "first exchange", ReadFiles: []string{"a.go"}}, TokensBefore: 50, Kept: 2}})
	msgs := s.Context().Messages
	require.Len(t, msgs, 3, "summary, then the two kept messages")
	sum, ok := msgs[0].(*compaction.Summary)
	require.True(t, ok)
	assert.Equal(t, "first exchange", sum.Summary)
	assert.Equal(t, []string{"a.go"}, sum.ReadFiles)
	assert.Equal(t, "second", msgs[1].(*agentcore.UserMessage).Text())

	restored := agentcore.New(s.Restore(agentcore.Options{}, func(p, id string) (agentcore.Model, bool) {
		return agentcore.Model{Provider: p, ID: id}, true
	}))
	assert.Len(t, restored.Messages(), 3)
	assert.Equal(t, agentcoretest.Model().ID, restored.State().Model.ID)
	seen := ConvertMessages(restored.Messages())
	assert.IsType(t, &agentcore.UserMessage{}, seen[0], "the model sees the summary as a user message")
}
