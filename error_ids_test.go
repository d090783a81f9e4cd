package agentcore_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestErrorsCutNames: a tool's name in an error is cut, whatever its
// size (an MCP server's tool names are another program's input).
func TestErrorsCutNames(t *testing.T) {
	huge := strings.Repeat("n", 10<<20)
	exec := func(context.Context, string, json.RawMessage, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.ToolResult{}, nil
	}
	tools := []agentcore.Tool{
		{Name: huge, Parameters: json.RawMessage(`{"type":7}`), Execute: exec},
		{Name: huge, Execute: exec},
	}
	err := agentcore.ValidateTools(tools)
	require.ErrorIs(t, err, agentcore.ErrInvalidTool)
	assert.Less(t, len(err.Error()), 4000)
	assert.Contains(t, err.Error(), "(10485760 bytes)")
}
