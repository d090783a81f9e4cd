package agentcore_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// journal records what the layers of a test did, from any goroutine.
type journal struct {
	mu    sync.Mutex
	lines []string
}

func (j *journal) add(s string) {
	j.mu.Lock()
	j.lines = append(j.lines, s)
	j.mu.Unlock()
}

func (j *journal) all() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]string(nil), j.lines...)
}

// of returns the lines that start with prefix.
func (j *journal) of(prefix string) []string {
	var out []string
	for _, l := range j.all() {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}

func layerEchoTool() agentcore.Tool {
	return agentcore.Tool{
		Name: "echo", Description: "Echoes its text.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`),
		Execute: func(_ context.Context, _ string, args json.RawMessage, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			return agentcore.TextResult("echo " + string(args)), nil
		},
	}
}

// tagHooks sets every hook, recording each call under name.
func tagHooks(j *journal, name string) agentcore.Hooks {
	return agentcore.Hooks{
		ConvertToLLM: func(_ context.Context, m []agentcore.Message) ([]agentcore.Message, error) {
			j.add("convert " + name)
			return m, nil
		},
		TransformContext: func(_ context.Context, m []agentcore.Message) ([]agentcore.Message, error) {
			j.add("transform " + name)
			return m, nil
		},
		PrepareNextTurn: func(context.Context, agentcore.TurnContext) (*agentcore.TurnUpdate, error) {
			j.add("next " + name)
			return nil, nil
		},
		FinishTurn: func(context.Context, agentcore.TurnContext) (agentcore.TurnDecision, error) {
			j.add("finish " + name)
			return agentcore.TurnDefault, nil
		},
		BeforeToolCall: func(context.Context, agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
			j.add("before " + name)
			return nil, nil
		},
		AfterToolCall: func(_ context.Context, c agentcore.AfterToolCallContext) (*agentcore.AfterToolCallResult, error) {
			j.add("after " + name + ": " + c.Result.Text())
			return &agentcore.AfterToolCallResult{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: c.Result.Text() + " " + name}}}, nil
		},
	}
}

// tagLayer is a layer that sets every hook and wrapper, recording each
// call under its name.
func tagLayer(j *journal, name string) agentcore.Layer {
	return agentcore.LayerFunc(func(s *agentcore.Setup) {
		s.AddHooks(tagHooks(j, name))
		s.WrapStreamFn(func(next agentcore.StreamFn) agentcore.StreamFn {
			return func(ctx context.Context, m agentcore.Model, r agentcore.Request, o agentcore.StreamOptions) agentcore.AssistantStream {
				j.add("stream " + name)
				return next(ctx, m, r, o)
			}
		})
		s.WrapTool(func(t agentcore.Tool) agentcore.Tool {
			exec := t.Execute
			t.Execute = func(ctx context.Context, id string, args json.RawMessage, u func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
				j.add("tool " + name)
				return exec(ctx, id, args, u)
			}
			return t
		})
		s.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
			if _, ok := ev.(*agentcore.AgentStartEvent); ok {
				j.add("listen " + name)
			}
		})
		s.WrapRun(func(next agentcore.RunFunc) agentcore.RunFunc {
			return func(ctx context.Context, run agentcore.Run) error {
				j.add("run start " + name)
				defer j.add("run end " + name)
				return next(ctx, run)
			}
		})
	})
}

// echoThenDone is a fake model that calls echo once, then answers.
func echoThenDone() *agentcoretest.Fake {
	return agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "echo", map[string]string{"text": "hi"})),
		agentcoretest.TextResponse("done"),
	)
}

