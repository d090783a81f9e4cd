package agentcore_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// treeNode refers to itself through its children.
type treeNode struct {
	Name     string      `json:"name"`
	Children []*treeNode `json:"children,omitempty"`
}

// forest refers to itself through another type.
type forest struct {
	Trees []grove `json:"trees"`
}

type grove struct {
	Name  string  `json:"name"`
	Inner *forest `json:"inner,omitempty"`
}

// TestNewToolRecursiveType: a type that refers to itself is described
// with references to its definitions (never a stack overflow), the
// schema compiles, and nested arguments validate and decode.
func TestNewToolRecursiveType(t *testing.T) {
	var got treeNode
	tool := agentcore.NewTool("tree", "Takes a tree.", func(_ context.Context, _ string, n treeNode, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		got = n
		return agentcore.TextResult("ok"), nil
	})
	require.NoError(t, tool.Validate())
	assert.JSONEq(t, `{"type":"object","required":["name"],
		"properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/treeNode"}}},
		"$defs":{"treeNode":{"type":"object","required":["name"],
			"properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/treeNode"}}}}}}`,
		string(tool.Parameters))

	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "tree",
			map[string]any{"name": "a", "children": []any{map[string]any{"name": "b", "children": []any{map[string]any{"name": "c"}}}}})),
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c2", "tree",
			map[string]any{"name": "a", "children": []any{map[string]any{"children": []any{}}}})),
		agentcoretest.TextResponse("done"))
	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{tool}})
	require.NoError(t, agent.Prompt(context.Background(), "go"))
	assert.Equal(t, "c", got.Children[0].Children[0].Name)
	var results []*agentcore.ToolResultMessage
	for _, m := range agent.Messages() {
		if r, ok := m.(*agentcore.ToolResultMessage); ok {
			results = append(results, r)
		}
	}
	require.Len(t, results, 2)
	assert.False(t, results[0].IsError)
	assert.True(t, results[1].IsError, "a nested child without a name fails validation")

	other := agentcore.NewTool("forest", "", func(context.Context, string, forest, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.TextResult("ok"), nil
	})
	require.NoError(t, other.Validate())
	var s struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	require.NoError(t, json.Unmarshal(other.Parameters, &s))
	assert.Contains(t, s.Defs, "forest")
	assert.Contains(t, s.Defs, "grove")
}
