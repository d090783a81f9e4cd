package anthropic

import (
	"testing"

	"github.com/stretchr/testify/assert"

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
			assert.Equal(t, tc.want, target.SentPayload(t, tc.replacement))
		})
	}
}
