package agentmcp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	agentmcp "github.com/pi-go/agentcore/mcp"
)

// chunked is a text response streamed in n deltas.
func chunked(text string, n int) agentcoretest.Response {
	r := agentcoretest.TextResponse(text)
	r.Chunks = n
	return r
}

// clientOf connects an SDK client to server over in-memory transports;
// progress, when not nil, gets the progress notifications.
func clientOf(t *testing.T, server *mcp.Server, progress chan<- *mcp.ProgressNotificationParams) *mcp.ClientSession {
	t.Helper()
	opts := &mcp.ClientOptions{}
	if progress != nil {
		opts.ProgressNotificationHandler = func(ctx context.Context, req *mcp.ProgressNotificationClientRequest) {
			select {
			case progress <- req.Params:
			case <-ctx.Done():
			}
		}
	}
	return connectClient(t, server, opts, nil)
}

// connectClient connects an SDK client with opts to server over in-memory
// transports, closing it when the test ends.
func connectClient(t *testing.T, server *mcp.Server, opts *mcp.ClientOptions, session *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	tr, err := inMemory(t, server).Transport.New()
	require.NoError(t, err)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client"}, opts).Connect(t.Context(), tr, session)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

// ask calls the agent tool with prompt.
func ask(ctx context.Context, cs *mcp.ClientSession, prompt string, token any) (*mcp.CallToolResult, error) {
	params := &mcp.CallToolParams{Name: agentmcp.DefaultAgentToolName, Arguments: map[string]any{"prompt": prompt}}
	if token != nil {
		params.SetProgressToken(token)
	}
	return cs.CallTool(ctx, params)
}

func resultText(res *mcp.CallToolResult) string {
	var sb strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			sb.WriteString(tc.Text)
		}
	}
	return sb.String()
}

func TestAgentToolAnswersWithProgress(t *testing.T) {
	fake := agentcoretest.New(chunked("the answer is 42", 4))
	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream})
	server, err := agentmcp.NewAgentServer(&mcp.Implementation{Name: "agent"}, agentmcp.AgentTool{Agent: agent})
	require.NoError(t, err)
	progress := make(chan *mcp.ProgressNotificationParams, 16)
	cs := clientOf(t, server, progress)

	tools, err := cs.ListTools(t.Context(), nil)
	require.NoError(t, err)
	require.Len(t, tools.Tools, 1)
	assert.Equal(t, agentmcp.DefaultAgentToolDescription, tools.Tools[0].Description)

	res, err := ask(t.Context(), cs, "what is the answer?", "p1")
	require.NoError(t, err)
	assert.False(t, res.IsError)
	assert.Equal(t, "the answer is 42", resultText(res))

	var deltas []string
	for i := range 4 {
		p := <-progress
		assert.Equal(t, "p1", p.ProgressToken)
		assert.Equal(t, float64(i+1), p.Progress)
		deltas = append(deltas, p.Message)
	}
	assert.Equal(t, agentcoretest.SplitText("the answer is 42", 4), deltas)
}

func TestAgentToolErrors(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.ErrorResponse("model down"))
	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream})
	server, err := agentmcp.NewAgentServer(&mcp.Implementation{Name: "agent"}, agentmcp.AgentTool{Agent: agent})
	require.NoError(t, err)
	cs := clientOf(t, server, nil)

	res, err := ask(t.Context(), cs, "hi", nil)
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, resultText(res), "model down")

	res, err = ask(t.Context(), cs, "", nil)
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Equal(t, "prompt is empty", resultText(res))

	_, err = agentmcp.NewAgentServer(&mcp.Implementation{Name: "agent"}, agentmcp.AgentTool{})
	assert.ErrorIs(t, err, agentmcp.ErrNoAgent)
}

