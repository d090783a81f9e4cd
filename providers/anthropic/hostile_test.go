package anthropic

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// TestHostileServers checks the provider against servers that try to do
// it harm (see providertest.Hostile).
func TestHostileServers(t *testing.T) { providertest.Hostile(t, testTarget(t)) }

// TestUsageOutOfRange: token counts a server reports out of range are
// clamped to 0…MaxInt64, their total saturates, and no cost is negative.
func TestUsageOutOfRange(t *testing.T) {
	const max = math.MaxInt64
	tests := []struct {
		name, start, delta string
		want               agentcore.Usage // counts only
	}{
		{name: "negative and huge at the start",
			start: `{"input_tokens":-99999999999999999999,"output_tokens":1e300,"cache_read_input_tokens":-7,"cache_creation_input_tokens":5,"cache_creation":{"ephemeral_1h_input_tokens":-3}}`,
			delta: `{}`,
			want:  agentcore.Usage{Output: max, CacheWrite: 5, CacheWrite1h: new(int64(0)), TotalTokens: max}},
		{name: "negative and huge in the delta",
			start: `{"input_tokens":10,"output_tokens":1}`,
			delta: `{"input_tokens":1e300,"output_tokens":-99999999999999999999,"cache_read_input_tokens":1e300,"cache_creation_input_tokens":-1,"cache_creation":{"ephemeral_1h_input_tokens":1e300},"output_tokens_details":{"thinking_tokens":-4}}`,
			want:  agentcore.Usage{Input: max, CacheRead: max, CacheWrite1h: new(int64(max)), Reasoning: new(int64(0)), TotalTokens: max}},
		{name: "1h writes beyond all writes",
			start: `{"input_tokens":1,"output_tokens":1,"cache_creation_input_tokens":2,"cache_creation":{"ephemeral_1h_input_tokens":9}}`,
			delta: `{}`,
			want:  agentcore.Usage{Input: 1, Output: 1, CacheWrite: 2, CacheWrite1h: new(int64(9)), TotalTokens: 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"usage\":" + tt.start + "}}\n\n" +
				"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":" + tt.delta + "}\n\n" +
				"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
			testTarget(t).Usage(t, []byte(body), tt.want)
		})
	}
}

// TestErrorTextsBounded: a malformed event's data is cut to its first
// 4000 characters in the error text, pi-ai's form kept; any failure text
// (an error event's data, say) is cut to 16000.
func TestErrorTextsBounded(t *testing.T) {
	big := strings.Repeat("é", 100000) // 200 KB
	t.Run("malformed event", func(t *testing.T) {
		data := `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"` + big
		body := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"usage\":{}}}\n\n" +
			"event: content_block_delta\ndata: " + data + "\n\n"
		srv := providertest.ServeBody(t, 200, "text/event-stream", nil, []byte(body))
		_, final := testTarget(t).Run(t, t.Context(), streamFrom(srv), nil)
		require.Equal(t, agentcore.StopError, final.StopReason)
		prefix, rest, ok := strings.Cut(final.ErrorMessage, "; data=")
		require.True(t, ok, final.ErrorMessage[:min(len(final.ErrorMessage), 300)])
		assert.True(t, strings.HasPrefix(prefix, MalformedEventPrefix+" content_block_delta: "), prefix)
		runes := []rune(data)
		assert.Equal(t, string(runes[:4000])+fmt.Sprintf("... [truncated %d chars]", len(runes)-4000), rest)
	})
	t.Run("error event", func(t *testing.T) {
		body := "event: error\ndata: " + big + "\n\n"
		srv := providertest.ServeBody(t, 200, "text/event-stream", nil, []byte(body))
		_, final := testTarget(t).Run(t, t.Context(), streamFrom(srv), nil)
		require.Equal(t, agentcore.StopError, final.StopReason)
		assert.Equal(t, strings.Repeat("é", 16000)+"... [truncated 84000 chars]", final.ErrorMessage)
		assert.Equal(t, final.ErrorMessage, final.Err.Error())
	})
}

// TestUsageCounts: every token count is read by the one rule of
// providertest's count table, 1e400 included, at the start and in the
// delta.
func TestUsageCounts(t *testing.T) {
	testTarget(t).Counts(t, func(c string) string {
		usage := strings.ReplaceAll(`{"input_tokens":#,"output_tokens":#,"cache_read_input_tokens":#,"cache_creation_input_tokens":#,"cache_creation":{"ephemeral_1h_input_tokens":#}}`, "#", c)
		delta := strings.ReplaceAll(`{"output_tokens":#,"output_tokens_details":{"thinking_tokens":#}}`, "#", c)
		return "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"usage\":" + usage + "}}\n\n" +
			"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":" + delta + "}\n\n" +
			"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	}, func(u agentcore.Usage) int64 { return u.Output })
}
