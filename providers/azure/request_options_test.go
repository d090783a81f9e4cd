package azure

import (
	"testing"

	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// TestRequestOptions checks the request options of agentcore.StreamOptions
// (see providertest.RequestOptions).
func TestRequestOptions(t *testing.T) { providertest.RequestOptions(t, testTarget(t)) }
