package agentcore_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// manyBlocksBody is a proxied answer of n text blocks (start, delta, end)
// or, with calls, of n tool calls (start, an arguments delta, end without
// the call, so that the client parses the streamed arguments).
func manyBlocksBody(n int, calls bool) []byte {
	var b strings.Builder
	ev := func(format string, args ...any) { b.WriteString("data: " + fmt.Sprintf(format, args...) + "\n\n") }
	ev(`{"type":"start"}`)
	for i := range n {
		if calls {
			ev(`{"type":"toolcall_start","contentIndex":%d,"id":"call_%d","toolName":"read"}`, i, i)
			ev(`{"type":"toolcall_delta","contentIndex":%d,"delta":"{\"path\":\"file-%d.txt\"}"}`, i, i)
			ev(`{"type":"toolcall_end","contentIndex":%d}`, i)
		} else {
			ev(`{"type":"text_start","contentIndex":%d}`, i)
			ev(`{"type":"text_delta","contentIndex":%d,"delta":"block %d"}`, i, i)
			ev(`{"type":"text_end","contentIndex":%d}`, i)
		}
	}
	reason := "stop"
	if calls {
		reason = "toolUse"
	}
	ev(`{"type":"done","reason":"%s"}`, reason)
	return []byte(b.String())
}

// BenchmarkProxyReply ranges a proxied reply directly: n text blocks, n
// tool calls, and one 20 MB line (refused at the 16 MiB line limit, in
// bounded memory). The cost per block must not grow with n.
func BenchmarkProxyReply(b *testing.B) {
	for _, calls := range []bool{false, true} {
		for _, n := range []int{2000, 20000} {
			kind := "blocks"
			if calls {
				kind = "toolcalls"
			}
			b.Run(fmt.Sprintf("%s=%d", kind, n), func(b *testing.B) {
				body := manyBlocksBody(n, calls)
				fn := agentcore.StreamProxy(agentcore.ProxyOptions{URL: "http://proxy.invalid", Client: &http.Client{Transport: bodyTransport{body}}})
				b.ReportAllocs()
				b.SetBytes(int64(len(body)))
				for b.Loop() {
					final := rangeProxy(b, fn)
					require.Empty(b, final.ErrorMessage)
					require.Len(b, final.Content, n)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/block")
			})
		}
	}
	b.Run("line=20MB", func(b *testing.B) {
		body := []byte(`data: {"type":"start"}` + "\n\n" + `data: {"type":"text_start","contentIndex":0}` + "\n\n" +
			`data: {"type":"text_delta","contentIndex":0,"delta":"` + strings.Repeat("x", 20<<20) + `"}` + "\n\n")
		fn := agentcore.StreamProxy(agentcore.ProxyOptions{URL: "http://proxy.invalid", Client: &http.Client{Transport: bodyTransport{body}}})
		b.ReportAllocs()
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			require.Equal(b, "sse: line too long", rangeProxy(b, fn).ErrorMessage)
		}
	})
}

// rangeProxy ranges one response of fn and returns its final message.
func rangeProxy(b *testing.B, fn agentcore.StreamFn) *agentcore.AssistantMessage {
	var final *agentcore.AssistantMessage
	for ev := range fn(context.Background(), fixtureModel, agentcore.Request{}, agentcore.StreamOptions{}) {
		switch e := ev.(type) {
		case *agentcore.DoneEvent:
			final = e.Message
		case *agentcore.ErrorEvent:
			final = e.Message
		}
	}
	require.NotNil(b, final)
	return final
}

// BenchmarkProxyResponseCap ranges a 200 MB answer of 1 KiB text deltas,
// which ends at the default 16 MiB cap, and reports the heap's peak.
func BenchmarkProxyResponseCap(b *testing.B) {
	head := proxyEvents(`{"type":"start"}`, `{"type":"text_start","contentIndex":0}`)
	event := proxyEvents(`{"type":"text_delta","contentIndex":0,"delta":"` + strings.Repeat("x", 1<<10) + `"}`)
	fn := proxyOver(agentcore.ProxyOptions{}, func(*http.Request) io.Reader { return newRepeated(head, event, "", 200<<10) })
	b.ReportAllocs()
	var peak uint64
	for b.Loop() {
		final, p := finalWithPeak(fn(context.Background(), fixtureModel, agentcore.Request{}, agentcore.StreamOptions{}))
		require.ErrorIs(b, final.Err, agentcore.ErrResponseTooLarge)
		peak = max(peak, p)
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
}
