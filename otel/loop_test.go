package agentotel_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/internal/golden"
	agentotel "github.com/pi-go/agentcore/otel"
)

// threeCalls is a fake model that calls read, fail and an unknown tool in
// one batch, then answers.
func threeCalls() *agentcoretest.Fake {
	return agentcoretest.New(
		agentcoretest.ToolCallResponse(
			agentcoretest.ToolCall("c1", "read", readArgs{Path: "b.txt"}),
			agentcoretest.ToolCall("c2", "fail", nil),
			agentcoretest.ToolCall("c3", "unknown", nil),
		),
		agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "ok"}}, Usage: usage(10, 2, 0)},
	)
}

// TestRunLoop records a RunLoop run from its parts: StartRun, WrapStreamFn
// and WrapTools, whose tool spans then cover Execute.
func TestRunLoop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(agentotel.Config{AgentName: "loop"})
		fake := threeCalls()
		ctx, run := h.inst.StartRun(context.Background(), model())
		lr, err := agentcore.RunLoop(ctx,
			[]agentcore.Message{&agentcore.UserMessage{Content: agentcore.Text("go"), Timestamp: 1}},
			agentcore.AgentContext{Tools: h.inst.WrapTools([]agentcore.Tool{readTool(), failTool()})},
			agentcore.LoopConfig{Model: model(), StreamFn: h.inst.WrapStreamFn(fake.Stream)})
		require.NoError(t, err)
		for range lr.Events() {
		}
		messages, err := lr.Wait()
		require.NoError(t, err)
		run.End(messages, nil)
		run.End(messages, nil) // a second End does nothing
		golden.Check(t, []byte(h.tree()+"\n"+h.metrics(t)), filepath.Join("testdata", "runloop.golden"))
	})
}

// TestNoopProviders checks that the API's no-op providers leave every
// value as it is.
func TestNoopProviders(t *testing.T) {
	inst := agentotel.New(agentotel.Config{TracerProvider: tracenoop.NewTracerProvider(), MeterProvider: metricnoop.NewMeterProvider()})
	fake := agentcoretest.New(agentcoretest.TextResponse("hi"))
	fn := agentcore.StreamFn(fake.Stream)
	assert.Equal(t, reflect.ValueOf(fn).Pointer(), reflect.ValueOf(inst.WrapStreamFn(fn)).Pointer(), "the stream function is not wrapped")
	tools := []agentcore.Tool{readTool()}
	wrapped := inst.WrapTools(tools)
	assert.Equal(t, reflect.ValueOf(tools[0].Execute).Pointer(), reflect.ValueOf(wrapped[0].Execute).Pointer(), "the tools are not wrapped")
	ctx := context.Background()
	assert.Equal(t, ctx, func() context.Context { c, _ := inst.StartRun(ctx, model()); return c }(), "StartRun adds nothing")
	agent := inst.NewAgent(agentcore.Options{Model: model(), StreamFn: fn})
	require.NoError(t, agent.Prompt(ctx, "hello"))
	assert.Equal(t, 1, fake.CallCount())
}

// TestUnrecordedRun runs an Agent whose providers record nothing (the
// global ones, none installed): the run works, and its tools see no span.
func TestUnrecordedRun(t *testing.T) {
	inst := agentotel.New(agentotel.Config{})
	var toolSpan trace.SpanContext
	probe := agentcore.NewTool("probe", "Looks at its ctx.", func(ctx context.Context, _ string, _ struct{}, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		toolSpan = trace.SpanContextFromContext(ctx)
		return agentcore.TextResult("ok"), nil
	})
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(agentcoretest.ToolCall("p1", "probe", nil)), agentcoretest.TextResponse("done"))
	agent := inst.NewAgent(agentcore.Options{Model: model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{probe}})
	require.NoError(t, agent.Prompt(context.Background(), "go"))
	assert.Equal(t, 2, fake.CallCount())
	assert.False(t, toolSpan.IsValid())
	assert.Empty(t, agent.State().ErrorMessage)
}

// TestSampledOutRun runs an Agent whose run span is sampled out, with no
// metrics: nothing is recorded, and the model request still gets the
// run's span context to propagate.
func TestSampledOutRun(t *testing.T) {
	recorder := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.NeverSample()), sdktrace.WithSpanProcessor(recorder))
	inst := agentotel.New(agentotel.Config{TracerProvider: tp, MeterProvider: metricnoop.NewMeterProvider()})
	var requestSpan trace.SpanContext
	fake := agentcoretest.New(agentcoretest.Response{
		Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "hi"}},
		OnStart: func(ctx context.Context) { requestSpan = trace.SpanContextFromContext(ctx) },
	})
	agent := inst.NewAgent(agentcore.Options{Model: model(), StreamFn: fake.Stream})
	require.NoError(t, agent.Prompt(context.Background(), "go"))
	assert.True(t, requestSpan.IsValid(), "the request sees the run's span context")
	assert.False(t, requestSpan.IsSampled())
	assert.Empty(t, recorder.Started())
}

