package compaction_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/compaction"
)

// pick returns the messages of transcript at the indices.
func pick(transcript []agentcore.Message, indices ...int) []agentcore.Message {
	out := make([]agentcore.Message, len(indices))
	for i, j := range indices {
		out[i] = transcript[j]
	}
	return out
}

func TestPrepareCutRules(t *testing.T) {
	previous := &compaction.Summary{Summary: "## Goal\nearlier", TokensBefore: 9000, Timestamp: 5, ReadFiles: []string{"old.go"}}
	tests := []struct {
		name       string
		transcript []agentcore.Message
		history    []int
		turnPrefix []int
		kept       []int
		previous   bool
	}{
		{
			name:       "cuts at the user message where the kept budget is reached",
			transcript: []agentcore.Message{sys("p"), user(words("u0", 600)), answer(words("a0", 600)), user(words("u1", 600)), answer(words("a1", 600))},
			history:    []int{1, 2},
			kept:       []int{3, 4},
		},
		{
			name: "never at a tool result: the cut moves on to the next message",
			transcript: []agentcore.Message{
				sys("p"), user(words("u0", 600)), answer(words("a0", 600)), user(words("u1", 100)),
				calls(call("c1", "read", "a.go")), result("c1", words("r1", 1200)), user(words("u2", 100)), answer(words("a2", 100)),
			},
			history: []int{1, 2, 3, 4, 5},
			kept:    []int{6, 7},
		},
		{
			name: "tool results over the budget by themselves stay with their call",
			transcript: []agentcore.Message{
				sys("p"), user(words("u0", 600)), user(words("u1", 100)), calls(call("c1", "read", "a.go")), result("c1", words("r1", 1500)),
			},
			history:    []int{1},
			turnPrefix: []int{2},
			kept:       []int{3, 4},
		},
		{
			name: "one span longer than the budget is split at an assistant message",
			transcript: []agentcore.Message{
				sys("p"), user(words("u0", 600)), answer(words("a0", 100)), user(words("u1", 100)),
				calls(call("c1", "read", "a.go")), result("c1", words("r1", 600)),
				calls(call("c2", "read", "b.go")), result("c2", words("r2", 600)), answer(words("a3", 100)),
			},
			history:    []int{1, 2},
			turnPrefix: []int{3, 4, 5},
			kept:       []int{6, 7, 8},
		},
		{
			name: "a split span with no history before it",
			transcript: []agentcore.Message{
				sys("p"), user(words("u1", 100)), calls(call("c1", "read", "a.go")), result("c1", words("r1", 900)),
				calls(call("c2", "read", "b.go")), result("c2", words("r2", 900)),
			},
			turnPrefix: []int{1, 2, 3},
			kept:       []int{4, 5},
		},
		{
			name: "a repeated compaction starts at the previous kept boundary",
			transcript: []agentcore.Message{
				sys("p"), previous, user(words("u1", 600)), answer(words("a1", 600)), user(words("u2", 600)), answer(words("a2", 600)),
			},
			history:  []int{2, 3},
			kept:     []int{4, 5},
			previous: true,
		},
		{
			name: "system messages are no cut points and leave the history",
			transcript: []agentcore.Message{
				sys("p"), user(words("u0", 600)), sys("more"), answer(words("a0", 600)), sys("late"), user(words("u1", 600)), answer(words("a1", 600)),
			},
			history: []int{1, 3},
			kept:    []int{5, 6},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := compaction.Prepare(tt.transcript, 1000, nil)
			require.NoError(t, err)
			assert.Equal(t, pick(tt.transcript, tt.history...), p.History, "history")
			assert.Equal(t, pick(tt.transcript, tt.turnPrefix...), nonNilMessages(p.TurnPrefix), "turn prefix")
			assert.Equal(t, pick(tt.transcript, tt.kept...), p.Kept, "kept")
			assert.Equal(t, len(tt.turnPrefix) > 0, p.Split())
			if tt.previous {
				assert.Same(t, previous, p.Previous)
			} else {
				assert.Nil(t, p.Previous)
			}
			require.NotNil(t, p.Head)
			assert.Greater(t, p.TokensBefore, 1000)
		})
	}
}

func nonNilMessages(m []agentcore.Message) []agentcore.Message {
	if m == nil {
		return []agentcore.Message{}
	}
	return m
}

func TestPrepareHeadReplaysSystemMessages(t *testing.T) {
	transcript := []agentcore.Message{
		sys("base"), user(words("u0", 600)), sys("more"), answer(words("a0", 600)), sys("late"), user(words("u1", 600)), answer(words("a1", 600)),
	}
	p, err := compaction.Prepare(transcript, 1000, nil)
	require.NoError(t, err)
	assert.Equal(t, "base\n\nmore\n\nlate", p.Head.Content.Text(), "the system messages before the cut, replayed")
	s := &compaction.Summary{Summary: "s"}
	assert.Equal(t, []agentcore.Message{p.Head, s, transcript[5], transcript[6]}, p.Messages(s))
}

