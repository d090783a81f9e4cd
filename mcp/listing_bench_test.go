package agentmcp_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	agentmcp "github.com/pi-go/agentcore/mcp"
)

// BenchmarkListOnePage connects to a server listing 100,000 tools (about
// 11 MB) in one page; retained-B is the heap the Toolset holds once
// connected, listing-B the listing's size.
func BenchmarkListOnePage(b *testing.B) {
	const n = 100_000
	page := toolsPage(0, n, "")
	transport := serveRaw(b, func(string) []byte { return page })
	b.ReportAllocs()
	var before, after runtime.MemStats
	for b.Loop() {
		runtime.GC()
		runtime.ReadMemStats(&before)
		ts, err := agentmcp.Connect(context.Background(), []agentmcp.Server{{Name: "many", Transport: transport}}, &agentmcp.Options{MaxTools: n})
		require.NoError(b, err)
		runtime.GC()
		runtime.ReadMemStats(&after)
		require.Len(b, ts.Tools(), n)
		require.NoError(b, ts.Close())
	}
	b.ReportMetric(float64(after.HeapAlloc)-float64(before.HeapAlloc), "retained-B")
	b.ReportMetric(float64(len(page)), "listing-B")
}