func TestLayersCompose(t *testing.T) {
	j := &journal{}
	fake := echoThenDone()
	agent := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{layerEchoTool()},
		Hooks:  tagHooks(j, "program"),
		Layers: []agentcore.Layer{tagLayer(j, "first"), nil, tagLayer(j, "second")},
	})
	agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		if _, ok := ev.(*agentcore.AgentStartEvent); ok {
			j.add("listen program")
		}
	})
	require.NoError(t, agent.Prompt(context.Background(), "go"))

	tests := []struct {
		prefix string
		want   []string
	}{
		{"run ", []string{"run start first", "run start second", "run end second", "run end first"}},
		{"listen ", []string{"listen first", "listen second", "listen program"}},
		{"transform ", []string{"transform first", "transform second", "transform program", "transform first", "transform second", "transform program"}},
		{"convert ", []string{"convert first", "convert second", "convert program", "convert first", "convert second", "convert program"}},
		{"stream ", []string{"stream first", "stream second", "stream first", "stream second"}},
		{"before ", []string{"before first", "before second", "before program"}},
		{"tool ", []string{"tool first", "tool second"}},
		{"after ", []string{`after first: echo {"text":"hi"}`, `after second: echo {"text":"hi"} first`, `after program: echo {"text":"hi"} first second`}},
		{"next ", []string{"next first", "next second", "next program"}},
		{"finish ", []string{"finish first", "finish second", "finish program", "finish first", "finish second", "finish program"}},
	}
	for _, tt := range tests {
		t.Run(strings.TrimSpace(tt.prefix), func(t *testing.T) {
			assert.Equal(t, tt.want, j.of(tt.prefix))
		})
	}
	msgs := agent.Messages()
	result, ok := msgs[len(msgs)-2].(*agentcore.ToolResultMessage)
	require.True(t, ok)
	assert.Equal(t, `echo {"text":"hi"} first second program`, result.Text(), "the overrides merge in order")
}

