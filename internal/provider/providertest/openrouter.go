package providertest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// OpenRouterCost serves body, a response whose usage reports the cost
// OpenRouter billed, to the target's model served through OpenRouter and
// to the model as it is, each in a subtest: through OpenRouter the total
// is billed, from the provider; otherwise it stays computed.
func (target Target) OpenRouterCost(t *testing.T, body []byte, billed, computed float64) {
	for _, tt := range []struct {
		provider string
		total    float64
		billed   bool
	}{{"openrouter", billed, true}, {target.Model.Provider, computed, false}} {
		t.Run(tt.provider, func(t *testing.T) {
			srv := ServeBody(t, 200, "text/event-stream", nil, body)
			model := target.Model
			model.Provider = tt.provider
			_, final := Collect(target.New(srv.URL, srv.Client())(t.Context(), model, HiRequest(), agentcore.StreamOptions{APIKey: target.APIKey}), nil)
			require.NotNil(t, final)
			require.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
			assert.InDelta(t, tt.total, final.Usage.Cost.Total, 1e-12)
			assert.Equal(t, tt.billed, *final.Usage.Cost.TotalFromProvider)
		})
	}
}
