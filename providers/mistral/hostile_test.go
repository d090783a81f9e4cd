package mistral

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

// TestErrorTextsBounded: a refusal quotes at most 4000 characters of
// the body a server sent, as pi-ai cuts it.
func TestErrorTextsBounded(t *testing.T) {
	big := strings.Repeat("é", 100000) // 200 KB
	srv := providertest.ServeBody(t, 400, "application/json", nil, []byte(big))
	_, final := testTarget(t).Run(t, t.Context(), newStream(srv.URL, srv.Client()), nil)
	require.Equal(t, agentcore.StopError, final.StopReason)
	assert.Equal(t, "Mistral API error (400): "+strings.Repeat("é", 4000)+"... [truncated 96000 chars]", final.ErrorMessage)
}

// TestUsageOutOfRange: token counts a server reports out of range are
// clamped to 0…MaxInt64, the cached ones to the prompt's, and no cost is
// negative.
func TestUsageOutOfRange(t *testing.T) {
	const max = math.MaxInt64
	cases := []providertest.UsageCase{
		{Name: "negative and huge",
			Usage: `{"prompt_tokens":10,"completion_tokens":-99999999999999999999,"total_tokens":-5,"num_cached_tokens":-7}`,
			Want:  agentcore.Usage{Input: 10, TotalTokens: 10}},
		{Name: "every count huge",
			Usage: `{"prompt_tokens":1e300,"completion_tokens":1e400,"total_tokens":1e300,"prompt_tokens_details":{"cached_tokens":1e300}}`,
			Want:  agentcore.Usage{Output: max, CacheRead: max, TotalTokens: max}},
		{Name: "cached beyond the prompt",
			Usage: `{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6,"promptTokensDetails":{"cachedTokens":9}}`,
			Want:  agentcore.Usage{Output: 1, CacheRead: 5, TotalTokens: 6}},
	}
	testTarget(t).UsageCases(t, func(usage string) string {
		return chunkEvent(`{"content":"ok"}`, `"stop"`) + `data: {"id":"c","choices":[],"usage":` + usage + "}\n\ndata: [DONE]\n\n"
	}, cases)
}

// TestUsageCounts: every token count is read by the one rule of
// providertest's count table, 1e400 included.
func TestUsageCounts(t *testing.T) {
	testTarget(t).Counts(t, func(c string) string {
		usage := strings.ReplaceAll(`{"prompt_tokens":#,"completion_tokens":#,"total_tokens":#,"num_cached_tokens":#,"prompt_tokens_details":{"cached_tokens":#}}`, "#", c)
		return chunkEvent(`{"content":"ok"}`, `"stop"`) + `data: {"id":"c","choices":[],"usage":` + usage + "}\n\ndata: [DONE]\n\n"
	}, func(u agentcore.Usage) int64 { return u.Output })
}
