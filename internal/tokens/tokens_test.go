package tokens

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

func readTranscript(t *testing.T) []agentcore.Message {
	data, err := os.ReadFile("testdata/transcript.json")
	require.NoError(t, err)
	messages, err := agentcore.UnmarshalMessages(data)
	require.NoError(t, err)
	return messages
}

// TestEstimateMatchesReference compares the estimates with pi-ai's for a
// transcript of every message and block kind (testdata/estimate.pi.json,
// written by testdata/oracle.mjs).
func TestEstimateMatchesReference(t *testing.T) {
	var ref struct {
		WithUsage    int   `json:"withUsage"`
		WithoutUsage int   `json:"withoutUsage"`
		PerMessage   []int `json:"perMessage"`
	}
	data, err := os.ReadFile("testdata/estimate.pi.json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &ref))

	messages := readTranscript(t)
	per := make([]int, len(messages))
	for i, m := range messages {
		per[i] = MessageTokens(m)
	}
	assert.Equal(t, ref.PerMessage, per)
	assert.Equal(t, ref.WithUsage, Estimate(messages))

	for _, m := range messages {
		if a, ok := m.(*agentcore.AssistantMessage); ok {
			a.Usage.TotalTokens, a.Usage.Input, a.Usage.Output = 0, 0, 0
		}
	}
	assert.Equal(t, ref.WithoutUsage, Estimate(messages))
}

func TestClampMaxTokens(t *testing.T) {
	tests := []struct {
		name               string
		input, window, max int // input in tokens of estimate
		want               int
	}{
		{name: "no window", input: 10000, window: 0, max: 0, want: 1},
		{name: "room to spare", input: 10000, window: 200000, max: 64000, want: 64000},
		{name: "fixed margin", input: 10000, window: 60000, max: 64000, want: 60000 - 10000 - 4096},
		{name: "ratio margin", input: 40000, window: 80000, max: 64000, want: 80000 - 40000 - 6000},
		{name: "ratio margin would leave under 32768", input: 40000, window: 75000, max: 64000, want: 75000 - 40000 - 4096},
		{name: "32768 at most without the ratio margin", input: 40000, window: 78000, max: 64000, want: 32768},
		{name: "no room", input: 10000, window: 12000, max: 8000, want: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			input := []agentcore.Message{&agentcore.UserMessage{Content: agentcore.Text(strings.Repeat("x", tt.input*7/2))}}
			require.Equal(t, tt.input, Estimate(input))
			assert.Equal(t, tt.want, ClampMaxTokens(agentcore.Model{ContextWindow: tt.window}, input, tt.max))
		})
	}
}
