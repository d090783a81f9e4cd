package provider

import "github.com/pi-go/agentcore"

// Price sets u's cost from rates per million tokens, as pi-ai's
// calculateCost does, with cacheWrite the cost of its cache writes (which
// the APIs price apart), and marks it computed, not the provider's.
func Price(u *agentcore.Usage, rates agentcore.ModelCost, cacheWrite float64) {
	c := &u.Cost
	c.Input = rates.Input / 1000000 * float64(u.Input)
	c.Output = rates.Output / 1000000 * float64(u.Output)
	c.CacheRead = rates.CacheRead / 1000000 * float64(u.CacheRead)
	c.CacheWrite = cacheWrite
	c.Total = c.Input + c.Output + c.CacheRead + c.CacheWrite
	c.TotalFromProvider = new(false)
}
