package openairesponses

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
// clamped to 0…MaxInt64 and no cost is negative.
func TestUsageOutOfRange(t *testing.T) {
	const max = math.MaxInt64
	cases := []providertest.UsageCase{
		{Name: "negative and huge",
			Usage: `{"input_tokens":10,"output_tokens":-99999999999999999999,"total_tokens":-5,"input_tokens_details":{"cached_tokens":-7},"output_tokens_details":{"reasoning_tokens":1e300}}`,
			Want:  agentcore.Usage{Input: 10, Reasoning: new(int64(max))}},
		{Name: "every count huge",
			Usage: `{"input_tokens":1e300,"output_tokens":1e300,"total_tokens":1e300,"input_tokens_details":{"cached_tokens":1e300,"cache_write_tokens":1e300}}`,
			Want:  agentcore.Usage{Output: max, CacheRead: max, CacheWrite: max, Reasoning: new(int64(0)), TotalTokens: max}},
		{Name: "cached beyond the input",
			Usage: `{"input_tokens":5,"output_tokens":1,"total_tokens":6,"input_tokens_details":{"cached_tokens":9e18,"cache_write_tokens":9e18}}`,
			Want:  agentcore.Usage{Output: 1, CacheRead: 9e18, CacheWrite: 9e18, Reasoning: new(int64(0)), TotalTokens: 6}},
	}
	testTarget(t).UsageCases(t, func(usage string) string {
		return "event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"id\":\"msg_1\",\"type\":\"message\",\"content\":[]}}\n\n" +
			"event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"output_index\":0,\"delta\":\"ok\"}\n\n" +
			"event: response.output_item.done\ndata: {\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":{\"id\":\"msg_1\",\"type\":\"message\",\"content\":[{\"type\":\"output_text\",\"text\":\"ok\"}]}}\n\n" +
			"event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_1\",\"status\":\"completed\",\"output\":[],\"usage\":" + usage + "}}\n\n"
	}, cases)
}

// TestErrorTextsBounded: any failure text (an error the server sent in
// the stream, a status it named) is cut to 16000 characters.
func TestErrorTextsBounded(t *testing.T) {
	big := strings.Repeat("é", 100000) // 200 KB
	tests := []struct {
		name, body, want string
	}{
		{name: "error event",
			body: "event: error\ndata: {\"type\":\"error\",\"code\":\"boom\",\"message\":\"" + big + "\"}\n\n",
			want: strings.Repeat("é", 16000) + "... [truncated 84000 chars]"},
		{name: "error field",
			body: "event: response.created\ndata: {\"type\":\"response.created\",\"error\":{\"message\":\"" + big + "\"}}\n\n",
			want: strings.Repeat("é", 16000) + "... [truncated 84000 chars]"},
		{name: "failed response",
			body: "event: response.failed\ndata: {\"type\":\"response.failed\",\"response\":{\"status\":\"failed\",\"error\":{\"code\":\"x\",\"message\":\"" + big + "\"}}}\n\n",
			want: "x: " + strings.Repeat("é", 16000-3) + "... [truncated 84003 chars]"},
		{name: "unknown status",
			body: "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"status\":\"" + big + "\",\"output\":[]}}\n\n",
			want: "Unhandled stop reason: " + strings.Repeat("é", 16000-23) + "... [truncated 84023 chars]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.ServeBody(t, 200, "text/event-stream", nil, []byte(tt.body))
			_, final := testTarget(t).Run(t, t.Context(), streamFrom(srv), nil)
			require.Equal(t, agentcore.StopError, final.StopReason)
			assert.Equal(t, tt.want, final.ErrorMessage)
			assert.Equal(t, final.ErrorMessage, final.Err.Error())
		})
	}
}

// TestUsageCounts: every token count is read by the one rule of
// providertest's count table, 1e400 included (Azure shares this codec).
func TestUsageCounts(t *testing.T) {
	testTarget(t).Counts(t, func(c string) string {
		usage := strings.ReplaceAll(`{"input_tokens":#,"output_tokens":#,"total_tokens":#,"input_tokens_details":{"cached_tokens":#,"cache_write_tokens":#},"output_tokens_details":{"reasoning_tokens":#}}`, "#", c)
		return "event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"id\":\"msg_1\",\"type\":\"message\",\"content\":[]}}\n\n" +
			"event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_1\",\"status\":\"completed\",\"output\":[],\"usage\":" + usage + "}}\n\n"
	}, func(u agentcore.Usage) int64 { return u.Output })
}
