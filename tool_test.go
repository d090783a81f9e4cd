package agentcore_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
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
		if !ok {
			t.Error("no nested call options in a tool's ctx")
		}
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
				if err := a.Prompt(context.Background(), "go"); err != nil {
					t.Fatal(err)
				}
				text = a.Messages()[len(a.Messages())-2].(*agentcore.ToolResultMessage).Text()
			} else {
				out := agentcore.RunToolCall(context.Background(), agentcoretest.ToolCall("c1", "outer", nil), agentcore.RunToolCallOptions{Tools: tools, BeforeToolCall: before})
				text = out.Result.Text()
			}
			if text != "inner ran / denied" || len(checked) != 3 {
				t.Fatalf("result %q, hook saw %v", text, checked)
			}
		})
	}
	if _, ok := agentcore.NestedCallOptions(context.Background()); ok {
		t.Fatal("options outside a tool call")
	}
}
