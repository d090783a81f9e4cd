package openai

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

func TestRequestOptions(t *testing.T) {
	providertest.RequestOptions(t, testTarget(t))
}

// TestOnPayloadAsReturned: as pi-ai's openai-completions adapter, a
// replaced body is sent as the hook returned it, "stream" included.
func TestOnPayloadAsReturned(t *testing.T) {
	target := testTarget(t)
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
