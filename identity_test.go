package agentcore_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// TestIdentityThroughTheAgent: the Agent's identity reaches every request,
// and New keeps its own copy of the attribution's categories.
func TestIdentityThroughTheAgent(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.TextResponse("hi"))
	categories := []string{"cli-agent"}
	agent := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: fake.Stream,
		StreamOptions: agentcore.StreamOptions{Identity: agentcore.Identity{Attribution: agentcore.Attribution{Name: "a", URL: "u", Categories: categories}}},
	})
	categories[0] = "changed"
	require.NoError(t, agent.Prompt(t.Context(), "hi"))
	calls := fake.Calls()
	require.Len(t, calls, 1)
	assert.Equal(t, agentcore.Attribution{Name: "a", URL: "u", Categories: []string{"cli-agent"}}, calls[0].Options.Identity.Attribution)
}
