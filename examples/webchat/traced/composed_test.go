package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.uber.org/goleak"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/examples/webchat/internal/webchat"
	agentmcp "github.com/pi-go/agentcore/mcp"
	agentotel "github.com/pi-go/agentcore/otel"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// summaryText is what the scripted model answers a compaction's summary
// request.
const summaryText = "## Goal\nWeather in three cities."

// scriptedModel answers a summary request (compaction's system prompt)
// with summaryText, a question about the weather with a weather call, a
// tool result with a long answer that fills the small window, and anything
// else with "ok". It counts the summaries.
type scriptedModel struct {
	mu        sync.Mutex
	summaries int
	// compacted counts the requests whose context starts from a summary.
	compacted int
}

func (s *scriptedModel) respond(_ context.Context, call agentcoretest.Call) agentcoretest.Response {
	msgs := call.Request.Messages
	if sys, ok := msgs[0].(*agentcore.SystemMessage); ok && strings.Contains(agentcore.SystemPromptText(sys), "context checkpoints") {
		s.mu.Lock()
		s.summaries++
		s.mu.Unlock()
		return agentcoretest.TextResponse(summaryText)
	}
	for _, m := range msgs {
		if u, ok := m.(*agentcore.UserMessage); ok && strings.Contains(u.Text(), summaryText) {
			s.mu.Lock()
			s.compacted++
			s.mu.Unlock()
			break
		}
	}
	switch last := msgs[len(msgs)-1].(type) {
	case *agentcore.ToolResultMessage:
		return agentcoretest.TextResponse("Here is the weather: " + strings.Repeat("sunny and mild, ", 400))
	case *agentcore.UserMessage:
		if strings.Contains(last.Text(), "weather") {
			return agentcoretest.ToolCallResponse(agentcoretest.ToolCall("w"+last.Text()[len(last.Text())-1:], "weather", map[string]string{"city": "Paris"}))
		}
	}
	return agentcoretest.TextResponse("ok")
}

// compactions reports how many summaries were written, and how many
// requests were sent from a compacted context.
func (s *scriptedModel) compactions() (summaries, compacted int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.summaries, s.compacted
}

// audit is a program's own layer: it counts the tool calls it lets through.
type audit struct {
	mu    sync.Mutex
	calls []string
}

func (a *audit) Install(s *agentcore.Setup) {
	s.AddHooks(agentcore.Hooks{BeforeToolCall: func(_ context.Context, c agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
		a.mu.Lock()
		a.calls = append(a.calls, c.ToolCall.Name)
		a.mu.Unlock()
		return nil, nil
	}})
}

func (a *audit) all() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.calls...)
}

// composed is one configuration of the page's Agent with tracing, a
// compaction of its own and the program's audit layer, on a small window.
type composed struct {
	spans *tracetest.SpanRecorder
	tp    *sdktrace.TracerProvider
	model *scriptedModel
	audit *audit
	cfg   webchat.Config
}

func newComposed() *composed {
	c := &composed{spans: tracetest.NewSpanRecorder(), model: &scriptedModel{}, audit: &audit{}}
	c.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(c.spans))
	m := agentcoretest.Model()
	m.ContextWindow = 8000
	inst := agentotel.New(agentotel.Config{TracerProvider: c.tp, AgentName: "webchat"})
	c.cfg = webchat.Config{
		Model: m, StreamFn: agentcoretest.NewFunc(c.model.respond).Stream,
		Layers: func() []agentcore.Layer { return []agentcore.Layer{inst, c.audit} },
	}
	return c
}

// prompts are the three questions of every surface: each answer takes a
// good part of the 8k window, so the transcript is compacted on the way.
var prompts = []string{"weather 1", "weather 2", "weather 3"}

