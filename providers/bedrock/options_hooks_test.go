package bedrock

import (
	"testing"

	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// TestRequestOptions checks the request options every provider honors
// (OnPayload, OnResponse, OnProviderStreamEvent, Identity, MaxRetries,
// Timeout): see providertest.RequestOptions.
func TestRequestOptions(t *testing.T) { providertest.RequestOptions(t, testTarget(t)) }
