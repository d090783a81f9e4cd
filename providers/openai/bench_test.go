package openai

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// bodyTransport answers every request with one event-stream body, in
// memory.
type bodyTransport []byte

func (b bodyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		_ = r.Body.Close()
	}
	return &http.Response{
		StatusCode: 200, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: io.NopCloser(bytes.NewReader(b)), Request: r,
	}, nil
}

// manyChunksBody is a completion of n chunks: n parallel tool calls (one
// chunk each: index, id, name and arguments), or n text deltas.
func manyChunksBody(n int, calls bool) []byte {
	var b strings.Builder
	for i := range n {
		if calls {
			fmt.Fprintf(&b, `data: {"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,"id":"call_%d","type":"function","function":{"name":"read","arguments":"{\"path\":\"file-%d.txt\"}"}}]}}]}`+"\n\n", i, i, i)
		} else {
			fmt.Fprintf(&b, `data: {"id":"c","choices":[{"index":0,"delta":{"content":"word %d "}}]}`+"\n\n", i)
		}
	}
	reason := "stop"
	if calls {
		reason = "tool_calls"
	}
	fmt.Fprintf(&b, `data: {"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"%s"}]}`+"\n\n", reason)
	b.WriteString(`data: {"id":"c","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":20}}` + "\n\ndata: [DONE]\n\n")
	return []byte(b.String())
}

// BenchmarkReply ranges a streamed completion directly: n tool calls (n
// content blocks), n text deltas, and one 20 MB line (refused at the
// 16 MiB line limit, in bounded memory). The cost per chunk must not
// grow with n.
func BenchmarkReply(b *testing.B) {
	for _, calls := range []bool{true, false} {
		for _, n := range []int{2000, 20000} {
			kind, blocks := "toolcalls", n
			if !calls {
				kind, blocks = "textdeltas", 1
			}
			b.Run(fmt.Sprintf("%s=%d", kind, n), func(b *testing.B) {
				body := manyChunksBody(n, calls)
				fn := StreamFn(Options{BaseURL: "http://openai.invalid/v1", HTTPClient: &http.Client{Transport: bodyTransport(body)}})
				b.ReportAllocs()
				b.SetBytes(int64(len(body)))
				for b.Loop() {
					final := rangeReply(b, fn)
					require.Empty(b, final.ErrorMessage)
					require.Len(b, final.Content, blocks)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/chunk")
			})
		}
	}
	b.Run("line=20MB", func(b *testing.B) {
		body := []byte(`data: {"choices":[{"delta":{"content":"` + strings.Repeat("x", 20<<20) + `"}}]}` + "\n\n")
		fn := StreamFn(Options{BaseURL: "http://openai.invalid/v1", HTTPClient: &http.Client{Transport: bodyTransport(body)}})
		b.ReportAllocs()
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			require.Equal(b, LineTooLongText, rangeReply(b, fn).ErrorMessage)
		}
	})
}

// rangeReply ranges one response of fn and returns its final message.
func rangeReply(b *testing.B, fn agentcore.StreamFn) *agentcore.AssistantMessage {
	var final *agentcore.AssistantMessage
	for ev := range fn(context.Background(), agentcore.Model{ID: "m"}, hiRequest(), agentcore.StreamOptions{}) {
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
