package azure

import (
	"testing"

	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// BenchmarkDecode streams a response of reasoning, a tool call and text
// through the codec this package configures (see providertest's
// Target.BenchmarkDecode).
func BenchmarkDecode(b *testing.B) {
	testTarget(b).BenchmarkDecode(b, providertest.ReadTestdata(b, "stream", "tool-calls-parallel.sse"))
}
