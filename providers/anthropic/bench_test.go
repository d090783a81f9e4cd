package anthropic

import (
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// BenchmarkDecode streams the parallel tool-call response through an
// in-memory transport: request building, event decoding and argument
// previews, without a network.
func BenchmarkDecode(b *testing.B) {
	body := providertest.ReadTestdata(b, "stream", "tool-calls-parallel.sse")
	model, _ := providertest.StreamCases(b)
	fn := StreamFn(Options{APIKey: "k", BaseURL: "http://bench.invalid", HTTPClient: providertest.BodyClient(body)})
	b.ReportAllocs()
	for b.Loop() {
		for ev := range fn(b.Context(), model, providertest.HiRequest(), agentcore.StreamOptions{}) {
			if e, ok := ev.(*agentcore.ErrorEvent); ok {
				b.Fatal(e.Message.ErrorMessage)
			}
		}
	}
}
