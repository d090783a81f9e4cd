package temporal_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	durable "github.com/pi-go/agentcore/durable/temporal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHooksSeeRecordedTimes checks that hooks, which run in the workflow,
// see a tool result's recorded time and duration, those the committed
// transcript holds, not the clock of the worker replaying the loop.
func TestHooksSeeRecordedTimes(t *testing.T) {
	ctx := testCtx(t)
	type seen struct {
		timestamp int64
		duration  int64
	}
	var mu sync.Mutex
	var last *seen
	tool := echoTool(agentcore.ReplayNever, func(context.Context, string) (string, error) {
		time.Sleep(30 * time.Millisecond)
		return "a", nil
	})
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(echoCall("c1", "a")), agentcoretest.TextResponse("done"))
	o := durable.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{tool}}
	o.TransformContext = func(_ context.Context, msgs []agentcore.Message) ([]agentcore.Message, error) {
		for _, m := range msgs {
			if r, ok := m.(*agentcore.ToolResultMessage); ok {
				s := &seen{timestamp: r.Timestamp, duration: -1}
				if r.DurationMs != nil {
					s.duration = *r.DurationMs
				}
				mu.Lock()
				last = s
				mu.Unlock()
			}
		}
		return msgs, nil
	}
	s := startSession(t, o)
	require.NoError(t, s.Prompt(ctx, "go"))
	st, err := s.State(ctx)
	require.NoError(t, err)
	r := toolResults(st.Messages)["c1"]
	require.NotNil(t, r)
	require.NotNil(t, r.DurationMs)
	mu.Lock()
	defer mu.Unlock()
	require.NotNil(t, last, "the hook saw the result")
	assert.Equal(t, seen{timestamp: r.Timestamp, duration: *r.DurationMs}, *last)
	assert.GreaterOrEqual(t, *r.DurationMs, int64(30))
}

// TestHooksSeeRecordedDeclarationTime checks that a hook sees the loop's
// declaration of a tool change with the timestamp the committed transcript
// gives it.
func TestHooksSeeRecordedDeclarationTime(t *testing.T) {
	ctx := testCtx(t)
	var mu sync.Mutex
	var last int64
	fake := agentcoretest.New(agentcoretest.TextResponse("first"), agentcoretest.ToolCallResponse(echoCall("c1", "a")), agentcoretest.TextResponse("done"))
	o := durable.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{echoTool(agentcore.ReplayNever, nil), shoutTool()},
		ActiveTools: []string{"echo"}}
	o.TransformContext = func(_ context.Context, msgs []agentcore.Message) ([]agentcore.Message, error) {
		for _, m := range msgs {
			if sys, ok := m.(*agentcore.SystemMessage); ok && len(sys.ToolsAdded) == 1 && sys.ToolsAdded[0].Name == "shout" {
				mu.Lock()
				last = sys.Timestamp
				mu.Unlock()
			}
		}
		return msgs, nil
	}
	s := startSession(t, o)
	require.NoError(t, s.Prompt(ctx, "go"))
	require.NoError(t, s.SetTools(ctx, "echo", "shout"))
	require.NoError(t, s.Prompt(ctx, "again"))
	st, err := s.State(ctx)
	require.NoError(t, err)
	var committed int64
	for _, m := range st.Messages {
		if sys, ok := m.(*agentcore.SystemMessage); ok && len(sys.ToolsAdded) == 1 && sys.ToolsAdded[0].Name == "shout" {
			committed = sys.Timestamp
		}
	}
	require.NotZero(t, committed, "the change was declared")
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, committed, last)
}