func TestLayerHookRules(t *testing.T) {
	ctx := context.Background()
	run := func(t *testing.T, layers []agentcore.Layer, program agentcore.Hooks, responses ...agentcoretest.Response) (*agentcore.Agent, *agentcoretest.Fake, error) {
		t.Helper()
		fake := agentcoretest.New(responses...)
		agent := agentcore.New(agentcore.Options{
			Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{layerEchoTool()},
			Hooks: program, Layers: layers,
		})
		return agent, fake, agent.Prompt(ctx, "go")
	}
	hooks := func(h agentcore.Hooks) agentcore.Layer {
		return agentcore.LayerFunc(func(s *agentcore.Setup) { s.AddHooks(h) })
	}
	call := agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "echo", map[string]string{"text": "hi"}))

	t.Run("BeforeToolCall stops at the first block", func(t *testing.T) {
		var later bool
		agent, _, err := run(t, []agentcore.Layer{
			hooks(agentcore.Hooks{BeforeToolCall: func(context.Context, agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
				return agentcore.Block("no"), nil
			}}),
		}, agentcore.Hooks{BeforeToolCall: func(context.Context, agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
			later = true
			return nil, nil
		}}, call, agentcoretest.TextResponse("ok"))
		require.NoError(t, err)
		assert.False(t, later)
		msgs := agent.Messages()
		assert.Equal(t, "no", msgs[len(msgs)-2].(*agentcore.ToolResultMessage).Text())
	})

	t.Run("FinishTurn end wins over continue", func(t *testing.T) {
		_, fake, err := run(t, []agentcore.Layer{
			hooks(agentcore.Hooks{FinishTurn: func(context.Context, agentcore.TurnContext) (agentcore.TurnDecision, error) {
				return agentcore.TurnContinue, nil
			}}),
			hooks(agentcore.Hooks{FinishTurn: func(context.Context, agentcore.TurnContext) (agentcore.TurnDecision, error) {
				return agentcore.TurnEnd, nil
			}}),
		}, agentcore.Hooks{}, call, agentcoretest.TextResponse("never"))
		require.NoError(t, err)
		assert.Equal(t, 1, fake.CallCount())
	})

	t.Run("FinishTurn continue from one layer", func(t *testing.T) {
		n := 0
		_, fake, err := run(t, []agentcore.Layer{
			hooks(agentcore.Hooks{FinishTurn: func(context.Context, agentcore.TurnContext) (agentcore.TurnDecision, error) {
				n++
				if n == 1 {
					return agentcore.TurnContinue, nil
				}
				return agentcore.TurnDefault, nil
			}}),
		}, agentcore.Hooks{FinishTurn: func(context.Context, agentcore.TurnContext) (agentcore.TurnDecision, error) {
			return agentcore.TurnDefault, nil
		}}, agentcoretest.TextResponse("one"), agentcoretest.TextResponse("two"))
		require.NoError(t, err)
		assert.Equal(t, 2, fake.CallCount())
	})

	t.Run("GetAPIKey first non-empty", func(t *testing.T) {
		_, fake, err := run(t, []agentcore.Layer{
			hooks(agentcore.Hooks{GetAPIKey: func(context.Context, string) (string, error) { return "", nil }}),
			hooks(agentcore.Hooks{GetAPIKey: func(context.Context, string) (string, error) { return "layer", nil }}),
		}, agentcore.Hooks{GetAPIKey: func(context.Context, string) (string, error) { return "program", nil }},
			agentcoretest.TextResponse("ok"))
		require.NoError(t, err)
		assert.Equal(t, "layer", fake.Calls()[0].Options.APIKey)
	})

	t.Run("PrepareRequest sees the earlier update", func(t *testing.T) {
		var seen agentcore.ThinkingLevel
		_, fake, err := run(t, []agentcore.Layer{
			hooks(agentcore.Hooks{PrepareRequest: func(context.Context, agentcore.RequestContext) (*agentcore.RequestUpdate, error) {
				m := agentcoretest.Model()
				m.ID = "swapped"
				return &agentcore.RequestUpdate{Model: &m, ThinkingLevel: agentcore.ThinkingHigh}, nil
			}}),
		}, agentcore.Hooks{PrepareRequest: func(_ context.Context, r agentcore.RequestContext) (*agentcore.RequestUpdate, error) {
			seen = r.ThinkingLevel
			return nil, nil
		}}, agentcoretest.TextResponse("ok"))
		require.NoError(t, err)
		assert.Equal(t, agentcore.ThinkingHigh, seen)
		assert.Equal(t, "swapped", fake.Calls()[0].Model.ID)
	})

	t.Run("an error stops the chain", func(t *testing.T) {
		var later bool
		_, _, err := run(t, []agentcore.Layer{
			hooks(agentcore.Hooks{TransformContext: func(context.Context, []agentcore.Message) ([]agentcore.Message, error) {
				return nil, errors.New("layer refused")
			}}),
		}, agentcore.Hooks{TransformContext: func(_ context.Context, m []agentcore.Message) ([]agentcore.Message, error) {
			later = true
			return m, nil
		}}, agentcoretest.TextResponse("ok"))
		require.Error(t, err)
		assert.ErrorContains(t, err, "layer refused")
		assert.False(t, later)
	})
}

func TestLayerWrapsLaterTools(t *testing.T) {
	j := &journal{}
	fake := echoThenDone()
	agent := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: fake.Stream,
		Layers: []agentcore.Layer{tagLayer(j, "l")},
	})
	agent.SetTools([]agentcore.Tool{layerEchoTool()})
	require.NoError(t, agent.Prompt(context.Background(), "go"))
	assert.Equal(t, []string{"tool l"}, j.of("tool "))
}

