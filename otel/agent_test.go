package agentotel_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/trace"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/internal/golden"
	agentotel "github.com/pi-go/agentcore/otel"
)

type readArgs struct {
	Path string `json:"path"`
}

// readTool takes a second per file name letter past "a" plus one, and
// opens a child span of its ctx's span, as an instrumented client would.
func readTool() agentcore.Tool {
	return agentcore.NewTool("read", "Read a file.", func(ctx context.Context, _ string, args readArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		_, span := trace.SpanFromContext(ctx).TracerProvider().Tracer("test").Start(ctx, "open "+args.Path)
		defer span.End()
		if err := sleep(ctx, time.Duration(args.Path[0]-'a'+1)*time.Second); err != nil {
			return agentcore.ToolResult{}, err
		}
		return agentcore.TextResult("contents of " + args.Path + ": " + "lorem ipsum dolor sit amet, consectetur adipiscing elit"), nil
	})
}

// failTool fails after half a second.
func failTool() agentcore.Tool {
	return agentcore.NewTool("fail", "Always fails.", func(ctx context.Context, _ string, _ struct{}, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		if err := sleep(ctx, 500*time.Millisecond); err != nil {
			return agentcore.ToolResult{}, err
		}
		return agentcore.ToolResult{}, errors.New("disk full")
	})
}

// httpSpan is an OnStart that records what an instrumented HTTP client of
// the provider would: a span under the stream function's ctx.
func httpSpan(ctx context.Context) {
	_, span := trace.SpanFromContext(ctx).TracerProvider().Tracer("test").Start(ctx, "POST /chat/completions")
	span.End()
}

func model() agentcore.Model {
	m := agentcoretest.Model()
	m.BaseURL = "https://llm.example.com/v1"
	return m
}

func usage(in, out, cacheRead int64) agentcore.Usage {
	return agentcore.Usage{Input: in, Output: out, CacheRead: cacheRead, TotalTokens: in + out + cacheRead}
}

