package openai

import (
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
		name, usage string
		want        agentcore.Usage // counts only
	}{
		{name: "negative and huge", usage: `{"prompt_tokens":10,"completion_tokens":-99999999999999999999,"prompt_tokens_details":{"cached_tokens":-7},"completion_tokens_details":{"reasoning_tokens":1e300}}`,
			want: agentcore.Usage{Input: 10, Reasoning: new(int64(max)), TotalTokens: 10}},
		{name: "every count huge", usage: `{"prompt_tokens":1e300,"completion_tokens":1e300,"prompt_tokens_details":{"cached_tokens":1e300,"cache_write_tokens":1e300}}`,
			want: agentcore.Usage{Output: max, CacheRead: max, CacheWrite: max, Reasoning: new(int64(0)), TotalTokens: max}},
		{name: "cached beyond the prompt", usage: `{"prompt_tokens":5,"completion_tokens":1,"prompt_tokens_details":{"cached_tokens":9e18,"cache_write_tokens":9e18}}`,
			want: agentcore.Usage{Output: 1, CacheRead: 9e18, CacheWrite: 9e18, Reasoning: new(int64(0)), TotalTokens: max}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := `data: {"id":"c","choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}` + "\n\n" +
				`data: {"id":"c","choices":[],"usage":` + tt.usage + "}\n\ndata: [DONE]\n\n"
			testTarget(t).Usage(t, []byte(body), tt.want)
		})
	}
}

// TestErrorTextsBounded: any failure text (an error the server sent in
// the stream, say) is cut to 16000 characters.
func TestErrorTextsBounded(t *testing.T) {
	big := strings.Repeat("é", 100000) // 200 KB
	body := `data: {"error":{"message":"` + big + `"}}` + "\n\n"
	srv := providertest.ServeBody(t, 200, "text/event-stream", nil, []byte(body))
	_, final := testTarget(t).Run(t, t.Context(), streamFrom(srv), nil)
	require.Equal(t, agentcore.StopError, final.StopReason)
	assert.Equal(t, strings.Repeat("é", 16000)+"... [truncated 84000 chars]", final.ErrorMessage)
	assert.Equal(t, final.ErrorMessage, final.Err.Error())
}

// TestUsageCounts: every token count is read by the one rule of
// providertest's count table, 1e400 included.
func TestUsageCounts(t *testing.T) {
	testTarget(t).Counts(t, func(c string) string {
		usage := strings.ReplaceAll(`{"prompt_tokens":#,"completion_tokens":#,"prompt_cache_hit_tokens":#,"cached_tokens":#,"reasoning_tokens":#,"prompt_tokens_details":{"cached_tokens":#,"cache_write_tokens":#},"completion_tokens_details":{"reasoning_tokens":#}}`, "#", c)
		return `data: {"id":"c","choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}` + "\n\n" +
			`data: {"id":"c","choices":[],"usage":` + usage + "}\n\ndata: [DONE]\n\n"
	}, func(u agentcore.Usage) int64 { return u.Output })
}