func TestLayerWrapRun(t *testing.T) {
	ctx := context.Background()

	t.Run("busy while wrapping", func(t *testing.T) {
		var inside []error
		fake := agentcoretest.New(agentcoretest.TextResponse("ok"))
		var agent *agentcore.Agent
		agent = agentcore.New(agentcore.Options{
			Model: agentcoretest.Model(), StreamFn: fake.Stream,
			Layers: []agentcore.Layer{agentcore.LayerFunc(func(s *agentcore.Setup) {
				s.WrapRun(func(next agentcore.RunFunc) agentcore.RunFunc {
					return func(ctx context.Context, run agentcore.Run) error {
						inside = append(inside, agent.Prompt(ctx, "again"), agent.Reset())
						assert.True(t, agent.IsStreaming())
						assert.Same(t, agent, s.Agent())
						return next(ctx, run)
					}
				})
			})},
		})
		require.NoError(t, agent.Prompt(ctx, "go"))
		assert.Equal(t, []error{agentcore.ErrBusy, agentcore.ErrBusy}, inside)
		assert.False(t, agent.IsStreaming())
	})

	t.Run("abort cancels the wrapper", func(t *testing.T) {
		fake := agentcoretest.New(agentcoretest.TextResponse("never"))
		started := make(chan struct{})
		var agent *agentcore.Agent
		agent = agentcore.New(agentcore.Options{
			Model: agentcoretest.Model(), StreamFn: fake.Stream,
			Layers: []agentcore.Layer{agentcore.LayerFunc(func(s *agentcore.Setup) {
				s.WrapRun(func(next agentcore.RunFunc) agentcore.RunFunc {
					return func(ctx context.Context, run agentcore.Run) error {
						close(started)
						<-ctx.Done() // a slow step before the run, ended by Abort
						return ctx.Err()
					}
				})
			})},
		})
		errc := make(chan error, 1)
		go func() { errc <- agent.Prompt(ctx, "go") }()
		<-started
		agent.Abort()
		assert.ErrorIs(t, <-errc, context.Canceled)
		assert.Equal(t, 0, fake.CallCount())
	})

	t.Run("retry continues the transcript", func(t *testing.T) {
		fake := agentcoretest.New(agentcoretest.ErrorResponse("overloaded"), agentcoretest.TextResponse("second try"))
		var agent *agentcore.Agent
		agent = agentcore.New(agentcore.Options{
			Model: agentcoretest.Model(), StreamFn: fake.Stream,
			Layers: []agentcore.Layer{agentcore.LayerFunc(func(s *agentcore.Setup) {
				s.WrapRun(func(next agentcore.RunFunc) agentcore.RunFunc {
					return func(ctx context.Context, run agentcore.Run) error {
						if _, ok := errors.AsType[*agentcore.RunError](next(ctx, run)); !ok {
							return nil
						}
						msgs := agent.Messages()
						agent.SetMessages(msgs[:len(msgs)-1]) // drop the failed reply
						return next(ctx, agentcore.Run{Continue: true})
					}
				})
			})},
		})
		require.NoError(t, agent.Prompt(ctx, "go"))
		st := agent.State()
		assert.Empty(t, st.ErrorMessage)
		require.Len(t, st.Messages, 2)
		assert.Equal(t, "second try", st.Messages[1].(*agentcore.AssistantMessage).Text())
	})

	t.Run("a panic is the call's error", func(t *testing.T) {
		agent := agentcore.New(agentcore.Options{
			Model: agentcoretest.Model(), StreamFn: agentcoretest.New().Stream,
			Layers: []agentcore.Layer{agentcore.LayerFunc(func(s *agentcore.Setup) {
				s.WrapRun(func(agentcore.RunFunc) agentcore.RunFunc {
					return func(context.Context, agentcore.Run) error { panic("boom") }
				})
			})},
		})
		assert.ErrorContains(t, agent.Prompt(ctx, "go"), "boom")
		assert.False(t, agent.IsStreaming())
		assert.NoError(t, agent.Reset(), "the Agent is idle again")
	})
}

func TestRunLoopLayers(t *testing.T) {
	j := &journal{}
	fake := echoThenDone()
	run, err := agentcore.RunLoop(context.Background(), []agentcore.Message{agentcore.UserText("go")},
		agentcore.AgentContext{Tools: []agentcore.Tool{layerEchoTool()}},
		agentcore.LoopConfig{Model: agentcoretest.Model(), StreamFn: fake.Stream, Layers: []agentcore.Layer{tagLayer(j, "l")}})
	require.NoError(t, err)
	for range run.Events() {
	}
	_, err = run.Wait()
	require.NoError(t, err)
	assert.Equal(t, []string{"listen l"}, j.of("listen "))
	assert.Equal(t, []string{"tool l"}, j.of("tool "))
	assert.Equal(t, []string{"stream l", "stream l"}, j.of("stream "))
	assert.Empty(t, j.of("run "), "run wrappers need an Agent")
}

