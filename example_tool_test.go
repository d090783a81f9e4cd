package agentcore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// NewTool builds a tool from a typed argument struct: the JSON Schema the
// model sees is reflected from the struct (json tags name the properties,
// jsonschema tags mark them required, jsonschema_description describes
// them), and Execute receives the decoded struct. onUpdate streams partial
// results to listeners as tool_execution_update events.
func ExampleNewTool() {
	type grepArgs struct {
		Pattern string `json:"pattern" jsonschema:"required" jsonschema_description:"Regular expression, RE2 syntax"`
		Limit   int    `json:"limit,omitempty" jsonschema_description:"Stop after this many matches"`
	}
	grep := agentcore.NewTool("grep", "Search the workspace.",
		func(ctx context.Context, callID string, args grepArgs, onUpdate func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			onUpdate(agentcore.TextResult("searching..."))
			return agentcore.TextResult(fmt.Sprintf("3 matches for %q (limit %d)", args.Pattern, args.Limit)), nil
		})

	var schema struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	_ = json.Unmarshal(grep.Parameters, &schema)
	var props bytes.Buffer
	_ = json.Indent(&props, schema.Properties, "", "  ")
	fmt.Println("properties:", props.String())
	fmt.Println("required:", schema.Required)

	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "grep", map[string]any{"pattern": "func main", "limit": 5})),
		agentcoretest.TextResponse("Found them."),
	)
	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{grep}})
	agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		switch ev := ev.(type) {
		case *agentcore.ToolExecutionUpdateEvent:
			fmt.Println("update:", agentcore.Blocks(ev.PartialResult.Content...).Text())
		case *agentcore.ToolExecutionEndEvent:
			fmt.Println("result:", agentcore.Blocks(ev.Result.Content...).Text())
		}
	})
	if err := agent.Prompt(context.Background(), "Where is main?"); err != nil {
		fmt.Println("error:", err)
	}
	// Output:
	// properties: {
	//   "pattern": {
	//     "type": "string",
	//     "description": "Regular expression, RE2 syntax"
	//   },
	//   "limit": {
	//     "type": "integer",
	//     "description": "Stop after this many matches"
	//   }
	// }
	// required: [pattern]
	// update: searching...
	// result: 3 matches for "func main" (limit 5)
}

// A Tool can also be written by hand, with a raw JSON Schema and raw
// arguments. PrepareArguments is the compatibility shim that runs before
// validation: here it accepts the tool's old argument name.
func ExampleTool_prepareArguments() {
	read := agentcore.Tool{
		Name:        "read",
		Description: "Read a file.",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`),
		PrepareArguments: func(args json.RawMessage) (json.RawMessage, error) {
			var m map[string]any
			if err := json.Unmarshal(args, &m); err != nil {
				return nil, err
			}
			if old, ok := m["file"]; ok && m["path"] == nil { // renamed in v2
				m["path"] = old
				delete(m, "file")
			}
			return json.Marshal(m) // a new value: the model's arguments are never modified
		},
		Execute: func(_ context.Context, _ string, args json.RawMessage, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			return agentcore.TextResult("read with " + string(args)), nil
		},
	}
	call := agentcoretest.ToolCall("c1", "read", map[string]string{"file": "go.mod"})
	out := agentcore.RunToolCall(context.Background(), call, agentcore.RunToolCallOptions{Tools: []agentcore.Tool{read}})
	fmt.Println(agentcore.Blocks(out.Result.Content...).Text())
	fmt.Println("the call still says", string(call.Arguments))
	// Output:
	// read with {"path":"go.mod"}
	// the call still says {"file":"go.mod"}
}

// A result with Terminate set tells the loop that no further model request
// is needed after this batch. It takes effect only when every result of the
// batch sets it; the run then ends without asking the model again.
func ExampleToolResult_terminate() {
	type submitArgs struct {
		Answer string `json:"answer" jsonschema:"required"`
	}
	submit := agentcore.NewTool("submit", "Submit the final answer and stop.",
		func(_ context.Context, _ string, args submitArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			r := agentcore.TextResult("submitted: " + args.Answer)
			r.Terminate = true
			return r, nil
		})
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "submit", map[string]string{"answer": "42"})),
		agentcoretest.TextResponse("never requested"),
	)
	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{submit}})
	if err := agent.Prompt(context.Background(), "Compute and submit."); err != nil {
		fmt.Println("error:", err)
	}
	msgs := agent.Messages()
	printMessage(msgs[len(msgs)-1])
	fmt.Println("model requests:", fake.CallCount())
	// Output:
	// tool result c1: submitted: 42 (error=false)
	// model requests: 1
}

// RunToolCall runs one call through the same pipeline as a model-issued
// call (find, prepare, validate, BeforeToolCall, Execute, AfterToolCall),
// without events or transcript messages. A tool that runs other tools (a
// batch tool, a code-mode interpreter) uses it so that the application's
// hooks, permission checks above all, apply to the nested calls too.
func ExampleRunToolCall() {
	// The permission policy, used for model-issued and nested calls alike.
	policy := func(_ context.Context, c agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
		if c.ToolCall.Name == "delete" {
			return agentcore.Block("delete is not allowed"), nil
		}
		return nil, nil
	}
	echo := func(name string) agentcore.Tool {
		return agentcore.Tool{Name: name, Execute: func(_ context.Context, _ string, args json.RawMessage, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			return agentcore.TextResult(name + " " + string(args)), nil
		}}
	}
	inner := []agentcore.Tool{echo("list"), echo("delete")}

	type step struct {
		Tool string          `json:"tool" jsonschema:"required"`
		Args json.RawMessage `json:"args"`
	}
	type batchArgs struct {
		Steps []step `json:"steps" jsonschema:"required"`
	}
	batch := agentcore.NewTool("batch", "Run several tool calls in order.",
		func(ctx context.Context, callID string, args batchArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			var lines []string
			for i, s := range args.Steps {
				call := agentcore.ToolCall{ID: fmt.Sprintf("%s/%d", callID, i), Name: s.Tool, Arguments: s.Args}
				out := agentcore.RunToolCall(ctx, call, agentcore.RunToolCallOptions{Tools: inner, BeforeToolCall: policy})
				lines = append(lines, fmt.Sprintf("%s: %s (error=%v)", call.ID, agentcore.Blocks(out.Result.Content...).Text(), out.IsError))
			}
			return agentcore.TextResult(strings.Join(lines, "\n")), nil
		})

	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("b1", "batch", map[string]any{"steps": []any{
			map[string]any{"tool": "list", "args": map[string]string{"dir": "/tmp"}},
			map[string]any{"tool": "delete", "args": map[string]string{"path": "/tmp/x"}},
		}})),
		agentcoretest.TextResponse("The delete was refused."),
	)
	agent := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{batch},
		Hooks: agentcore.Hooks{BeforeToolCall: policy},
	})
	if err := agent.Prompt(context.Background(), "Clean /tmp."); err != nil {
		fmt.Println("error:", err)
	}
	for _, m := range agent.Messages() {
		if r, ok := m.(*agentcore.ToolResultMessage); ok {
			fmt.Println(agentcore.Blocks(r.Content...).Text())
		}
	}
	// Output:
	// b1/0: list {"dir":"/tmp"} (error=false)
	// b1/1: delete is not allowed (error=true)
}
