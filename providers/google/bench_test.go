package google

import (
	"testing"

	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// BenchmarkDecode streams a response of thinking, a tool call and text
// (see providertest's Target.BenchmarkDecode).
func BenchmarkDecode(b *testing.B) {
	testTarget(b).BenchmarkDecode(b, providertest.ReadTestdata(b, "stream", "thought-then-tool.sse"))
}
