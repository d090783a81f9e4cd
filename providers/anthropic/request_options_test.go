package anthropic

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

// TestOnPayloadKeepsStreaming: as pi-ai's Anthropic adapter, a replaced
// body is sent with "stream": true, in place or last.
func TestOnPayloadKeepsStreaming(t *testing.T) {
	target := testTarget(t)
	for _, tc := range []struct{ name, replacement, want string }{
		{"in place", `{"model":"m","stream":false,"max_tokens":10}`, `{"model":"m","stream":true,"max_tokens":10}`},
		{"last", `{"model":"m","max_tokens":10}`, `{"model":"m","max_tokens":10,"stream":true}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rec providertest.Recorder
			fn := rec.Serve(t, target, 200, nil, target.Success)
			final := target.Final(t, fn, agentcore.StreamOptions{
				OnPayload: func(context.Context, agentcore.Model, json.RawMessage) (json.RawMessage, error) {
					return json.RawMessage(tc.replacement), nil
				},
			})
			require.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
			_, bodies := rec.Requests()
			require.Len(t, bodies, 1)
			assert.Equal(t, tc.want, string(bodies[0]))
		})
	}
}
