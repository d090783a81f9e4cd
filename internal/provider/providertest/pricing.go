package providertest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// PricedByTier checks that the stream function newFn returns for a
// server's URL prices a response's usage at the rates of the model's
// price tier its input exceeds: the server answers every request with
// body as an event stream, and model gets base rates of 1 and a tier
// above 0 tokens of 7 per million input and 11 per million output tokens.
func PricedByTier(t *testing.T, model agentcore.Model, body []byte, newFn func(url string) agentcore.StreamFn) {
	t.Helper()
	srv := ServeBody(t, 200, "text/event-stream", nil, body)
	model.Cost = agentcore.ModelCost{Input: 1, Output: 1, Tiers: []agentcore.ModelCostTier{{InputTokensAbove: 0, Input: 7, Output: 11}}}
	_, final := Collect(newFn(srv.URL)(context.Background(), model, HiRequest(), agentcore.StreamOptions{APIKey: "k"}), nil)
	require.NotNil(t, final)
	require.Positive(t, final.Usage.Input, final.ErrorMessage)
	assert.InDelta(t, 7*float64(final.Usage.Input)/1000000, final.Usage.Cost.Input, 1e-15)
	assert.InDelta(t, 11*float64(final.Usage.Output)/1000000, final.Usage.Cost.Output, 1e-15)
}
