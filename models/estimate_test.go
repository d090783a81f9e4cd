package models_test

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/models"
)

// TestEstimateContextTokensMatchesReference compares the estimate of every
// prefix of a transcript of every message and block kind, and of variants
// with no usage, a stale usage and a usage without a total, with pi-ai
// 1.6.0's (testdata/estimate.pi.json, written by testdata/estimate.mjs).
func TestEstimateContextTokensMatchesReference(t *testing.T) {
	data, err := os.ReadFile("testdata/estimate.pi.json")
	require.NoError(t, err)
	var ref struct {
		Variants   map[string]json.RawMessage `json:"variants"`
		PerMessage []int                      `json:"perMessage"`
		Cases      []struct {
			Variant        string `json:"variant"`
			N              int    `json:"n"`
			Tokens         int    `json:"tokens"`
			UsageTokens    int    `json:"usageTokens"`
			TrailingTokens int    `json:"trailingTokens"`
			LastUsageIndex int    `json:"lastUsageIndex"`
		} `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(data, &ref))
	variants := map[string][]agentcore.Message{}
	for name, raw := range ref.Variants {
		variants[name], err = agentcore.UnmarshalMessages(raw)
		require.NoError(t, err, name)
	}
	for i, m := range variants["asIs"] {
		assert.Equal(t, ref.PerMessage[i], models.EstimateMessageTokens(m), "message %d", i)
	}
	require.NotEmpty(t, ref.Cases)
	for _, c := range ref.Cases {
		want := models.ContextEstimate{Tokens: c.Tokens, UsageTokens: c.UsageTokens, TrailingTokens: c.TrailingTokens, LastUsageIndex: c.LastUsageIndex}
		assert.Equal(t, want, models.EstimateContextTokens(variants[c.Variant][:c.N]), "%s[:%d]", c.Variant, c.N)
	}
}

func ExampleEstimateContextTokens() {
	messages := []agentcore.Message{
		&agentcore.UserMessage{Content: agentcore.Text("What is in this directory?"), Timestamp: 1},
		&agentcore.AssistantMessage{
			Content:    []agentcore.ContentBlock{agentcore.TextBlock{Text: "Let me look."}},
			Usage:      agentcore.Usage{Input: 1200, Output: 30, TotalTokens: 1230},
			StopReason: agentcore.StopStop,
			Timestamp:  2,
		},
		&agentcore.UserMessage{Content: agentcore.Text("And in the parent directory?"), Timestamp: 3},
	}
	e := models.EstimateContextTokens(messages)
	fmt.Printf("%d = %d reported by message %d + %d estimated\n", e.Tokens, e.UsageTokens, e.LastUsageIndex, e.TrailingTokens)
	// Output:
	// 1238 = 1230 reported by message 1 + 8 estimated
}
