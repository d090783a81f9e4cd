package agentmcp_test

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"

	agentmcp "github.com/pi-go/agentcore/mcp"
)

// greeter is an MCP server with one tool.
func greeter() *mcp.Server {
	type args struct {
		Name string `json:"name" jsonschema:"who to greet"`
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "greeter"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "greet", Description: "Greet someone."},
		func(_ context.Context, _ *mcp.CallToolRequest, in args) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Hello, " + in.Name + "!"}}}, nil, nil
		})
	return server
}

// inProcess reaches server over in-memory transports, a new session per
// connection.
func inProcess(server *mcp.Server) agentmcp.SDKTransport {
	return agentmcp.SDKTransport{New: func() (mcp.Transport, error) {
		client, srv := mcp.NewInMemoryTransports()
		if _, err := server.Connect(context.Background(), srv, nil); err != nil {
			return nil, err
		}
		return client, nil
	}}
}

// An Agent calls the tools of an MCP server. A real program reaches its
// servers with agentmcp.Command or agentmcp.StreamableHTTP.
func ExampleConnect() {
	ctx := context.Background()
	ts, err := agentmcp.Connect(ctx, []agentmcp.Server{{Name: "greeter", Prefix: "g_", Transport: inProcess(greeter())}}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ts.Close()

	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "g_greet", map[string]any{"name": "Ada"})),
		agentcoretest.TextResponse("I greeted Ada."),
	)
	agent := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: ts.Tools(),
		Hooks: agentcore.Hooks{PrepareNextTurn: ts.PrepareNextTurn},
	})
	agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		if end, ok := ev.(*agentcore.ToolExecutionEndEvent); ok {
			fmt.Printf("%s: %s (from server %s)\n", end.ToolName, end.Result.Text(), end.Result.Details.(agentmcp.Details).Server)
		}
	})
	if err := agent.Prompt(ctx, "greet Ada"); err != nil {
		fmt.Println(err)
	}
	// Output:
	// g_greet: Hello, Ada! (from server greeter)
}

// An Agent served as an MCP tool, called by an MCP client.
func ExampleNewAgentServer() {
	ctx := context.Background()
	agent := agentcore.New(agentcore.Options{
		Model:    agentcoretest.Model(),
		StreamFn: agentcoretest.New(agentcoretest.TextResponse("Paris.")).Stream,
	})
	server, err := agentmcp.NewAgentServer(&mcp.Implementation{Name: "geographer"}, agentmcp.AgentTool{
		Name: "geographer", Description: "Answers geography questions.", Agent: agent,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	transport, _ := inProcess(server).New()
	client := mcp.NewClient(&mcp.Implementation{Name: "ide"}, nil)
	session, err := client.Connect(ctx, transport, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer session.Close()
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "geographer", Arguments: map[string]any{"prompt": "Capital of France?"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// Paris.
}
