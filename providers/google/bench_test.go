package google

import (
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// BenchmarkDecode streams the thinking response through an in-memory
// transport: request building, event decoding and the end of the stream,
// without a network.
func BenchmarkDecode(b *testing.B) {
	body := providertest.ReadTestdata(b, "stream", "thought-then-tool.sse")
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
