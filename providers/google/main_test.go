package google

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// TestMain fails the package when a test leaves a goroutine behind.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// testTarget is this provider for providertest, with the model and key
// pi-ai 1.6.0 was recorded with (testdata/stream; recorded by
// internal/provider/providertest/oracle/record.mjs).
func testTarget(t testing.TB) providertest.Target {
	model, _ := providertest.StreamCases(t)
	return providertest.Target{
		New:         newStream,
		Model:       model,
		APIKey:      "test-gemini-key",
		Success:     providertest.ReadTestdata(t, "stream", "text.sse"),
		FirstDelta:  1, // the first chunk holds "Hello"
		Refusal:     []byte(`{"error":{"code":429,"message":"slow down","status":"RESOURCE_EXHAUSTED"}}`),
		RefusalText: `{"error":{"code":429,"message":"slow down","status":"RESOURCE_EXHAUSTED"}}`,
		ErrorText:   normalizeErrorMessage,
		ToolCallID:  normalizeToolCallIDs,
		BodyMark:    `"contents":[{"parts":[{"text":"Hi"}],"role":"user"}]`,
		WithLimits: func(client *http.Client, l providertest.Limits) agentcore.StreamFn {
			return StreamFn(Options{BaseURL: "http://provider.test", HTTPClient: client, MaxResponseBytes: l.MaxResponseBytes, IdleTimeout: l.IdleTimeout})
		},
		WholeToolCalls: true, // Gemini sends a function call whole: the pieces are text
		ArgumentsEvent: textEvent,
		ToolCallTail:   []byte(`data: {"candidates":[{"content":{"parts":[],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":1,"candidatesTokenCount":1,"totalTokenCount":2}}` + "\n\n"),
	}
}

// textEvent is the event of a text part holding text.
func textEvent(text string) []byte {
	return []byte(`data: {"candidates":[{"content":{"parts":[{"text":` + quote(text) + `}],"role":"model"},"index":0}],"responseId":"r"}` + "\n\n")
}

// quote is s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// newStream returns a stream function for a server at baseURL, under the
// API root the recordings used.
func newStream(baseURL string, client *http.Client) agentcore.StreamFn {
	return StreamFn(Options{BaseURL: baseURL + "/v1beta", HTTPClient: client})
}

// javaScriptParseError matches the words of V8's JSON.parse errors.
var javaScriptParseError = regexp.MustCompile(`^(Unexpected (end of JSON input|token|non-whitespace)|Expected |Bad (control|escaped|Unicode)|Unterminated)`)

// normalizeErrorMessage replaces the parts of an error text that differ
// between JavaScript and Go: the parser's words for a malformed chunk and
// the platform's reason for a failed connection.
func normalizeErrorMessage(s string) string {
	switch {
	case strings.HasPrefix(s, MalformedChunkPrefix), javaScriptParseError.MatchString(s):
		return "<malformed chunk>"
	case strings.HasPrefix(s, FetchFailedPrefix):
		return FetchFailedPrefix + "<reason>"
	}
	return s
}

// madeUpID matches a tool-call ID made up from the clock and a counter.
var madeUpID = regexp.MustCompile(`_\d{13}_\d+$`)

// normalizeToolCallIDs replaces the clock and counter of a made-up ID.
func normalizeToolCallIDs(id string) string {
	return madeUpID.ReplaceAllString(id, "_<time>_<n>")
}
