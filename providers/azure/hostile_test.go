package azure

import (
	"testing"

	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// TestHostileServers checks the provider against servers that try to do
// it harm (see providertest.Hostile).
func TestHostileServers(t *testing.T) { providertest.Hostile(t, testTarget(t)) }
