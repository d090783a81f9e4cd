package compaction_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/compaction"
	"github.com/pi-go/agentcore/internal/golden"
)

func TestSummaryJSON(t *testing.T) {
	tests := []struct {
		name string
		msg  *compaction.Summary
		want string
	}{
		{
			name: "pi's message",
			msg:  &compaction.Summary{Summary: "## Goal\nfix it", TokensBefore: 9000, Timestamp: 1700000000000},
			want: `{"role":"compactionSummary","summary":"## Goal\nfix it","tokensBefore":9000,"timestamp":1700000000000}`,
		},
		{
			name: "with files and usage",
			msg: &compaction.Summary{
				Summary: "s", TokensBefore: 1, Timestamp: 2, ModifiedFiles: []string{"b.go"},
				Usage: &agentcore.Usage{Input: 10, Output: 5, TotalTokens: 15},
			},
			want: `{"role":"compactionSummary","summary":"s","tokensBefore":1,"timestamp":2,"details":{"readFiles":[],"modifiedFiles":["b.go"]},"usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":15,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustJSON(t, tt.msg)
			assert.JSONEq(t, tt.want, got)
			assert.Equal(t, tt.want, got, "pi's field order")

			var reg agentcore.MessageRegistry
			compaction.Register(&reg)
			back, err := reg.UnmarshalMessage([]byte(got))
			require.NoError(t, err)
			require.IsType(t, &compaction.Summary{}, back)
			assert.Equal(t, got, mustJSON(t, back))
		})
	}
}

func TestSummaryUnmarshalErrors(t *testing.T) {
	for name, data := range map[string]string{
		"other role": `{"role":"user","summary":"s"}`,
		"bad field":  `{"role":"compactionSummary","summary":1}`,
		"not json":   `{`,
	} {
		t.Run(name, func(t *testing.T) {
			var s compaction.Summary
			assert.Error(t, s.UnmarshalJSON([]byte(data)))
		})
	}
}

// A summary's numbers read as JavaScript wrote them, as every message's
// do: a fraction truncates, a value beyond int64 (1e400 included)
// saturates, null leaves zero, and a string is an error.
func TestSummaryUnmarshalNumbers(t *testing.T) {
	tests := []struct {
		name         string
		tokensBefore string
		timestamp    string
		wantTokens   int
		wantTime     int64
		wantErr      bool
	}{
		{name: "integers", tokensBefore: "9000", timestamp: "1700000000000", wantTokens: 9000, wantTime: 1700000000000},
		{name: "fractions", tokensBefore: "1.5", timestamp: "-1.5", wantTokens: 1, wantTime: -1},
		{name: "1e400", tokensBefore: "1e400", timestamp: "-1e400", wantTokens: math.MaxInt, wantTime: math.MinInt64},
		{name: "beyond int64", tokensBefore: "12345678901234567890", timestamp: "1e21", wantTokens: math.MaxInt, wantTime: math.MaxInt64},
		{name: "null", tokensBefore: "null", timestamp: "null"},
		{name: "string", tokensBefore: `"1"`, timestamp: "1", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := `{"role":"compactionSummary","summary":"s","tokensBefore":` + tt.tokensBefore + `,"timestamp":` + tt.timestamp + `}`
			var reg agentcore.MessageRegistry
			compaction.Register(&reg)
			m, err := reg.UnmarshalMessage([]byte(data))
			if tt.wantErr {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			require.IsType(t, &compaction.Summary{}, m)
			s := m.(*compaction.Summary)
			assert.Equal(t, tt.wantTokens, s.TokensBefore)
			assert.Equal(t, tt.wantTime, s.Timestamp)
		})
	}
}

// A transcript with a summary written by a compaction reads back the
// same, with the role registered or not; unregistered, the summary is a
// custom message the package still recognizes.
func TestTranscriptRoundTrip(t *testing.T) {
	transcript := []agentcore.Message{
		sys("be brief"),
		&compaction.Summary{Summary: "## Goal\nship", TokensBefore: 5000, Timestamp: 40, ReadFiles: []string{"a.go"}},
		user("go on"), calls(call("c1", "read", "a.go")), result("c1", "package a"), answer("done"),
	}
	data, err := json.MarshalIndent(transcript, "", "  ")
	require.NoError(t, err)
	golden.Check(t, append(data, '\n'), "testdata/transcript.json")

	var reg agentcore.MessageRegistry
	compaction.Register(&reg)
	back, err := reg.UnmarshalMessages(data)
	require.NoError(t, err)
	again, err := json.MarshalIndent(back, "", "  ")
	require.NoError(t, err)
	assert.Equal(t, string(data), string(again))
	assert.Equal(t, transcript[1], back[1])

	plain, err := agentcore.UnmarshalMessages(data)
	require.NoError(t, err)
	require.IsType(t, &agentcore.CustomMessage{}, plain[1])
	s, ok := compaction.AsSummary(plain[1])
	require.True(t, ok)
	assert.Equal(t, transcript[1], s)
	assert.Equal(t, compaction.ConvertMessages(back), compaction.ConvertMessages(plain))
}

func TestConvertMessages(t *testing.T) {
	s := &compaction.Summary{Summary: "## Goal\nship", Timestamp: 40}
	plain := []agentcore.Message{sys("p"), user("hi")}
	assert.Same(t, &plain[0], &compaction.ConvertMessages(plain)[0], "no summary: the same slice")

	got := compaction.ConvertMessages([]agentcore.Message{sys("p"), s, user("hi")})
	require.Len(t, got, 3)
	u, ok := got[1].(*agentcore.UserMessage)
	require.True(t, ok)
	assert.Equal(t, int64(40), u.Timestamp)
	assert.Contains(t, u.Text(), "<summary>\n## Goal\nship\n</summary>")
	assert.Equal(t, u, s.UserMessage())
	assert.Equal(t, plain[1], got[2])
}
