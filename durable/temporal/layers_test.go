package temporal_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/compaction"
	durable "github.com/pi-go/agentcore/durable/temporal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// counts counts what a layer's parts did, from any goroutine.
type counts struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *counts) add(k string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[k]++
}

func (c *counts) get(k string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[k]
}

// countingLayer counts the calls of each of its parts: a hook, the stream
// function and tool wrappers, a listener and a run wrapper.
func countingLayer(c *counts) agentcore.Layer {
	return agentcore.LayerFunc(func(s *agentcore.Setup) {
		s.AddHooks(agentcore.Hooks{FinishTurn: func(context.Context, agentcore.TurnContext) (agentcore.TurnDecision, error) {
			c.add("hook")
			return agentcore.TurnDefault, nil
		}})
		s.WrapStreamFn(func(next agentcore.StreamFn) agentcore.StreamFn {
			return func(ctx context.Context, m agentcore.Model, r agentcore.Request, o agentcore.StreamOptions) agentcore.AssistantStream {
				c.add("stream")
				return next(ctx, m, r, o)
			}
		})
		s.WrapTool(func(t agentcore.Tool) agentcore.Tool {
			exec := t.Execute
			t.Execute = func(ctx context.Context, id string, args json.RawMessage, u func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
				c.add("tool")
				return exec(ctx, id, args, u)
			}
			return t
		})
		s.Subscribe(func(context.Context, agentcore.AgentEvent) { c.add("listener") })
		s.WrapRun(func(next agentcore.RunFunc) agentcore.RunFunc {
			c.add("run")
			return next
		})
	})
}

// TestLayersInASession gives a session type a Compactor and a layer of
// every part: the hooks run in the workflow, the stream function wrapper
// in the model activity (the summary's request included), the tool
// wrapper in the tool activity, and the Compactor compacts between runs;
// listeners and run wrappers do not apply.
func TestLayersInASession(t *testing.T) {
	ctx := testCtx(t)
	c := &counts{}
	fake := agentcoretest.New(append([]agentcoretest.Response{agentcoretest.ToolCallResponse(echoCall("c1", "a"))}, compactResponses()...)...)
	o := durableOptions(scenarios[0].agentOptions(), fake.Stream)
	o.Layers = []agentcore.Layer{compaction.New(compaction.Options{Settings: compactSettings}), countingLayer(c)}
	sessions := durable.New(o)
	queue := taskQueue(t)
	startWorker(t, queue, sessions)
	cl := newClient(t, queue, sessions)
	s, err := cl.Start(ctx, queue)
	require.NoError(t, err)
	compactScript(t, s)

	assert.Equal(t, 5, c.get("stream"), "three runs' four requests and the summary, each wrapped once")
	assert.Equal(t, 1, c.get("tool"))
	assert.GreaterOrEqual(t, c.get("hook"), 4, "FinishTurn of every turn, in the workflow (again on replay)")
	assert.Zero(t, c.get("listener"))
	assert.Zero(t, c.get("run"), "run wrappers are not composed")

	st, err := s.State(ctx)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(st.Messages), 2)
	_, ok := compaction.AsSummary(st.Messages[1])
	assert.True(t, ok, "the Compactor's settings compacted between runs")
}

// TestInvalidLayerInASession gives a session type a layer whose Install
// panics: no worker crashes, and every run fails with the layer's error.
func TestInvalidLayerInASession(t *testing.T) {
	ctx := testCtx(t)
	fake := agentcoretest.New(agentcoretest.TextResponse("never"))
	o := durableOptions(scenarios[0].agentOptions(), fake.Stream)
	o.Layers = []agentcore.Layer{agentcore.LayerFunc(func(*agentcore.Setup) { panic("bad layer") })}
	sessions := durable.New(o)
	queue := taskQueue(t)
	startWorker(t, queue, sessions)
	cl := newClient(t, queue, sessions)
	s, err := cl.Start(ctx, queue)
	require.NoError(t, err)
	err = s.Prompt(ctx, "go")
	require.Error(t, err)
	assert.ErrorContains(t, err, "invalid layer")
	assert.ErrorContains(t, err, "bad layer")
	assert.Zero(t, fake.CallCount())
}