func TestAgentToolCancellationAbortsTheRun(t *testing.T) {
	started := make(chan struct{})
	hang := agentcoretest.TextResponse("thinking...")
	hang.Hang = true
	hang.OnStart = func(context.Context) { close(started) }
	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: agentcoretest.New(hang).Stream})
	server, err := agentmcp.NewAgentServer(&mcp.Implementation{Name: "agent"}, agentmcp.AgentTool{Agent: agent})
	require.NoError(t, err)
	cs := clientOf(t, server, nil)

	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		<-started
		cancel()
	}()
	_, err = ask(ctx, cs, "take your time", nil)
	require.ErrorIs(t, err, context.Canceled)

	require.NoError(t, agent.WaitForIdle(t.Context()))
	msgs := agent.Messages()
	last, ok := msgs[len(msgs)-1].(*agentcore.AssistantMessage)
	require.True(t, ok)
	assert.Equal(t, agentcore.StopAborted, last.StopReason)
}

func TestAgentToolOneAgentPerSession(t *testing.T) {
	var mu sync.Mutex
	var agents []*agentcore.Agent
	server, err := agentmcp.NewAgentServer(&mcp.Implementation{Name: "agent"}, agentmcp.AgentTool{
		Name: "helper",
		NewAgent: func(context.Context, *mcp.ServerSession) (*agentcore.Agent, error) {
			fake := agentcoretest.NewFunc(func(_ context.Context, call agentcoretest.Call) agentcoretest.Response {
				// The answer counts the user messages the agent has seen.
				n := 0
				for _, m := range call.Request.Messages {
					if _, ok := m.(*agentcore.UserMessage); ok {
						n++
					}
				}
				return agentcoretest.TextResponse(strings.Repeat("+", n))
			})
			a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream})
			mu.Lock()
			agents = append(agents, a)
			mu.Unlock()
			return a, nil
		},
	})
	require.NoError(t, err)
	one, two := clientOf(t, server, nil), clientOf(t, server, nil)

	callHelper := func(cs *mcp.ClientSession) string {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "helper", Arguments: map[string]any{"prompt": "again"}})
		require.NoError(t, err)
		require.False(t, res.IsError, resultText(res))
		return resultText(res)
	}
	assert.Equal(t, "+", callHelper(one))
	assert.Equal(t, "++", callHelper(one), "a session keeps its agent")
	assert.Equal(t, "+", callHelper(two), "another session has its own")
	mu.Lock()
	assert.Len(t, agents, 2)
	mu.Unlock()
}

// TestAgentOverStreamableHTTP serves an Agent over Streamable HTTP behind
// a bearer token and has another Agent call it through a Toolset.
func TestAgentOverStreamableHTTP(t *testing.T) {
	inner := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: agentcoretest.New(chunked("inner says hi", 3)).Stream})
	server, err := agentmcp.NewAgentServer(&mcp.Implementation{Name: "inner"}, agentmcp.AgentTool{Name: "inner", Agent: inner})
	require.NoError(t, err)
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close) // after the Toolset closes: cleanups run last first

	_, err = agentmcp.Connect(t.Context(), []agentmcp.Server{{Name: "inner", Transport: agentmcp.StreamableHTTP{URL: srv.URL, HTTPClient: srv.Client()}}}, nil)
	require.Error(t, err, "no token")
	assert.Contains(t, err.Error(), `agentmcp: server "inner": connecting: `)
	assert.Contains(t, err.Error(), `Unauthorized`)

	ts := connect(t, nil, agentmcp.Server{Name: "inner", Transport: agentmcp.StreamableHTTP{
		URL: srv.URL, HTTPClient: srv.Client(), Header: http.Header{"Authorization": {"Bearer s3cret"}},
	}})
	var updates []string
	outer := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), Tools: ts.Tools(),
		StreamFn: agentcoretest.New(
			agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "inner", map[string]any{"prompt": "say hi"})),
			agentcoretest.TextResponse("done"),
		).Stream,
	})
	outer.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		if u, ok := ev.(*agentcore.ToolExecutionUpdateEvent); ok {
			updates = append(updates, u.PartialResult.Content[0].(agentcore.TextBlock).Text)
		}
	})
	require.NoError(t, outer.Prompt(t.Context(), "ask the inner agent"))
	assert.Equal(t, "inner says hi", toolResults(outer)["c1"].Text())
	// Updates are the inner agent's deltas; the SDK hands the client its
	// notifications on a goroutine of their own, so some may come after
	// the result, and the loop drops those.
	assert.Subset(t, agentcoretest.SplitText("inner says hi", 3), updates)
}