func TestStack(t *testing.T) {
	j := &journal{}
	st := agentcore.NewStack([]agentcore.Layer{tagLayer(j, "l")}, tagHooks(j, "program"))
	assert.True(t, st.WrapsRuns())
	assert.Len(t, st.Listeners(), 1)
	fn, err := st.StreamFn(nil)
	require.NoError(t, err)
	assert.Nil(t, fn)
	tools, err := st.Tools([]agentcore.Tool{layerEchoTool()})
	require.NoError(t, err)
	_, err = tools[0].Execute(context.Background(), "c1", json.RawMessage(`{}`), func(agentcore.ToolResult) {})
	require.NoError(t, err)
	h := st.Hooks()
	_, err = h.TransformContext(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"tool l", "transform l", "transform program"}, j.all())
}

// TestToolCallOptions runs a call outside the loop as the Agent's runs do:
// through its layers' tool wrappers and composed hooks.
func TestToolCallOptions(t *testing.T) {
	j := &journal{}
	agent := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: agentcoretest.New().Stream, Tools: []agentcore.Tool{layerEchoTool()},
		Hooks: tagHooks(j, "program"), Layers: []agentcore.Layer{tagLayer(j, "l")},
	})
	opts := agent.ToolCallOptions()
	o := agentcore.RunToolCall(context.Background(), agentcoretest.ToolCall("c1", "echo", map[string]string{"text": "hi"}), opts)
	require.False(t, o.IsError)
	assert.Equal(t, `echo {"text":"hi"} l program`, o.Result.Text())
	assert.Equal(t, []string{"before l", "before program", "tool l", `after l: echo {"text":"hi"}`, `after program: echo {"text":"hi"} l`}, j.all())
}

// nilLayer is a Layer whose nil pointer is skipped like a nil Layer.
type nilLayer struct{ installed bool }

func (l *nilLayer) Install(*agentcore.Setup) { l.installed = true }

func TestInvalidLayers(t *testing.T) {
	panics := func(where string) agentcore.Layer {
		return agentcore.LayerFunc(func(s *agentcore.Setup) {
			switch where {
			case "install":
				s.AddHooks(agentcore.Hooks{FinishTurn: func(context.Context, agentcore.TurnContext) (agentcore.TurnDecision, error) {
					return agentcore.TurnEnd, nil
				}})
				panic("bad layer")
			case "stream":
				s.WrapStreamFn(func(agentcore.StreamFn) agentcore.StreamFn { panic("bad stream wrapper") })
			case "tool":
				s.WrapTool(func(agentcore.Tool) agentcore.Tool { panic("bad tool wrapper") })
			}
		})
	}
	for _, where := range []string{"install", "stream", "tool"} {
		t.Run(where, func(t *testing.T) {
			fake := agentcoretest.New(agentcoretest.TextResponse("never"))
			agent := agentcore.New(agentcore.Options{
				Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{layerEchoTool()},
				Layers: []agentcore.Layer{(*nilLayer)(nil), panics(where)},
			})
			err := agent.Prompt(context.Background(), "go")
			require.ErrorIs(t, err, agentcore.ErrInvalidLayer)
			assert.ErrorContains(t, err, "bad ")
			assert.Equal(t, 0, fake.CallCount())
			assert.False(t, agent.IsStreaming())
			assert.Len(t, agent.Messages(), 1, "the transcript holds only its system message")

			_, err = agentcore.RunLoop(context.Background(), []agentcore.Message{agentcore.UserText("go")},
				agentcore.AgentContext{Tools: []agentcore.Tool{layerEchoTool()}},
				agentcore.LoopConfig{Model: agentcoretest.Model(), StreamFn: fake.Stream, Layers: []agentcore.Layer{panics(where)}})
			assert.ErrorIs(t, err, agentcore.ErrInvalidLayer)
		})
	}
	st := agentcore.NewStack([]agentcore.Layer{panics("install"), (*nilLayer)(nil)}, agentcore.Hooks{})
	assert.ErrorIs(t, st.Err(), agentcore.ErrInvalidLayer)
	assert.Nil(t, st.Hooks().FinishTurn, "the failed layer's hooks are left out")
}
