package models_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/gzlines"
	"github.com/pi-go/agentcore/models"
)

// TestCalculateCostMatchesReference prices the usages pi-ai 1.6.0's
// calculateCost priced (testdata/cost.pi.jsonl.gz, written by
// testdata/cost.mjs), tiers and 1h cache writes included, and expects
// the same cost to the byte.
func TestCalculateCostMatchesReference(t *testing.T) {
	n := 0
	gzlines.Each(t, "testdata/cost.pi.jsonl.gz", func(line []byte) {
		var c struct {
			Provider string          `json:"provider"`
			ID       string          `json:"id"`
			Usage    agentcore.Usage `json:"usage"`
			Cost     json.RawMessage `json:"cost"`
		}
		require.NoError(t, json.Unmarshal(line, &c))
		m, ok := models.Lookup(c.Provider, c.ID)
		require.True(t, ok, "%s/%s", c.Provider, c.ID)
		got, err := json.Marshal(models.CalculateCost(m, c.Usage))
		require.NoError(t, err)
		assert.Equal(t, string(c.Cost), string(got), "%s/%s %v", c.Provider, c.ID, c.Usage)
		n++
	})
	assert.GreaterOrEqual(t, n, 200)
}

func ExampleCalculateCost() {
	model := agentcore.Model{
		Cost: agentcore.ModelCost{
			Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75,
			Tiers: []agentcore.ModelCostTier{{InputTokensAbove: 200000, Input: 6, Output: 22.5, CacheRead: 0.6, CacheWrite: 7.5}},
		},
	}
	small := models.CalculateCost(model, agentcore.Usage{Input: 100000, Output: 2000})
	large := models.CalculateCost(model, agentcore.Usage{Input: 250000, Output: 2000})
	fmt.Printf("%.4f %.4f\n", small.Total, large.Total)
	// Output:
	// 0.3300 1.5450
}
