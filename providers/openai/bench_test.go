package openai

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

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
	type replyCase struct {
		name   string
		body   []byte
		chunks int
		check  func(b *testing.B, final *agentcore.AssistantMessage)
	}
	blocks := func(n int) func(*testing.B, *agentcore.AssistantMessage) {
		return func(b *testing.B, final *agentcore.AssistantMessage) {
			require.Empty(b, final.ErrorMessage)
			require.Len(b, final.Content, n)
		}
	}
	var cases []replyCase
	for _, n := range []int{2000, 20000} {
		cases = append(cases,
			replyCase{name: fmt.Sprintf("toolcalls=%d", n), body: manyChunksBody(n, true), chunks: n, check: blocks(n)},
			replyCase{name: fmt.Sprintf("textdeltas=%d", n), body: manyChunksBody(n, false), chunks: n, check: blocks(1)})
	}
	cases = append(cases, replyCase{
		name: "line=20MB", chunks: 1,
		body: []byte(`data: {"choices":[{"delta":{"content":"` + strings.Repeat("x", 20<<20) + `"}}]}` + "\n\n"),
		check: func(b *testing.B, final *agentcore.AssistantMessage) {
			require.Equal(b, LineTooLongText, final.ErrorMessage)
		},
	})
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			fn := streamFrom(providertest.ServeBody(b, 200, "text/event-stream", nil, c.body))
			b.ReportAllocs()
			b.SetBytes(int64(len(c.body)))
			for b.Loop() {
				c.check(b, finalMessage(b, fn(context.Background(), agentcore.Model{ID: "m"}, providertest.HiRequest(), agentcore.StreamOptions{})))
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*c.chunks), "ns/chunk")
		})
	}
}

// finalMessage ranges s and returns its final message.
func finalMessage(b *testing.B, s agentcore.AssistantStream) *agentcore.AssistantMessage {
	var final *agentcore.AssistantMessage
	for ev := range s {
		if e, ok := ev.(*agentcore.ErrorEvent); ok {
			final = e.Message
		} else if e, ok := ev.(*agentcore.DoneEvent); ok {
			final = e.Message
		}
	}
	require.NotNil(b, final)
	return final
}
