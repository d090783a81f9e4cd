package vertex

import (
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// TestUsageIsPricedByTier checks that a response's usage is priced at the
// rates of the model's price tier its input exceeds.
func TestUsageIsPricedByTier(t *testing.T) {
	model := agentcore.Model{ID: "gemini-2.5-flash", Provider: "google-vertex", API: "google-vertex"}
	providertest.PricedByTier(t, model, providertest.ReadTestdata(t, "stream", "text.sse"), func(url string) agentcore.StreamFn {
		return StreamFn(Options{BaseURL: url, Getenv: func(string) string { return "" }})
	})
}
