package azure

import (
	"net/http"
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
const testKey = "azure-test-key"

// testTarget is this provider for providertest, with the model and key
// pi-ai 1.6.0 was recorded with (testdata/stream; recorded by
// internal/provider/providertest/oracle/record.mjs azure).
func testTarget(t testing.TB) providertest.Target {
	model, _ := providertest.StreamCases(t)
	return providertest.Target{
		New:            newStream,
		Model:          model,
		APIKey:         testKey,
		Success:        providertest.ReadTestdata(t, "stream", "text.sse"),
		FirstDelta:     5,
		Refusal:        []byte(`{"error":{"message":"slow down","type":"rate_limit_error"}}`),
		RefusalText:    `Azure OpenAI API error (429): {"message":"slow down","type":"rate_limit_error"}`,
		RefusalSDKText: "429 slow down",
		WithLimits: func(client *http.Client, l providertest.Limits) agentcore.StreamFn {
			return StreamFn(Options{BaseURL: "http://provider.test", HTTPClient: client, MaxResponseBytes: l.MaxResponseBytes, IdleTimeout: l.IdleTimeout, Getenv: providertest.NoEnv})
		},
		ToolCallHead: []byte("event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_1\",\"status\":\"in_progress\",\"output\":[]}}\n\n" +
			"event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"id\":\"fc_1\",\"type\":\"function_call\",\"arguments\":\"\",\"call_id\":\"call_1\",\"name\":\"write\"}}\n\n"),
		ArgumentsEvent: func(piece string) []byte {
			return []byte("event: response.function_call_arguments.delta\ndata: {\"type\":\"response.function_call_arguments.delta\",\"output_index\":0,\"delta\":" + providertest.Quote(piece) + "}\n\n")
		},
		ToolCallTail: []byte("event: response.output_item.done\ndata: {\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":{\"id\":\"fc_1\",\"type\":\"function_call\",\"arguments\":\"\",\"call_id\":\"call_1\",\"name\":\"write\"}}\n\n" +
			"event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_1\",\"status\":\"completed\",\"output\":[],\"usage\":{\"input_tokens\":1,\"output_tokens\":1,\"total_tokens\":2}}}\n\n"),
	}
}

// newStream returns a stream function for a server at baseURL, whose API
// root is baseURL + "/openai/v1" as in the recordings.
func newStream(baseURL string, client *http.Client) agentcore.StreamFn {
	return StreamFn(Options{BaseURL: baseURL + "/openai/v1", HTTPClient: client, Getenv: providertest.NoEnv})
}
