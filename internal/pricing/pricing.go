// Package pricing prices a response's usage with a model's rates, as
// pi-ai's calculateCost does. Package models exports it as CalculateCost;
// the providers call it here, so that they need not import the catalog.
package pricing

import (
	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/tokens"
)

// Rates returns the rates per million tokens that apply to usage: those
// of the tier with the highest InputTokensAbove that the usage's input,
// cache-read and cache-write tokens exceed (their sum saturating rather
// than wrapping), or the model's base rates.
func Rates(cost agentcore.ModelCost, usage agentcore.Usage) agentcore.ModelCost {
	input := tokens.Sum(usage.Input, usage.CacheRead, usage.CacheWrite)
	rates := cost
	rates.Tiers = nil
	matched := int64(-1)
	for _, t := range cost.Tiers {
		if input > t.InputTokensAbove && t.InputTokensAbove > matched {
			rates = agentcore.ModelCost{Input: t.Input, Output: t.Output, CacheRead: t.CacheRead, CacheWrite: t.CacheWrite}
			matched = t.InputTokensAbove
		}
	}
	return rates
}

// Cost is what usage costs at model's rates (see [Rates]): each kind of
// token at its rate per million, cache writes kept for an hour
// (usage.CacheWrite1h, part of CacheWrite) at twice the input rate, the
// total their sum, and TotalFromProvider false. Hour-long writes beyond
// all writes count as negative short ones, as in pi-ai, but the cache
// write cost is at least 0, so that no count makes a cost negative.
func Cost(model agentcore.Model, usage agentcore.Usage) agentcore.Cost {
	r := Rates(model.Cost, usage)
	var longWrite int64
	if usage.CacheWrite1h != nil {
		longWrite = *usage.CacheWrite1h
	}
	shortWrite := usage.CacheWrite - longWrite
	c := agentcore.Cost{
		Input:             r.Input / 1000000 * float64(usage.Input),
		Output:            r.Output / 1000000 * float64(usage.Output),
		CacheRead:         r.CacheRead / 1000000 * float64(usage.CacheRead),
		CacheWrite:        max(0, r.CacheWrite*float64(shortWrite)+r.Input*2*float64(longWrite)) / 1000000,
		TotalFromProvider: new(false),
	}
	c.Total = c.Input + c.Output + c.CacheRead + c.CacheWrite
	return c
}
