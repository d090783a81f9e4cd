package models

import (
	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/pricing"
)

// CalculateCost returns what usage costs at model's prices, as pi-ai's
// calculateCost does: the rates are the model's, or those of the tier with
// the highest threshold that the usage's input, cache-read and
// cache-write tokens together exceed; each kind of token costs its rate
// per million, cache writes kept for an hour (usage.CacheWrite1h, part of
// CacheWrite) twice the input rate; Total is the sum and
// TotalFromProvider is false. The providers set a response's Usage.Cost
// this way; a provider that reports its billed total (OpenRouter)
// replaces Total and sets TotalFromProvider.
func CalculateCost(model agentcore.Model, usage agentcore.Usage) agentcore.Cost {
	return pricing.Cost(model, usage)
}
