package mistral

import (
	"encoding/json"
	"net/http"
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

// testKey is the key pi-ai 1.6.0 was recorded with.
const testKey = "mistral-test-key"

// testTarget is this provider for providertest, with the model and key
// pi-ai 1.6.0 was recorded with (testdata/stream; recorded by
// internal/provider/providertest/oracle/record.mjs mistral).
func testTarget(t testing.TB) providertest.Target {
	model, _ := providertest.StreamCases(t)
	return providertest.Target{
		New:         newStream,
		Model:       model,
		APIKey:      testKey,
		Success:     providertest.ReadTestdata(t, "stream", "text.sse"),
		FirstDelta:  2,
		Refusal:     []byte(`{"object":"error","message":"slow down","type":"rate_limited"}`),
		RefusalText: `Mistral API error (429): {"object":"error","message":"slow down","type":"rate_limited"}`,
		ErrorText:   normalizeErrorText,
		WithLimits: func(client *http.Client, l providertest.Limits) agentcore.StreamFn {
			return StreamFn(Options{BaseURL: "http://provider.test", HTTPClient: client, MaxResponseBytes: l.MaxResponseBytes, IdleTimeout: l.IdleTimeout})
		},
		ToolCallHead: []byte(chunkEvent(`{"role":"assistant","content":""}`, "") + chunkEvent(`{"tool_calls":[{"id":"call00001","function":{"name":"write","arguments":""},"index":0}]}`, "")),
		ArgumentsEvent: func(piece string) []byte {
			b, _ := json.Marshal(piece)
			return []byte(chunkEvent(`{"tool_calls":[{"function":{"name":"write","arguments":`+string(b)+`},"index":0}]}`, ""))
		},
		ToolCallTail: []byte(chunkEvent(`{}`, `"tool_calls"`) + "data: [DONE]\n\n"),
	}
}

// chunkEvent is the event of a chunk with delta and finish reason (JSON;
// empty means null).
func chunkEvent(delta, finish string) string {
	if finish == "" {
		finish = "null"
	}
	return `data: {"id":"cmpl-1","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + finish + `}]}` + "\n\n"
}

// normalizeErrorText replaces the parts of an error text that differ
// between JavaScript and Go: the parser's words for a malformed chunk and
// the platform's reason for a failed connection or a body cut off (which
// pi-ai's Mistral adapter leaves out).
func normalizeErrorText(s string) string {
	switch {
	case strings.HasPrefix(s, MalformedChunkPrefix), providertest.IsJavaScriptParseError(s):
		return "<malformed chunk>"
	case strings.HasPrefix(s, FetchFailedText):
		return FetchFailedText
	case s == "terminated": // pi-ai gives no reason
		return "terminated: <reason>"
	}
	return s
}

// newStream returns a stream function for a server at baseURL.
func newStream(baseURL string, client *http.Client) agentcore.StreamFn {
	return StreamFn(Options{BaseURL: baseURL, HTTPClient: client})
}
