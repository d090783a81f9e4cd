package agentcore_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/pi-go/agentcore"
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
	if err := json.Unmarshal(tool.Parameters, &schema); err != nil {
		t.Fatal(err)
	}
	if schema["type"] != "object" || schema["required"].([]any)[0] != "query" {
		t.Fatalf("schema %s", tool.Parameters)
	}
	// Coercion runs before Execute: "5" becomes 5, a single tag a list.
	call := agentcore.ToolCall{ID: "1", Name: "search", Arguments: json.RawMessage(`{"query":"go","limit":"5","tags":"x"}`)}
	out := agentcore.RunToolCall(context.Background(), call, agentcore.RunToolCallOptions{Tools: []agentcore.Tool{tool}})
	if out.IsError {
		t.Fatalf("call failed: %v", out.Result.Content)
	}
	if got.Query != "go" || got.Limit != 5 || len(got.Tags) != 1 || got.Tags[0] != "x" {
		t.Fatalf("decoded %+v", got)
	}
	missing := agentcore.RunToolCall(context.Background(), agentcore.ToolCall{ID: "2", Name: "search", Arguments: json.RawMessage(`{}`)},
		agentcore.RunToolCallOptions{Tools: []agentcore.Tool{tool}})
	text := agentcore.Blocks(missing.Result.Content...).Text()
	if !missing.IsError || text != "Validation failed for tool \"search\":\n  - query: missing\n\nReceived arguments:\n{}" {
		t.Fatalf("missing query: %q", text)
	}
}
