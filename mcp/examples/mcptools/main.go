// Command mcptools runs an agent on the built-in fake model (no network,
// no key) whose tools come from an MCP server started as a subprocess:
// the same program, run with -serve, serves a small notes store over
// stdio with the MCP Go SDK.
//
//	go run ./examples/mcptools
package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"

	agentmcp "github.com/pi-go/agentcore/mcp"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-serve" {
		if err := serve(context.Background()); err != nil {
			fmt.Fprintln(os.Stderr, "mcptools server:", err)
			os.Exit(1)
		}
		return
	}
	self, err := os.Executable()
	if err == nil {
		err = run(context.Background(), os.Stdout, agentmcp.Command{Path: self, Args: []string{"-serve"}})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcptools:", err)
		os.Exit(1)
	}
}

// notes is the server's store.
var notes = map[string]string{
	"groceries": "eggs, flour, basil",
	"todo":      "fix the flaky test, write the MCP docs",
}

type readArgs struct {
	Name string `json:"name" jsonschema:"the note to read"`
}

type none struct{}

// serve runs the notes server over stdin and stdout.
func serve(ctx context.Context) error {
	s := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "v1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "list", Description: "List the notes.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, any, error) {
			names := slices.Sorted(maps.Keys(notes))
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(names, "\n")}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "read", Description: "Read a note.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *mcp.CallToolRequest, in readArgs) (*mcp.CallToolResult, any, error) {
			text, ok := notes[in.Name]
			if !ok {
				return nil, nil, fmt.Errorf("no note named %q", in.Name)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
		})
	return s.Run(ctx, &mcp.StdioTransport{})
}

// script is what the fake model answers, request by request.
func script() []agentcoretest.Response {
	tc := agentcoretest.ToolCall
	return []agentcoretest.Response{
		agentcoretest.ToolCallResponse(tc("c1", "notes_list", map[string]any{})),
		agentcoretest.ToolCallResponse(tc("c2", "notes_read", map[string]any{"name": "todo"}), tc("c3", "notes_read", map[string]any{"name": "diary"})),
		agentcoretest.TextResponse("Your todo note says: fix the flaky test, write the MCP docs."),
	}
}

// run connects to the notes server started by server and prompts an agent
// that uses its tools, logging the run to w.
func run(ctx context.Context, w io.Writer, server agentmcp.Command) error {
	ts, err := agentmcp.Connect(ctx, []agentmcp.Server{{Name: "notes", Prefix: "notes_", Transport: server}}, nil)
	if err != nil {
		return err
	}
	defer ts.Close()
	for _, t := range ts.Tools() {
		fmt.Fprintf(w, "tool %s: %s %s\n", t.Name, t.Description, t.Parameters)
	}

	fake := agentcoretest.New(script()...)
	agent := agentcore.New(agentcore.Options{
		Model:         agentcoretest.Model(),
		StreamFn:      fake.Stream,
		Tools:         ts.Tools(),
		ToolExecution: agentcore.ToolsSequential, // results in call order, for a stable log
		Hooks:         agentcore.Hooks{PrepareNextTurn: ts.PrepareNextTurn},
	})
	agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		switch ev := ev.(type) {
		case *agentcore.ToolExecutionStartEvent:
			fmt.Fprintf(w, "call %s %s\n", ev.ToolName, ev.Args)
		case *agentcore.ToolExecutionEndEvent:
			fmt.Fprintf(w, "  -> error=%t %q\n", ev.IsError, ev.Result.Text())
		case *agentcore.MessageEndEvent:
			if m, ok := ev.Message.(*agentcore.AssistantMessage); ok && m.Text() != "" {
				fmt.Fprintf(w, "assistant: %s\n", m.Text())
			}
		}
	})
	if err := agent.Prompt(ctx, "What is on my todo note?"); err != nil {
		return err
	}
	fmt.Fprintf(w, "done: %d model requests\n", fake.CallCount())
	return nil
}
