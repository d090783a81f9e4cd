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
