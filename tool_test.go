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

type searchArgs struct {
	Query string   `json:"query" jsonschema:"required,description=what to look for"`
	Limit int      `json:"limit,omitempty"`
	Tags  []string `json:"tags,omitempty"`
}

func TestNewToolSchemaAndDecode(t *testing.T) {
	var got searchArgs
	tool := agentcore.NewTool("search", "Search.", func(_ context.Context, _ string, args searchArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		got = args
		return agentcore.TextResult("ok"), nil
	})
	var schema map[string]any
	require.NoError(t, json.Unmarshal(tool.Parameters, &schema))
	assert.Equal(t, "object", schema["type"], "schema %s", tool.Parameters)
	if required, _ := schema["required"].([]any); assert.NotEmpty(t, required, "schema %s", tool.Parameters) {
		assert.Equal(t, "query", required[0], "schema %s", tool.Parameters)
	}
	// Coercion runs before Execute: "5" becomes 5, a single tag a list.
	call := agentcore.ToolCall{ID: "1", Name: "search", Arguments: json.RawMessage(`{"query":"go","limit":"5","tags":"x"}`)}
	out := agentcore.RunToolCall(context.Background(), call, agentcore.RunToolCallOptions{Tools: []agentcore.Tool{tool}})
	require.False(t, out.IsError, "call failed: %v", out.Result.Content)
	assert.Equal(t, searchArgs{Query: "go", Limit: 5, Tags: []string{"x"}}, got, "decoded")
	missing := agentcore.RunToolCall(context.Background(), agentcore.ToolCall{ID: "2", Name: "search", Arguments: json.RawMessage(`{}`)},
		agentcore.RunToolCallOptions{Tools: []agentcore.Tool{tool}})
	text := agentcore.Blocks(missing.Result.Content...).Text()
	assert.True(t, missing.IsError, "missing query: %q", text)
	assert.Equal(t, "Validation failed for tool \"search\":\n  - query: missing\n\nReceived arguments:\n{}", text, "missing query")
}

// TestNestedCallOptions: a tool that calls another tool through
// RunToolCall gets the run's hooks, so a nested call is checked like a
// model-issued one.
func TestNestedCallOptions(t *testing.T) {
	var checked []string
	inner := agentcore.Tool{Name: "inner", Execute: func(context.Context, string, json.RawMessage, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.TextResult("inner ran"), nil
	}}
	outer := agentcore.Tool{Name: "outer", Execute: func(ctx context.Context, _ string, _ json.RawMessage, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		opts, ok := agentcore.NestedCallOptions(ctx)
		assert.True(t, ok, "no nested call options in a tool's ctx")
		allowed := agentcore.RunToolCall(ctx, agentcore.ToolCall{ID: "n1", Name: "inner", Arguments: json.RawMessage(`{}`)}, opts)
		denied := agentcore.RunToolCall(ctx, agentcore.ToolCall{ID: "n2", Name: "inner", Arguments: json.RawMessage(`{"deny":true}`)}, opts)
		return agentcore.TextResult(allowed.Result.Text() + " / " + denied.Result.Text()), nil
	}}
	before := func(_ context.Context, c agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
		checked = append(checked, c.ToolCall.ID)
		if string(c.Args) == `{"deny":true}` {
			return &agentcore.BeforeToolCallResult{Block: true, Reason: "denied"}, nil
		}
		return nil, nil
	}
	for _, name := range []string{"loop", "RunToolCall"} {
		t.Run(name, func(t *testing.T) {
			checked = nil
			var text string
			tools := []agentcore.Tool{outer, inner}
			if name == "loop" {
				fake := agentcoretest.New(agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "outer", nil)), agentcoretest.TextResponse("ok"))
				a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: tools, Hooks: agentcore.Hooks{BeforeToolCall: before}})
				require.NoError(t, a.Prompt(context.Background(), "go"))
				text = a.Messages()[len(a.Messages())-2].(*agentcore.ToolResultMessage).Text()
			} else {
				out := agentcore.RunToolCall(context.Background(), agentcoretest.ToolCall("c1", "outer", nil), agentcore.RunToolCallOptions{Tools: tools, BeforeToolCall: before})
				text = out.Result.Text()
			}
			assert.Equal(t, "inner ran / denied", text, "result; hook saw %v", checked)
			assert.Len(t, checked, 3, "calls the hook saw")
		})
	}
	_, ok := agentcore.NestedCallOptions(context.Background())
	assert.False(t, ok, "options outside a tool call")
}
