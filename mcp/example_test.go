package agentmcp_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/hold"

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

// A served Agent asks the client's person before it deploys: the held
// call becomes an elicitation, the person accepts, and the run goes on.
func ExampleAgentTool_gate() {
	ctx := context.Background()
	deploy := agentcore.NewTool("deploy", "Deploys the web app.", func(context.Context, string, struct{}, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.TextResult("deployed"), nil
	})
	gate := hold.New(hold.Options{Policy: hold.Always(hold.Request{Title: "Deploy the web app?"}, "deploy")})
	agent := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), Tools: []agentcore.Tool{deploy}, Layers: []agentcore.Layer{gate},
		StreamFn: agentcoretest.New(
			agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "deploy", map[string]any{})),
			agentcoretest.TextResponse("Deployed."),
		).Stream,
	})
	server, err := agentmcp.NewAgentServer(&mcp.Implementation{Name: "ops"}, agentmcp.AgentTool{Agent: agent, Gate: gate})
	if err != nil {
		fmt.Println(err)
		return
	}
	transport, _ := inProcess(server).New()
	client := mcp.NewClient(&mcp.Implementation{Name: "ide"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			fmt.Println("asked:", strings.Split(req.Params.Message, "\n")[0])
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
		},
	})
	session, err := client.Connect(ctx, transport, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer session.Close()
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: agentmcp.DefaultAgentToolName, Arguments: map[string]any{"prompt": "ship it"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// asked: Deploy the web app?
	// Deployed.
}
