package models_test

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/models"
)

// TestTokenSumsSaturate checks that counts near the largest int64 add up
// to the largest value instead of wrapping to a negative one: in the
// context size, the price tier and the silent-overflow check.
func TestTokenSumsSaturate(t *testing.T) {
	huge := agentcore.Usage{Input: math.MaxInt64, CacheRead: math.MaxInt64, Output: 1}
	assert.Equal(t, math.MaxInt, models.ContextTokens(huge), "context size")

	model := agentcore.Model{Cost: agentcore.ModelCost{Input: 1, Tiers: []agentcore.ModelCostTier{{InputTokensAbove: 200000, Input: 2}}}}
	cost := models.CalculateCost(model, agentcore.Usage{Input: math.MaxInt64, CacheRead: 1})
	assert.Equal(t, 2*float64(math.MaxInt64)/1e6, cost.Input, "the tier above the threshold applies")

	msg := agentcore.AssistantMessage{StopReason: agentcore.StopStop, Usage: agentcore.Usage{Input: math.MaxInt64, CacheRead: math.MaxInt64}}
	assert.True(t, models.IsContextOverflow(msg, 8192), "silent overflow")
}

// TestIsContextOverflowReadsABoundedPrefix checks that an overflow text is
// found at the start of a long error and that the rest of a megabyte of
// error text is not searched.
func TestIsContextOverflowReadsABoundedPrefix(t *testing.T) {
	filler := strings.Repeat("é", 1<<19) // 1 MiB
	tests := []struct {
		name string
		text string
		want bool
	}{
		{"at the start", "prompt is too long: " + filler, true},
		{"after a megabyte", filler + " prompt is too long", false},
		{"a cut inside a character", strings.Repeat("a", 16<<10-1) + "é prompt is too long", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg := agentcore.AssistantMessage{StopReason: agentcore.StopError, ErrorMessage: tt.text}
			assert.Equal(t, tt.want, models.IsContextOverflow(msg, 0))
		})
	}
}