// TestAgentRuns runs an instrumented Agent on the fake model through each
// scenario, on the synctest clock, and compares the span tree and the
// metrics with testdata/NAME.golden.
func TestAgentRuns(t *testing.T) {
	for _, tt := range []struct {
		name string
		cfg  agentotel.Config
		opts func(agent **agentcore.Agent) agentcore.Options
		// failed is whether the run fails: Prompt returns a RunError.
		failed bool
		// check, optional, runs after the run with the Prompt error.
		check func(t *testing.T, agent *agentcore.Agent, err error)
	}{
		{
			name: "parallel",
			cfg:  agentotel.Config{AgentName: "coder", AgentID: "agent-1", AgentVersion: "1.2.0", AgentDescription: "Fixes tests."},
			opts: func(**agentcore.Agent) agentcore.Options {
				return agentcore.Options{
					Model: model(), Tools: []agentcore.Tool{readTool(), failTool()},
					StreamOptions: agentcore.StreamOptions{SessionID: "session-7", MaxTokens: 1024},
					StreamFn: agentcoretest.New(
						agentcoretest.Response{
							Content: []agentcore.ContentBlock{
								agentcoretest.ToolCall("c1", "read", readArgs{Path: "a.txt"}),
								agentcoretest.ToolCall("c2", "read", readArgs{Path: "b.txt"}),
								agentcoretest.ToolCall("c3", "fail", nil),
							},
							Usage: usage(100, 20, 50), ChunkDelay: 100 * time.Millisecond, OnStart: httpSpan,
						},
						agentcoretest.Response{
							Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "done"}},
							Usage:   usage(200, 5, 0), ChunkDelay: 250 * time.Millisecond,
						},
					).Stream,
				}
			},
		},
		{
			name:   "provider-error",
			failed: true,
			opts: func(**agentcore.Agent) agentcore.Options {
				// A provider that knows the HTTP status says so on the message.
				limited := func(_ context.Context, m agentcore.Model, _ agentcore.Request, _ agentcore.StreamOptions) agentcore.AssistantStream {
					return agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
						w.Error(&agentcore.AssistantMessage{
							Content: []agentcore.ContentBlock{}, API: m.API, Provider: m.Provider, Model: m.ID,
							StopReason: agentcore.StopError, ErrorMessage: "429 rate limited",
							Err: &agentcore.ProviderError{StatusCode: 429, Message: "429 rate limited"},
						})
					})
				}
				return agentcore.Options{Model: model(), StreamFn: limited}
			},
			check: func(t *testing.T, agent *agentcore.Agent, err error) {
				assert.Equal(t, "429 rate limited", agent.State().ErrorMessage)
				assert.True(t, agentcore.IsRetryable(err))
			},
		},
		{
			name:   "abort",
			failed: true,
			opts: func(agent **agentcore.Agent) agentcore.Options {
				abortTool := agentcore.NewTool("wait", "Waits.", func(ctx context.Context, _ string, _ struct{}, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
					if err := sleep(ctx, time.Second); err != nil {
						return agentcore.ToolResult{}, err
					}
					(*agent).Abort()
					<-ctx.Done()
					return agentcore.ToolResult{}, ctx.Err()
				})
				return agentcore.Options{Model: model(), Tools: []agentcore.Tool{abortTool, readTool()}, StreamFn: agentcoretest.New(
					agentcoretest.ToolCallResponse(agentcoretest.ToolCall("w1", "wait", nil), agentcoretest.ToolCall("r1", "read", readArgs{Path: "c.txt"})),
					agentcoretest.TextResponse("never"),
				).Stream}
			},
			check: func(t *testing.T, agent *agentcore.Agent, err error) {
				assert.Equal(t, agentcoretest.AbortedText, agent.State().ErrorMessage)
				assert.ErrorIs(t, err, context.Canceled)
			},
		},
		{
			name: "steer",
			cfg:  agentotel.Config{CaptureContent: true, ToolDefinitions: true, MaxContentBytes: 32},
			opts: func(agent **agentcore.Agent) agentcore.Options {
				return agentcore.Options{
					SystemPrompt: "You are terse.", Model: model(), Tools: []agentcore.Tool{readTool()},
					StreamFn: agentcoretest.New(
						agentcoretest.Response{
							Content: []agentcore.ContentBlock{
								agentcore.TextBlock{Text: "Reading."},
								agentcoretest.ToolCall("c1", "read", readArgs{Path: "a.txt"}),
							},
							OnStart: func(context.Context) {
								(*agent).Steer(&agentcore.UserMessage{Content: agentcore.Text("also check ünïcode"), Timestamp: 2})
							},
						},
						agentcoretest.TextResponse("Both read."),
					).Stream,
				}
			},
		},
		{
			name: "nested",
			opts: func(**agentcore.Agent) agentcore.Options {
				both := agentcore.NewTool("read_both", "Reads a and b.", func(ctx context.Context, callID string, _ struct{}, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
					scope, _ := agentcore.NestedCallOptions(ctx)
					for _, path := range []string{"a.txt", "b.txt"} {
						agentcore.RunToolCall(ctx, agentcoretest.ToolCall(callID+"/"+path, "read", readArgs{Path: path}), scope)
					}
					return agentcore.TextResult("read both"), nil
				})
				return agentcore.Options{Model: model(), Tools: []agentcore.Tool{both, readTool()}, StreamFn: agentcoretest.New(
					agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "read_both", nil)),
					agentcoretest.TextResponse("done"),
				).Stream}
			},
		},
		{
			name:   "failing-hook",
			failed: true,
			opts: func(**agentcore.Agent) agentcore.Options {
				requests := 0
				return agentcore.Options{
					Model: model(), Tools: []agentcore.Tool{readTool(), {Name: "missing-execute"}},
					Hooks: agentcore.Hooks{
						BeforeToolCall: func(_ context.Context, call agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
							return &agentcore.BeforeToolCallResult{Block: call.ToolCall.Name == "read", Reason: "not allowed"}, nil
						},
						PrepareRequest: func(context.Context, agentcore.RequestContext) (*agentcore.RequestUpdate, error) {
							if requests++; requests == 2 {
								return nil, errors.New("session store unavailable")
							}
							return nil, nil
						},
					},
					StreamFn: agentcoretest.New(agentcoretest.ToolCallResponse(
						agentcoretest.ToolCall("c1", "read", readArgs{Path: "a.txt"}),
						agentcoretest.ToolCall("c2", "nope", nil),
					)).Stream,
				}
			},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := newHarness(tt.cfg)
				var agent *agentcore.Agent
				agent = h.inst.NewAgent(tt.opts(&agent))
				var seen []string
				agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
					if ev.Type() != "message_update" {
						seen = append(seen, ev.Type())
					}
				})
				ctx, parent := h.tp.Tracer("test").Start(context.Background(), "request")
				err := agent.Prompt(ctx, "fix the tests")
				parent.End()
				if tt.failed {
					_, ok := errors.AsType[*agentcore.RunError](err)
					require.True(t, ok, "Prompt returns a RunError, not %v", err)
				} else {
					require.NoError(t, err)
				}
				assert.Equal(t, "agent_start", seen[0], "the user's listener sees every event")
				assert.Equal(t, "agent_end", seen[len(seen)-1])
				if tt.check != nil {
					tt.check(t, agent, err)
				}
				golden.Check(t, []byte(h.tree()+"\n"+h.metrics(t)), filepath.Join("testdata", tt.name+".golden"))
			})
		})
	}
}
