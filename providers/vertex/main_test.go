package vertex

import (
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
	return providertest.Gemini(t, providertest.Target{
		New:    newStream,
		Model:  model,
		APIKey: testKey,
		WithLimits: func(client *http.Client, l providertest.Limits) agentcore.StreamFn {
			return StreamFn(Options{BaseURL: "http://provider.test", HTTPClient: client, MaxResponseBytes: l.MaxResponseBytes, IdleTimeout: l.IdleTimeout, Getenv: providertest.NoEnv})
		},
	}, google.MalformedChunkPrefix, google.FetchFailedPrefix)
}

// newStream returns a stream function for a server at baseURL, under the
// API root the recordings used.
func newStream(baseURL string, client *http.Client) agentcore.StreamFn {
	return StreamFn(Options{BaseURL: baseURL + "/v1", HTTPClient: client, Getenv: providertest.NoEnv})
}
