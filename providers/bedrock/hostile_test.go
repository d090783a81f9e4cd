package bedrock

import (
	"io"
	"math"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// TestHostileServers checks the provider against servers that try to do
// it harm (see providertest.Hostile): no credential crosses an origin,
// the content cap and the idle timeout hold.
func TestHostileServers(t *testing.T) { providertest.Hostile(t, testTarget(t)) }

// TestUsageOutOfRange: token counts a server reports out of range are
// clamped to 0…MaxInt64, their sums saturate, and no cost is negative.
func TestUsageOutOfRange(t *testing.T) {
	const max = math.MaxInt64
	cases := []providertest.UsageCase{
		{Name: "negative and huge",
			Usage: `{"inputTokens":10,"outputTokens":-99999999999999999999,"cacheReadInputTokens":1e300,"cacheWriteInputTokens":-7,"totalTokens":-5}`,
			Want:  agentcore.Usage{Input: 10, CacheRead: max, TotalTokens: 10}},
		{Name: "every count huge",
			Usage: `{"inputTokens":1e300,"outputTokens":1e300,"cacheReadInputTokens":1e300,"cacheWriteInputTokens":1e300,"totalTokens":1e300,"cacheDetails":[{"ttl":"1h","inputTokens":1e300},{"ttl":"1h","inputTokens":1e300}]}`,
			Want:  agentcore.Usage{Input: max, Output: max, CacheRead: max, CacheWrite: max, CacheWrite1h: new(int64(max)), TotalTokens: max}},
		{Name: "long writes beyond the writes",
			Usage: `{"inputTokens":1,"outputTokens":1,"cacheWriteInputTokens":2,"cacheDetails":[{"ttl":"1h","inputTokens":9}]}`,
			Want:  agentcore.Usage{Input: 1, Output: 1, CacheWrite: 2, CacheWrite1h: new(int64(9)), TotalTokens: 2}},
	}
	testTarget(t).UsageCases(t, func(usage string) string {
		return string(concat(eventFrame("messageStart", `{"role":"assistant"}`),
			eventFrame("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"ok"}}`),
			eventFrame("messageStop", `{"stopReason":"end_turn"}`),
			eventFrame("metadata", `{"usage":`+usage+`}`)))
	}, cases)
}

// TestErrorTextsBounded: an error text quotes at most 4000 characters of
// what a server sent, and any failure text is cut to 16000.
func TestErrorTextsBounded(t *testing.T) {
	big := strings.Repeat("é", 100000) // 200 KB
	cut := func(s string) string { return providertest.Truncated(s, 4000) }
	tests := []struct {
		name        string
		status      int
		contentType string
		header      map[string]string
		body        []byte
		want        string
	}{
		{name: "exception event", status: 200, contentType: "application/vnd.amazon.eventstream",
			body: encodeFrame(`{"message":"`+big+`"}`, ":exception-type", "throttlingException", ":message-type", "exception"),
			want: "Throttling error: " + cut(big)},
		{name: "unknown exception", status: 200, contentType: "application/vnd.amazon.eventstream",
			body: encodeFrame(big, ":exception-type", "newException", ":message-type", "exception"),
			want: cut(big)},
		{name: "error message", status: 200, contentType: "application/vnd.amazon.eventstream",
			body: encodeFrame("", ":error-code", "E", ":error-message", big[:60000], ":message-type", "error"),
			want: cut(big[:60000])},
		{name: "JSON refusal", status: 400, contentType: "application/json", header: map[string]string{"X-Amzn-Errortype": "ValidationException"},
			body: []byte(`{"message":"` + big + `"}`), want: "Validation error: " + cut(big)},
		{name: "text refusal", status: 502, contentType: "text/html", body: []byte(big),
			want: `Unexpected token 'é', "éééééééééé"... is not valid JSON` + deserializationSuffix},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.ServeBody(t, tt.status, tt.contentType, tt.header, tt.body)
			_, final := testTarget(t).Run(t, t.Context(), newStream(srv.URL, srv.Client()), nil)
			require.Equal(t, agentcore.StopError, final.StopReason)
			assert.Equal(t, tt.want, final.ErrorMessage)
			assert.LessOrEqual(t, len([]rune(final.ErrorMessage)), 16100)
		})
	}
}

// TestSignedRedirects: a signed request follows a redirect within its
// origin, signed anew for the new path, and refuses one to another
// origin before its signature goes there (see providertest.Redirects).
func TestSignedRedirects(t *testing.T) {
	env := map[string]string{"AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": "secret-env", "AWS_REGION": "eu-west-1"}
	creds := aws.Credentials{AccessKeyID: "AKIDENV", SecretAccessKey: "secret-env"}
	newSigned := func(base string, client *http.Client) agentcore.StreamFn {
		return StreamFn(Options{BaseURL: base, HTTPClient: client, Getenv: func(k string) string { return env[k] }})
	}
	var verified atomic.Int32
	providertest.Redirects(t, testTarget(t).Model, agentcore.StreamOptions{}, newSigned, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		moved := *r
		moved.URL = &url.URL{Path: "/moved" + r.URL.Path, RawPath: "/moved" + r.URL.EscapedPath()}
		if verifySignature(t, &moved, body, creds, "eu-west-1") {
			verified.Add(1)
		}
		w.Write(testTarget(t).Success)
	})
	assert.Equal(t, int32(2), verified.Load(), "each same-origin redirect is signed for its path")
}

// TestUsageCounts: every token count is read by the one rule of
// providertest's count table, 1e400 included.
func TestUsageCounts(t *testing.T) {
	testTarget(t).Counts(t, func(c string) string {
		usage := strings.ReplaceAll(`{"inputTokens":#,"outputTokens":#,"cacheReadInputTokens":#,"cacheWriteInputTokens":#,"totalTokens":#,"cacheDetails":[{"ttl":"1h","inputTokens":#}]}`, "#", c)
		return string(concat(eventFrame("messageStart", `{"role":"assistant"}`),
			eventFrame("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"ok"}}`),
			eventFrame("messageStop", `{"stopReason":"end_turn"}`),
			eventFrame("metadata", `{"usage":`+usage+`}`)))
	}, func(u agentcore.Usage) int64 { return u.Output })
}
