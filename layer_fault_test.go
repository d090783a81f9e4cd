package agentcore_test

import (
	"context"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunWrapperPanics: a run wrapper that panics, while it is built or
// while it runs, fails the call with an error wrapping ErrInvalidLayer,
// as the other layer panics do, and leaves the Agent idle.
func TestRunWrapperPanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		wrap func(next agentcore.RunFunc) agentcore.RunFunc
	}{
		{name: "building", wrap: func(agentcore.RunFunc) agentcore.RunFunc { panic("bad run wrapper") }},
		{name: "running", wrap: func(agentcore.RunFunc) agentcore.RunFunc {
			return func(context.Context, agentcore.Run) error { panic("bad run wrapper") }
		}},
		{name: "after the run", wrap: func(next agentcore.RunFunc) agentcore.RunFunc {
			return func(ctx context.Context, run agentcore.Run) error {
				_ = next(ctx, run)
				panic("bad run wrapper")
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := agentcoretest.New(agentcoretest.TextResponse("ok"))
			agent := agentcore.New(agentcore.Options{
				Model: agentcoretest.Model(), StreamFn: fake.Stream,
				Layers: []agentcore.Layer{agentcore.LayerFunc(func(s *agentcore.Setup) { s.WrapRun(tc.wrap) })},
			})
			err := agent.Prompt(context.Background(), "go")
			require.ErrorIs(t, err, agentcore.ErrInvalidLayer)
			assert.ErrorContains(t, err, "run wrapper")
			assert.ErrorContains(t, err, "bad run wrapper")
			assert.False(t, agent.IsStreaming())
		})
	}
}

// TestToolWrapperNilExecute: a tool wrapper whose answer has no Execute
// fails the run's start with ErrInvalidTool; no request is made.
func TestToolWrapperNilExecute(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.TextResponse("never"))
	agent := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{layerEchoTool()},
		Layers: []agentcore.Layer{agentcore.LayerFunc(func(s *agentcore.Setup) {
			s.WrapTool(func(t agentcore.Tool) agentcore.Tool {
				t.Execute = nil
				return t
			})
		})},
	})
	err := agent.Prompt(context.Background(), "go")
	require.ErrorIs(t, err, agentcore.ErrInvalidTool)
	assert.ErrorContains(t, err, "Execute")
	assert.Equal(t, 0, fake.CallCount())

	_, err = agentcore.RunLoop(context.Background(), []agentcore.Message{agentcore.UserText("go")},
		agentcore.AgentContext{Tools: []agentcore.Tool{layerEchoTool()}},
		agentcore.LoopConfig{Model: agentcoretest.Model(), StreamFn: fake.Stream, Layers: []agentcore.Layer{agentcore.LayerFunc(func(s *agentcore.Setup) {
			s.WrapTool(func(t agentcore.Tool) agentcore.Tool { return agentcore.Tool{Name: t.Name, Parameters: t.Parameters} })
		})}})
	require.ErrorIs(t, err, agentcore.ErrInvalidTool)
	assert.Equal(t, 0, fake.CallCount())
}
