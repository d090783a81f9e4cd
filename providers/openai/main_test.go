package openai

import (
	"net/http"
	"net/http/httptest"
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
// pi-ai 1.5.2 was recorded with (testdata/stream; recorded by
// internal/provider/providertest/oracle/record.mjs).
func testTarget(t testing.TB) providertest.Target {
	model, _ := providertest.StreamCases(t)
	return providertest.Target{
		New:            newStream,
		Model:          model,
		APIKey:         "sk-test",
		Success:        providertest.ReadTestdata(t, "stream", "text.sse"),
		FirstDelta:     2,
		Refusal:        []byte(`{"error":{"message":"slow down","type":"rate_limit_error"}}`),
		RefusalText:    `429: {"message":"slow down","type":"rate_limit_error"}`,
		RefusalSDKText: "429 slow down",
		WithLimits: func(client *http.Client, l providertest.Limits) agentcore.StreamFn {
			return StreamFn(Options{BaseURL: "http://provider.test", HTTPClient: client, MaxResponseBytes: l.MaxResponseBytes, IdleTimeout: l.IdleTimeout})
		},
		ToolCallHead: []byte(`data: {"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"write","arguments":""}}]}}]}` + "\n\n"),
		ArgumentsEvent: func(piece string) []byte {
			return []byte(`data: {"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":` + providertest.Quote(piece) + `}}]}}]}` + "\n\n")
		},
		ToolCallTail: []byte(`data: {"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n"),
	}
}

// newStream returns a stream function for a server at baseURL, whose API
// root is baseURL + "/v1" as in the recordings.
func newStream(baseURL string, client *http.Client) agentcore.StreamFn {
	return StreamFn(Options{BaseURL: baseURL + "/v1", HTTPClient: client})
}

// streamFrom returns a stream function for srv.
func streamFrom(srv *httptest.Server) agentcore.StreamFn {
	return newStream(srv.URL, srv.Client())
}
