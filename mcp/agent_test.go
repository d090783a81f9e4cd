package agentmcp_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	agentmcp "github.com/pi-go/agentcore/mcp"
)

// toolResults returns the agent's tool results by call ID.
func toolResults(agent *agentcore.Agent) map[string]*agentcore.ToolResultMessage {
	out := map[string]*agentcore.ToolResultMessage{}
	for _, m := range agent.Messages() {
		if r, ok := m.(*agentcore.ToolResultMessage); ok {
			out[r.ToolCallID] = r
		}
	}
	return out
}

func TestAgentCallsMCPTools(t *testing.T) {
	ts := connect(t, nil, agentmcp.Server{Name: "test", Prefix: "t_", Transport: inMemory(t, newServer()).Transport})
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(
			agentcoretest.ToolCall("c1", "t_echo", map[string]any{"text": "hello"}),
			agentcoretest.ToolCall("c2", "t_fail", map[string]any{}),
			agentcoretest.ToolCall("c3", "t_echo", map[string]any{}),
		),
		agentcoretest.TextResponse("done"),
	)
	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: ts.Tools()})
	require.NoError(t, agent.Prompt(t.Context(), "go"))

	results := toolResults(agent)
	assert.Equal(t, "hello", results["c1"].Text())
	assert.False(t, results["c1"].IsError)
	assert.Equal(t, "disk on fire", results["c2"].Text())
	assert.True(t, results["c2"].IsError, "isError reaches the model as an error result")
	assert.True(t, results["c3"].IsError, "arguments are validated against the server's schema before the call")
	assert.Contains(t, results["c3"].Text(), "text")
}

func TestListChangedReachesTheNextTurn(t *testing.T) {
	server := newServer()
	mcp.AddTool(server, &mcp.Tool{Name: "install", Description: "Installs the late tool."},
		func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, any, error) {
			addTool(server, "late")
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "installed"}}}, nil, nil
		})
	changed := make(chan error, 1)
	ts := connect(t, &agentmcp.Options{OnToolsChanged: notifyTo(changed)},
		agentmcp.Server{Name: "test", Transport: inMemory(t, server).Transport})

	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "install", map[string]any{})),
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c2", "late", map[string]any{"text": "hi"})),
		agentcoretest.TextResponse("done"),
	)
	agent := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: ts.Tools(),
		Hooks: agentcore.Hooks{PrepareNextTurn: ts.PrepareNextTurn},
	})
	detach := ts.Attach(agent)
	defer detach()
	// The install call's end waits for the refresh, so that the next turn
	// sees it: a listener is a barrier.
	agent.Subscribe(func(ctx context.Context, ev agentcore.AgentEvent) {
		if end, ok := ev.(*agentcore.ToolExecutionEndEvent); ok && end.ToolName == "install" {
			select {
			case err := <-changed:
				assert.NoError(t, err)
			case <-ctx.Done():
			}
		}
	})
	require.NoError(t, agent.Prompt(t.Context(), "install, then use it"))

	results := toolResults(agent)
	require.Contains(t, results, "c2")
	assert.False(t, results["c2"].IsError, results["c2"].Text())
	assert.Equal(t, "late: hi", results["c2"].Text())

	// The model was told about the new tool before the request that used it.
	var declared []string
	for _, m := range fake.Calls()[1].Request.Messages {
		if sys, ok := m.(*agentcore.SystemMessage); ok {
			for _, d := range sys.ToolsAdded {
				declared = append(declared, d.Name)
			}
		}
	}
	assert.Contains(t, declared, "late")
	// Attach gave the Agent the new set for its next runs.
	var names []string
	for _, tool := range agent.State().Tools {
		names = append(names, tool.Name)
	}
	assert.Contains(t, names, "late")
}

func TestApplyKeepsOtherTools(t *testing.T) {
	server := newServer()
	ts := connect(t, nil, agentmcp.Server{Name: "test", Transport: inMemory(t, server).Transport})
	own := agentcore.NewTool("own", "Mine.", func(context.Context, string, struct{}, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.TextResult("mine"), nil
	})
	tools := append([]agentcore.Tool{own}, ts.Tools()...)
	assert.Equal(t, names(tools), names(ts.Apply(tools)))
	upd, err := ts.PrepareNextTurn(t.Context(), agentcore.TurnContext{Context: agentcore.AgentContext{Tools: tools}})
	require.NoError(t, err)
	assert.Nil(t, upd, "nothing changed")

	// Only own: the Toolset's tools are added after it.
	assert.Equal(t, names(tools), names(ts.Apply([]agentcore.Tool{own})))
}

func names(tools []agentcore.Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name
	}
	return out
}

func TestRefresh(t *testing.T) {
	a, b := newServer(), mcp.NewServer(&mcp.Implementation{Name: "b"}, nil)
	addTool(b, "b_only")
	changed := make(chan error, 1)
	ts := connect(t, &agentmcp.Options{OnToolsChanged: notifyTo(changed)},
		agentmcp.Server{Name: "a", Transport: inMemory(t, a).Transport},
		agentmcp.Server{Name: "b", Transport: inMemory(t, b).Transport})
	before := ts.Tools()

	t.Run("a removed tool", func(t *testing.T) {
		a.RemoveTools("fail")
		require.NoError(t, <-changed)
		assert.NotContains(t, names(ts.Tools()), "fail")
		upd, err := ts.PrepareNextTurn(t.Context(), agentcore.TurnContext{Context: agentcore.AgentContext{Tools: before}})
		require.NoError(t, err)
		require.NotNil(t, upd)
		assert.Equal(t, names(ts.Tools()), names(upd.Context.Tools))
	})
	t.Run("a colliding tool", func(t *testing.T) {
		current := names(ts.Tools())
		addTool(a, "b_only")
		err := <-changed
		require.ErrorIs(t, err, agentmcp.ErrNameCollision)
		assert.Contains(t, err.Error(), `servers "a" and "b" both have a tool named "b_only"`)
		assert.Equal(t, current, names(ts.Tools()), "server a keeps its previous tools")
	})
	t.Run("a malformed schema", func(t *testing.T) {
		current := names(ts.Tools())
		rawTool(b, "broken", `{"type":"object","properties":{"x":3}}`)
		err := <-changed
		require.ErrorIs(t, err, agentcore.ErrInvalidTool)
		assert.Contains(t, err.Error(), `agentmcp: server "b": tool "broken": `)
		assert.Equal(t, current, names(ts.Tools()))
	})
}

// notifyTo is an OnToolsChanged that sends its errors to ch without
// blocking: a Toolset waits for its callback when closing.
func notifyTo(ch chan<- error) func(*agentmcp.Toolset, error) {
	return func(_ *agentmcp.Toolset, err error) {
		select {
		case ch <- err:
		default:
		}
	}
}
