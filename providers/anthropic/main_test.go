package anthropic

import (
	"net/http"
	"net/http/httptest"
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
		APIKey:      "sk-ant-test",
		Success:     providertest.ReadTestdata(t, "stream", "text.sse"),
		FirstDelta:  4, // message_start, the text block's start, a ping, the first delta
		Refusal:     []byte(`{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`),
		RefusalText: `429 {"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`,
		ErrorText:   normalizeErrorMessage,
		Observed:    func(name string) bool { return messageEvents[name] },
		WithLimits: func(client *http.Client, l providertest.Limits) agentcore.StreamFn {
			return StreamFn(Options{BaseURL: "http://provider.test", HTTPClient: client, MaxResponseBytes: l.MaxResponseBytes, IdleTimeout: l.IdleTimeout})
		},
		ToolCallHead: []byte("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"usage\":{}}}\n\n" +
			"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"write\",\"input\":{}}}\n\n"),
		ArgumentsEvent: func(piece string) []byte {
			return []byte("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":" + providertest.Quote(piece) + "}}\n\n")
		},
		ToolCallTail: []byte("event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
			"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},\"usage\":{}}\n\n" +
			"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"),
	}
}

// newStream returns a stream function for a server at baseURL.
func newStream(baseURL string, client *http.Client) agentcore.StreamFn {
	return StreamFn(Options{BaseURL: baseURL, HTTPClient: client})
}

// streamFrom returns a stream function for srv.
func streamFrom(srv *httptest.Server) agentcore.StreamFn {
	return newStream(srv.URL, srv.Client())
}

// normalizeErrorMessage replaces the parser's reason for a malformed event
// in an error text, which differs between JavaScript and Go (the data must
// match).
func normalizeErrorMessage(s string) string {
	if !strings.HasPrefix(s, MalformedEventPrefix) {
		return s
	}
	data := s[strings.Index(s, "; data=")+len("; data="):]
	if i := strings.Index(data, "; raw="); i >= 0 {
		data = data[:i]
	}
	return MalformedEventPrefix + " <reason>; data=" + data
}
