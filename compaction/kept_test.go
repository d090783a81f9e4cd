package compaction_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/compaction"
)

// TestFitKeptCutsOversizedToolResults checks that a kept part made of one
// tool call and its large results, over the budget by itself, is brought
// within it by cutting the large results, each with a notice, and that
// the transcript's own messages are left as they were.
func TestFitKeptCutsOversizedToolResults(t *testing.T) {
	big1, big2 := strings.Repeat("a", 12000), strings.Repeat("b", 16000)
	transcript := []agentcore.Message{
		user(words("u0", 500)), answer(words("a0", 500)), user("read them"),
		calls(call("c1", "read", "1"), call("c2", "read", "2"), call("c3", "read", "3")),
		result("c1", big1), result("c2", big2), result("c3", "small"),
	}
	p, err := compaction.Prepare(transcript, 0, nil)
	require.NoError(t, err)
	require.Len(t, p.Kept, 4)

	assert.Equal(t, 2, p.FitKept(1000))
	assert.LessOrEqual(t, compaction.EstimateContextTokens(p.Kept), 1000)
	for i, want := range []int{12000, 16000} {
		text := p.Kept[1+i].(*agentcore.ToolResultMessage).Text()
		assert.Contains(t, text, "[This tool result was cut to fit the context window: ")
		assert.Contains(t, text, " of its characters were left out. Call the tool again with a narrower request if you need them.]")
		assert.Less(t, len(text), want/4)
	}
	assert.Equal(t, "small", p.Kept[3].(*agentcore.ToolResultMessage).Text())
	assert.Equal(t, big1, transcript[4].(*agentcore.ToolResultMessage).Text(), "the transcript is not modified")

	assert.Equal(t, 0, p.FitKept(1000), "nothing more to cut")
}
