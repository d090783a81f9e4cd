package openairesponses

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pi-go/agentcore/internal/provider/providertest"
)

func TestRequestOptions(t *testing.T) {
	providertest.RequestOptions(t, testTarget(t))
}

// TestOnPayloadAsReturned: as pi-ai's openai-responses adapter, a
// replaced body is sent as the hook returned it, "stream" included.
func TestOnPayloadAsReturned(t *testing.T) {
	assert.Equal(t, `{"model":"m","stream":false}`, testTarget(t).SentPayload(t, `{"model":"m","stream":false}`))
}