func TestPrepareNothingToCompact(t *testing.T) {
	tests := map[string][]agentcore.Message{
		"empty":                  nil,
		"below the kept budget":  {sys("p"), user(words("u", 100)), answer(words("a", 100))},
		"only system messages":   {sys("p"), sys("q")},
		"ends with a summary":    {sys("p"), user(words("u", 900)), answer(words("a", 900)), &compaction.Summary{Summary: "s"}},
		"one message over limit": {sys("p"), user(words("u", 5000))},
	}
	for name, transcript := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := compaction.Prepare(transcript, 1000, nil)
			assert.ErrorIs(t, err, compaction.ErrNothingToCompact)
		})
	}
}

func TestPrepareFiles(t *testing.T) {
	previous := &compaction.Summary{Summary: "s", ReadFiles: []string{"old.go", "w.go"}, ModifiedFiles: []string{"m.go"}}
	transcript := []agentcore.Message{
		sys("p"), previous,
		user(words("u0", 100)),
		calls(call("c1", "read", "r.go"), call("c2", "write", "w.go"), call("c3", "edit", "e.go"), call("c4", "bash", "x.go")),
		result("c1", "."), result("c2", "."), result("c3", "."), result("c4", "."),
		answer(words("a0", 600)), user(words("u1", 900)), answer(words("a1", 600)),
	}
	p, err := compaction.Prepare(transcript, 1000, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"old.go", "r.go"}, p.ReadFiles, "read and never modified, carried over")
	assert.Equal(t, []string{"e.go", "m.go", "w.go"}, p.ModifiedFiles)

	custom := func(c agentcore.ToolCall) []compaction.FileOp {
		if c.Name == "bash" {
			return []compaction.FileOp{{Path: "script.sh"}, {Path: "out.txt", Modified: true}, {Path: ""}}
		}
		return nil
	}
	p, err = compaction.Prepare(transcript, 1000, custom)
	require.NoError(t, err)
	assert.Equal(t, []string{"old.go", "script.sh", "w.go"}, p.ReadFiles)
	assert.Equal(t, []string{"m.go", "out.txt"}, p.ModifiedFiles)
}

func TestDefaultFiles(t *testing.T) {
	tests := map[string]struct {
		call agentcore.ToolCall
		want []compaction.FileOp
	}{
		"read":         {call("1", "read", "a"), []compaction.FileOp{{Path: "a"}}},
		"write":        {call("1", "write", "a"), []compaction.FileOp{{Path: "a", Modified: true}}},
		"edit":         {call("1", "edit", "a"), []compaction.FileOp{{Path: "a", Modified: true}}},
		"other tool":   {call("1", "grep", "a"), nil},
		"no path":      {agentcore.ToolCall{Name: "read", Arguments: []byte(`{"file":"a"}`)}, nil},
		"path no text": {agentcore.ToolCall{Name: "read", Arguments: []byte(`{"path":3}`)}, nil},
		"bad json":     {agentcore.ToolCall{Name: "read", Arguments: []byte(`{`)}, nil},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, tt.want, compaction.DefaultFiles(tt.call))
		})
	}
}

func TestSettingsForWindow(t *testing.T) {
	tests := []struct {
		window, reserve, keep, summary int
	}{
		{0, 16384, 20000, 32000},
		{8192, 5120, 768, 768},
		{16384, 5120, 2816, 2816},
		{32768, 8192, 6144, 6144},
		{65536, 16384, 12288, 12288},
		{128000, 16384, 20000, 32000},
		{200000, 16384, 20000, 32000},
	}
	for _, tt := range tests {
		s := compaction.Settings{}.ForWindow(tt.window)
		assert.Equal(t, tt.reserve, s.ReserveTokens, "reserve of %d", tt.window)
		assert.Equal(t, tt.keep, s.KeepRecentTokens, "keep of %d", tt.window)
		assert.Equal(t, tt.summary, compaction.SummaryMaxTokens(tt.window, 32000, compaction.Settings{}), "summary of %d", tt.window)
	}
	s := compaction.Settings{ReserveTokens: 100, KeepRecentTokens: 50}
	assert.Equal(t, s, s.ForWindow(8192), "set fields are kept")

	assert.False(t, compaction.ShouldCompact(1<<30, 0, compaction.Settings{}), "unknown window")
	assert.False(t, compaction.ShouldCompact(3072, 8192, compaction.Settings{}))
	assert.True(t, compaction.ShouldCompact(3073, 8192, compaction.Settings{}))
	assert.True(t, compaction.ShouldCompact(183617, 200000, compaction.Settings{}), "pi's threshold")
}

// The walk counts tokens the way the provider's last usage does when that
// is more than the estimate from characters.
func TestPrepareScalesByUsage(t *testing.T) {
	counted := answer(words("a1", 300))
	transcript := []agentcore.Message{sys("p"), user(words("u0", 300)), answer(words("a0", 300)), user(words("u1", 300)), counted}
	p, err := compaction.Prepare(transcript, 500, nil)
	require.NoError(t, err)
	assert.Equal(t, 1.0, p.TokenScale, "no usage")
	assert.Equal(t, pick(transcript, 3, 4), p.Kept)

	c := *counted
	c.Usage = agentcore.Usage{TotalTokens: int64(3 * (1 + 4*300))}
	transcript[4] = &c
	p, err = compaction.Prepare(transcript, 500, nil)
	require.NoError(t, err)
	assert.InDelta(t, 3.0, p.TokenScale, 0.01)
	assert.Equal(t, pick(transcript, 4), p.Kept, "300 estimated tokens count 900")
}
