package vertex

import (
	"encoding/json"
	"net/http"
	"testing"

	"go.uber.org/goleak"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
	"github.com/pi-go/agentcore/providers/google"
)

// TestMain fails the package when a test leaves a goroutine behind.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// testKey is the key pi-ai 1.6.0 was recorded with.
const testKey = "test-vertex-key"

// testTarget is this provider for providertest, with the model and key
// pi-ai 1.6.0 was recorded with (testdata/stream; recorded by
// internal/provider/providertest/oracle/record.mjs vertex).
func testTarget(t testing.TB) providertest.Target {
	model, _ := providertest.StreamCases(t)
	return providertest.Target{
		New:         newStream,
		Model:       model,
		APIKey:      testKey,
		Success:     providertest.ReadTestdata(t, "stream", "text.sse"),
		FirstDelta:  1, // the first chunk holds "Hello"
		Refusal:     []byte(`{"error":{"code":429,"message":"slow down","status":"RESOURCE_EXHAUSTED"}}`),
		RefusalText: `{"error":{"code":429,"message":"slow down","status":"RESOURCE_EXHAUSTED"}}`,
		ErrorText:   providertest.GeminiErrorText(google.MalformedChunkPrefix, google.FetchFailedPrefix),
		ToolCallID:  providertest.GeminiToolCallID,
		BodyMark:    `"contents":[{"parts":[{"text":"Hi"}],"role":"user"}]`,
		WithLimits: func(client *http.Client, l providertest.Limits) agentcore.StreamFn {
			return StreamFn(Options{BaseURL: "http://provider.test", HTTPClient: client, MaxResponseBytes: l.MaxResponseBytes, IdleTimeout: l.IdleTimeout, Getenv: noEnv})
		},
		WholeToolCalls: true, // Gemini sends a function call whole: the pieces are text
		ArgumentsEvent: textEvent,
		ToolCallTail:   []byte(`data: {"candidates":[{"content":{"parts":[],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":1,"candidatesTokenCount":1,"totalTokenCount":2}}` + "\n\n"),
	}
}

// noEnv is an empty environment.
func noEnv(string) string { return "" }

// textEvent is the event of a text part holding text.
func textEvent(text string) []byte {
	b, _ := json.Marshal(text)
	return []byte(`data: {"candidates":[{"content":{"parts":[{"text":` + string(b) + `}],"role":"model"},"index":0}],"responseId":"r"}` + "\n\n")
}

// newStream returns a stream function for a server at baseURL, under the
// API root the recordings used.
func newStream(baseURL string, client *http.Client) agentcore.StreamFn {
	return StreamFn(Options{BaseURL: baseURL + "/v1", HTTPClient: client, Getenv: noEnv})
}