// TestComposedOverAGUI serves the composed Agent through the AG-UI handler
// under a request span: each run is the child of its request's span, its
// model and tool spans its children, every span ends, the transcript was
// compacted, and the program's layer saw every call.
func TestComposedOverAGUI(t *testing.T) {
	c := newComposed()
	srv := httptest.NewServer(serverSpans(c.tp.Tracer("test"), webchat.New(c.cfg)))
	defer srv.Close()

	var history []map[string]any
	for i, p := range prompts {
		history = append(history, map[string]any{"id": "u" + p[len(p)-1:], "role": "user", "content": p})
		body, _ := json.Marshal(map[string]any{
			"threadId": "t1", "runId": "r" + p[len(p)-1:], "messages": history,
			"tools": []any{}, "context": []any{}, "state": map[string]any{}, "forwardedProps": map[string]any{},
		})
		resp, err := http.Post(srv.URL+"/agent", "application/json", strings.NewReader(string(body)))
		require.NoError(t, err)
		finished := false
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if strings.Contains(sc.Text(), `"type":"RUN_FINISHED"`) {
				finished = true
			}
			require.NotContains(t, sc.Text(), `"type":"RUN_ERROR"`, "run %d", i)
		}
		resp.Body.Close()
		require.True(t, finished, "run %d finished", i)
	}

	checkCompacted(t, c.model)
	assert.Equal(t, []string{"weather", "weather", "weather"}, c.audit.all(), "the program's layer saw every call")
	checkSpans(t, c.spans, "POST /agent", 3)
}

// TestComposedOverMCP serves the composed Agent as an MCP tool: the same
// layers do the same work for an MCP client's calls.
func TestComposedOverMCP(t *testing.T) {
	c := newComposed()
	server, err := agentmcp.NewAgentServer(&mcp.Implementation{Name: "webchat"}, agentmcp.AgentTool{
		NewAgent: func(context.Context, *mcp.ServerSession) (*agentcore.Agent, error) {
			return agentcore.New(webchat.AgentOptions(c.cfg)), nil
		},
	})
	require.NoError(t, err)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(t.Context(), st, nil)
	require.NoError(t, err)
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client"}, nil).Connect(t.Context(), ct, nil)
	require.NoError(t, err)
	defer cs.Close()

	tracer := c.tp.Tracer("test")
	for _, p := range prompts {
		ctx, span := tracer.Start(t.Context(), "tools/call")
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: agentmcp.DefaultAgentToolName, Arguments: map[string]any{"prompt": p}})
		span.End()
		require.NoError(t, err)
		require.False(t, res.IsError, "%v", res.Content)
	}
	checkCompacted(t, c.model)
	assert.Equal(t, []string{"weather", "weather", "weather"}, c.audit.all())
	checkSpans(t, c.spans, "", 3)
}

// checkCompacted checks that the window was compacted and that later
// requests were sent from the summary.
func checkCompacted(t *testing.T, m *scriptedModel) {
	t.Helper()
	summaries, compacted := m.compactions()
	assert.Positive(t, summaries, "summaries written")
	assert.Positive(t, compacted, "requests sent from a compacted context")
}

// checkSpans checks that every span started has ended, and that there
// are runs invoke_agent spans, each with chat and execute_tool children,
// and each the child of a span named parent (when not empty).
func checkSpans(t *testing.T, rec *tracetest.SpanRecorder, parent string, runs int) {
	t.Helper()
	ended := rec.Ended()
	assert.Len(t, ended, len(rec.Started()), "every span ended")
	byID := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range ended {
		byID[s.SpanContext().SpanID().String()] = s
	}
	var agents []sdktrace.ReadOnlySpan
	children := map[string][]string{}
	for _, s := range ended {
		children[s.Parent().SpanID().String()] = append(children[s.Parent().SpanID().String()], s.Name())
		if strings.HasPrefix(s.Name(), "invoke_agent") {
			agents = append(agents, s)
		}
	}
	require.Len(t, agents, runs)
	for _, a := range agents {
		kids := strings.Join(children[a.SpanContext().SpanID().String()], ",")
		assert.Contains(t, kids, "chat ", "a run's model calls are its children")
		assert.Contains(t, kids, "execute_tool weather", "a run's tool calls are its children")
		assert.Contains(t, a.Attributes(), attribute.String("gen_ai.agent.name", "webchat"))
		if parent != "" {
			p, ok := byID[a.Parent().SpanID().String()]
			require.True(t, ok, "the run has a recorded parent")
			assert.Equal(t, parent, p.Name())
		}
	}
}

// TestRun serves the page on the fake model until ctx ends, the spans
// going to a file; -h prints the usage.
func TestRun(t *testing.T) {
	var out strings.Builder
	assert.ErrorIs(t, run(t.Context(), []string{"-h"}, &out), flag.ErrHelp)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	assert.NoError(t, run(ctx, []string{"-addr", "127.0.0.1:0", "-trace", filepath.Join(t.TempDir(), "spans.json")}, &out))
}
