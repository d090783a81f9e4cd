package openai

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// requestTarget is this provider for providertest.
func requestTarget(t *testing.T) providertest.Target {
	model, _ := streamCases(t)
	return providertest.Target{
		New: func(baseURL string, client *http.Client) agentcore.StreamFn {
			return StreamFn(Options{BaseURL: baseURL, HTTPClient: client})
		},
		Model:       model,
		Success:     readTestdata(t, "stream", "text.sse"),
		Refusal:     []byte(`{"error":{"message":"slow down","type":"rate_limit_error"}}`),
		RefusalText: `429: {"message":"slow down","type":"rate_limit_error"}`,
	}
}

func TestRequestOptions(t *testing.T) {
	providertest.RequestOptions(t, requestTarget(t))
}

// TestOnPayloadAsReturned: as pi-ai's openai-completions adapter, a
// replaced body is sent as the hook returned it, "stream" included.
func TestOnPayloadAsReturned(t *testing.T) {
	target := requestTarget(t)
	var rec providertest.Recorder
	fn := rec.Serve(t, target, 200, nil, target.Success)
	target.Final(t, fn, agentcore.StreamOptions{
		OnPayload: func(context.Context, agentcore.Model, json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(`{"model":"m","stream":false}`), nil
		},
	})
	_, bodies := rec.Requests()
	require.Len(t, bodies, 1)
	assert.Equal(t, `{"model":"m","stream":false}`, string(bodies[0]))
}
