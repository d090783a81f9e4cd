package agentcore_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// TestSetStreamOptionsBetweenRuns changes the options pi's Agent lets a
// caller change (sessionId, thinkingBudgets, transport, maxRetryDelayMs)
// between two runs: the next request carries them.
func TestSetStreamOptionsBetweenRuns(t *testing.T) {
	ctx := t.Context()
	fake := agentcoretest.New(agentcoretest.TextResponse("one"), agentcoretest.TextResponse("two"))
	agent := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: fake.Stream,
		StreamOptions: agentcore.StreamOptions{SessionID: "session-abc", APIKey: "k"},
	})
	require.NoError(t, agent.Prompt(ctx, "first"))

	budgets := map[agentcore.ThinkingLevel]int{agentcore.ThinkingLow: 1024}
	o := agent.StreamOptions()
	o.SessionID = "session-def"
	o.ThinkingBudgets = budgets
	o.Transport = "websocket"
	o.MaxRetryDelay = 5 * time.Second
	agent.SetStreamOptions(o)
	budgets[agentcore.ThinkingLow] = 1 // the Agent holds its own copy
	require.NoError(t, agent.Prompt(ctx, "second"))

	calls := fake.Calls()
	require.Len(t, calls, 2)
	assert.Equal(t, "session-abc", calls[0].Options.SessionID)
	assert.Equal(t, "auto", calls[0].Options.Transport, "pi's Agent's default")
	got := calls[1].Options
	assert.Equal(t, "session-def", got.SessionID)
	assert.Equal(t, map[agentcore.ThinkingLevel]int{agentcore.ThinkingLow: 1024}, got.ThinkingBudgets)
	assert.Equal(t, "websocket", got.Transport)
	assert.Equal(t, 5*time.Second, got.MaxRetryDelay)
	assert.Equal(t, "k", got.APIKey, "fields not changed are kept")
	assert.Equal(t, "session-def", agent.StreamOptions().SessionID)
}

// TestSetStreamOptionsDuringRun changes the options while a run streams:
// the run keeps the options it started with, the next run gets the new ones.
func TestSetStreamOptionsDuringRun(t *testing.T) {
	ctx := t.Context()
	var agent *agentcore.Agent
	first := agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "noop", nil))
	first.OnStart = func(context.Context) {
		agent.SetStreamOptions(agentcore.StreamOptions{SessionID: "later", Transport: "sse"})
		agent.SetToolExecution(agentcore.ToolsSequential)
	}
	fake := agentcoretest.New(first, agentcoretest.TextResponse("done"), agentcoretest.TextResponse("again"))
	agent = agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{noopTool("noop")},
		StreamOptions: agentcore.StreamOptions{SessionID: "now"},
	})
	require.NoError(t, agent.Prompt(ctx, "go"))
	require.NoError(t, agent.Prompt(ctx, "again"))

	calls := fake.Calls()
	require.Len(t, calls, 3)
	assert.Equal(t, "now", calls[0].Options.SessionID)
	assert.Equal(t, "now", calls[1].Options.SessionID, "the run in progress keeps its options")
	assert.Equal(t, "auto", calls[1].Options.Transport)
	assert.Equal(t, "later", calls[2].Options.SessionID)
	assert.Equal(t, "sse", calls[2].Options.Transport)
	assert.Equal(t, agentcore.ToolsSequential, agent.ToolExecution())
}

// TestSetToolExecution switches a parallel Agent to sequential batches
// between runs: a parallel batch announces every call before the first
// ends, a sequential one ends each call before the next starts.
func TestSetToolExecution(t *testing.T) {
	ctx := t.Context()
	batch := func() agentcoretest.Response {
		return agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "noop", nil), agentcoretest.ToolCall("c2", "noop", nil))
	}
	fake := agentcoretest.New(batch(), agentcoretest.TextResponse("ok"), batch(), agentcoretest.TextResponse("ok"))
	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{noopTool("noop")}})
	require.Equal(t, agentcore.ToolsParallel, agent.ToolExecution())
	var events []string // written by the listener, read after each run
	agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		switch e := ev.(type) {
		case *agentcore.ToolExecutionStartEvent:
			events = append(events, e.Type()+":"+e.ToolCallID)
		case *agentcore.ToolExecutionEndEvent:
			events = append(events, e.Type()+":"+e.ToolCallID)
		}
	})

	require.NoError(t, agent.Prompt(ctx, "parallel"))
	parallel := events
	events = nil
	agent.SetToolExecution(agentcore.ToolsSequential)
	require.NoError(t, agent.Prompt(ctx, "sequential"))
	sequential := events

	require.Len(t, parallel, 4)
	assert.Equal(t, []string{"tool_execution_start:c1", "tool_execution_start:c2"}, parallel[:2])
	assert.Equal(t, []string{"tool_execution_start:c1", "tool_execution_end:c1", "tool_execution_start:c2", "tool_execution_end:c2"}, sequential)
	agent.SetToolExecution("")
	assert.Equal(t, agentcore.ToolsParallel, agent.ToolExecution())
}

// TestStateModes: State reports the tool-execution and queue modes, with
// their defaults spelled out.
func TestStateModes(t *testing.T) {
	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), SteeringMode: agentcore.QueueModeAll})
	st := agent.State()
	assert.Equal(t, agentcore.ToolsParallel, st.ToolExecution)
	assert.Equal(t, agentcore.QueueModeAll, st.SteeringMode)
	assert.Equal(t, agentcore.QueueModeOneAtATime, st.FollowUpMode)
	agent.SetToolExecution(agentcore.ToolsSequential)
	agent.SetFollowUpMode(agentcore.QueueModeAll)
	st = agent.State()
	assert.Equal(t, agentcore.ToolsSequential, st.ToolExecution)
	assert.Equal(t, agentcore.QueueModeAll, st.FollowUpMode)
}

func noopTool(name string) agentcore.Tool {
	return agentcore.Tool{Name: name, Execute: func(context.Context, string, json.RawMessage, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.TextResult("ok"), nil
	}}
}
