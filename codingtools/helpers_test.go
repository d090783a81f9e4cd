package codingtools

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/stretchr/testify/require"
)

// call runs the tool named name of tools with args, repairing them first
// as the loop does.
func call(t testing.TB, ctx context.Context, tools []agentcore.Tool, name string, args any) (agentcore.ToolResult, error) {
	t.Helper()
	raw, err := json.Marshal(args)
	require.NoError(t, err)
	for _, tool := range tools {
		if tool.Name != name {
			continue
		}
		if tool.PrepareArguments != nil {
			raw, err = tool.PrepareArguments(raw)
			require.NoError(t, err)
		}
		return tool.Execute(ctx, "call", raw, nil)
	}
	t.Fatalf("no tool %s", name)
	return agentcore.ToolResult{}, nil
}