// TestWrappedToolPanics checks that a tool wrapped outside an instrumented
// Agent ends its span as failed when Execute panics, and that the panic
// still reaches the loop, which makes it the call's error result.
func TestWrappedToolPanics(t *testing.T) {
	h := newHarness(agentotel.Config{})
	boom := agentcore.NewTool("boom", "Panics.", func(context.Context, string, struct{}, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		panic("kaboom")
	})
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(agentcoretest.ToolCall("b1", "boom", nil)), agentcoretest.TextResponse("sorry"))
	lr, err := agentcore.RunLoop(context.Background(),
		[]agentcore.Message{&agentcore.UserMessage{Content: agentcore.Text("go")}},
		agentcore.AgentContext{Tools: h.inst.WrapTools([]agentcore.Tool{boom})},
		agentcore.LoopConfig{Model: model(), StreamFn: fake.Stream})
	require.NoError(t, err)
	var result *agentcore.ToolExecutionEndEvent
	for ev := range lr.Events() {
		if end, ok := ev.(*agentcore.ToolExecutionEndEvent); ok {
			result = end
		}
	}
	_, err = lr.Wait()
	require.NoError(t, err)
	require.NotNil(t, result)
	assert.True(t, result.IsError)
	assert.Equal(t, "kaboom", result.Result.Text())
	spans := h.spans.Ended()
	require.Len(t, spans, 1)
	assert.Equal(t, "execute_tool boom", spans[0].Name())
	assert.Equal(t, codes.Error, spans[0].Status().Code)
	assert.Contains(t, spans[0].Attributes(), attribute.String("error.type", agentotel.ErrorTypeTool))
}

// TestConcurrentAgents runs two Agents of one Instrumentation at once with
// the same call IDs: each tool's ctx carries its own call's span.
func TestConcurrentAgents(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(agentotel.Config{})
		newAgent := func() *agentcore.Agent {
			return h.inst.NewAgent(agentcore.Options{Model: model(), Tools: []agentcore.Tool{readTool()}, StreamFn: agentcoretest.New(
				agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "read", readArgs{Path: "a.txt"})),
				agentcoretest.TextResponse("done"),
			).Stream})
		}
		agents := []*agentcore.Agent{newAgent(), newAgent()}
		errs := make(chan error, len(agents))
		for _, a := range agents {
			go func() { errs <- a.Prompt(context.Background(), "go") }()
		}
		for range agents {
			require.NoError(t, <-errs)
		}
		spans := h.spans.Ended()
		require.Len(t, spans, 10)
		names := map[trace.SpanID]string{}
		parents := map[trace.SpanID]trace.SpanID{}
		for _, s := range spans {
			names[s.SpanContext().SpanID()] = s.Name()
			parents[s.SpanContext().SpanID()] = s.Parent().SpanID()
		}
		runs := map[trace.SpanID]bool{}
		for _, s := range spans {
			if s.Name() != "open a.txt" {
				continue
			}
			tool := parents[s.SpanContext().SpanID()]
			assert.Equal(t, "execute_tool read", names[tool])
			run := parents[tool]
			assert.Equal(t, "invoke_agent", names[run])
			runs[run] = true
		}
		assert.Len(t, runs, 2, "each file opens under its own run")
	})
}

// TestRunLoopLayer records a RunLoop run with the Instrumentation as a
// layer: its listener records the run and tool spans from the events, so
// that the calls that never execute (an unknown tool) have spans too, and
// the run's span is a child of ctx's.
func TestRunLoopLayer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(agentotel.Config{AgentName: "loop"})
		fake := threeCalls()
		ctx, parent := h.tp.Tracer("test").Start(context.Background(), "request")
		lr, err := agentcore.RunLoop(ctx,
			[]agentcore.Message{&agentcore.UserMessage{Content: agentcore.Text("go"), Timestamp: 1}},
			agentcore.AgentContext{Tools: []agentcore.Tool{readTool(), failTool()}},
			agentcore.LoopConfig{Model: model(), StreamFn: fake.Stream, Layers: []agentcore.Layer{h.inst}})
		require.NoError(t, err)
		for range lr.Events() {
		}
		_, err = lr.Wait()
		require.NoError(t, err)
		parent.End()
		golden.Check(t, []byte(h.tree()+"\n"+h.metrics(t)), filepath.Join("testdata", "runloop_layer.golden"))
	})
}

// TestStackWithoutAgent applies the Instrumentation as a surface without
// an Agent does (the durable session, in its activities): the wrapped
// stream function records a chat span and a wrapped tool an execute_tool
// span, each under the span of its ctx.
func TestStackWithoutAgent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(agentotel.Config{AgentName: "durable"})
		st := agentcore.NewStack([]agentcore.Layer{h.inst}, agentcore.Hooks{})
		fn, err := st.StreamFn(agentcoretest.New(agentcoretest.TextResponse("ok")).Stream)
		require.NoError(t, err)
		tools, err := st.Tools([]agentcore.Tool{readTool()})
		require.NoError(t, err)

		ctx, activity := h.tp.Tracer("test").Start(context.Background(), "model activity")
		for range fn(ctx, model(), agentcore.Request{Messages: []agentcore.Message{agentcore.UserText("go")}}, agentcore.StreamOptions{}) {
		}
		activity.End()
		ctx, activity = h.tp.Tracer("test").Start(context.Background(), "tool activity")
		_, err = tools[0].Execute(ctx, "c1", json.RawMessage(`{"path":"b.txt"}`), func(agentcore.ToolResult) {})
		require.NoError(t, err)
		activity.End()

		tree := h.tree()
		assert.Contains(t, tree, "model activity [internal] 0s..0s Unset\n  chat fake-model [client]")
		assert.Contains(t, tree, "tool activity [internal] 0s..2s Unset\n  execute_tool read [internal]")
	})
}
