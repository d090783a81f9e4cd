package mistral

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// TestHostileServers checks the provider against servers that try to do
// it harm (see providertest.Hostile).
func TestHostileServers(t *testing.T) { providertest.Hostile(t, testTarget(t)) }

// TestErrorTextsBounded: a refusal quotes at most 4000 characters of
// the body a server sent, as pi-ai cuts it.
func TestErrorTextsBounded(t *testing.T) {
	big := strings.Repeat("é", 100000) // 200 KB
	srv := providertest.ServeBody(t, 400, "application/json", nil, []byte(big))
	_, final := testTarget(t).Run(t, t.Context(), newStream(srv.URL, srv.Client()), nil)
	require.Equal(t, agentcore.StopError, final.StopReason)
	assert.Equal(t, "Mistral API error (400): "+strings.Repeat("é", 4000)+"... [truncated 96000 chars]", final.ErrorMessage)
}
