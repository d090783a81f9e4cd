package pricing

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pi-go/agentcore"
)

func TestRates(t *testing.T) {
	cost := agentcore.ModelCost{Input: 1, Output: 2, CacheRead: 0.1, CacheWrite: 1.25, Tiers: []agentcore.ModelCostTier{
		{InputTokensAbove: 500000, Input: 3, Output: 6},
		{InputTokensAbove: 200000, Input: 2, Output: 4},
	}}
	tests := []struct {
		name  string
		usage agentcore.Usage
		want  float64
	}{
		{"below every tier", agentcore.Usage{Input: 1000}, 1},
		{"at a threshold is below it", agentcore.Usage{Input: 200000}, 1},
		{"above one", agentcore.Usage{Input: 100000, CacheRead: 100000, CacheWrite: 1}, 2},
		{"the highest exceeded, in any order", agentcore.Usage{Input: 600000}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Rates(cost, tt.usage)
			assert.Equal(t, tt.want, r.Input)
			assert.Nil(t, r.Tiers)
		})
	}
}

func TestCostLongCacheWrites(t *testing.T) {
	long := int64(1000000)
	c := Cost(agentcore.Model{Cost: agentcore.ModelCost{Input: 3, CacheWrite: 3.75}}, agentcore.Usage{CacheWrite: 3000000, CacheWrite1h: &long})
	assert.Equal(t, 3.75*2+3*2, c.CacheWrite)
	assert.Equal(t, c.CacheWrite, c.Total)
	assert.False(t, *c.TotalFromProvider)
}

func TestCostLongWritesBeyondAllWrites(t *testing.T) {
	model := agentcore.Model{Cost: agentcore.ModelCost{Input: 3, CacheWrite: 3.75}}
	tests := []struct {
		name        string
		write, long int64
		want        float64
	}{
		{"negative short writes count, as in pi-ai", 0, 4, (-4*3.75 + 4*3*2) / 1000000},
		{"the cost stays at least 0", 0, -1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Cost(model, agentcore.Usage{CacheWrite: tt.write, CacheWrite1h: &tt.long})
			assert.InDelta(t, tt.want, c.CacheWrite, 1e-15)
			assert.GreaterOrEqual(t, c.Total, 0.0)
		})
	}
}
