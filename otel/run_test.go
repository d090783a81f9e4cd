package agentotel_test

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/semconv/v1.41.0/genaiconv"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	agentotel "github.com/pi-go/agentcore/otel"
)

// startSampler samples every span and keeps the attributes each span
// started with, by name: what a sampler sees.
type startSampler struct {
	mu    sync.Mutex
	start map[string][]attribute.KeyValue
}

func (s *startSampler) ShouldSample(p sdktrace.SamplingParameters) sdktrace.SamplingResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.start == nil {
		s.start = map[string][]attribute.KeyValue{}
	}
	s.start[p.Name] = p.Attributes
	return sdktrace.AlwaysSample().ShouldSample(p)
}

func (s *startSampler) Description() string { return "startSampler" }

// TestRunSpanStart checks that a run span starts with what the conventions
// want samplers to see: operation, provider (the well-known name of pi's
// provider ID), request model and the agent's identity from the Config.
func TestRunSpanStart(t *testing.T) {
	sampler := &startSampler{}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sampler), sdktrace.WithSpanProcessor(tracetest.NewSpanRecorder()))
	inst := agentotel.New(agentotel.Config{TracerProvider: tp, AgentName: "coder", AgentID: "agent-1",
		AgentVersion: "1.2.0", AgentDescription: "Fixes tests."})
	m := model()
	m.Provider, m.ID = "amazon-bedrock", "anthropic.claude-x"
	agent := inst.NewAgent(agentcore.Options{Model: m, StreamFn: agentcoretest.New(agentcoretest.TextResponse("hi")).Stream})
	require.NoError(t, agent.Prompt(context.Background(), "go"))
	assert.ElementsMatch(t, []attribute.KeyValue{
		semconv.GenAIOperationNameInvokeAgent,
		semconv.GenAIProviderNameAWSBedrock,
		semconv.GenAIRequestModel("anthropic.claude-x"),
		semconv.GenAIAgentName("coder"),
		semconv.GenAIAgentID("agent-1"),
		semconv.GenAIAgentVersion("1.2.0"),
		semconv.GenAIAgentDescription("Fixes tests."),
	}, sampler.start["invoke_agent coder"])
	assert.Subset(t, sampler.start["chat anthropic.claude-x"], []attribute.KeyValue{
		semconv.GenAIOperationNameChat, semconv.GenAIProviderNameAWSBedrock,
		semconv.GenAIRequestModel("anthropic.claude-x"), semconv.GenAIRequestStream(true),
		semconv.ServerAddress("llm.example.com"), semconv.ServerPort(443),
	})
}

// TestRunContent checks the content and tool definitions of a run span:
// the system instructions and tools of its first request, its prompts as
// input and its last response as output.
func TestRunContent(t *testing.T) {
	h := newHarness(agentotel.Config{CaptureContent: true, ToolDefinitions: true})
	fake := agentcoretest.New(agentcoretest.TextResponse("Read."))
	agent := h.inst.NewAgent(agentcore.Options{SystemPrompt: "Be brief.", Model: model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{readTool()}})
	require.NoError(t, agent.Prompt(context.Background(), "read a"))
	spans := h.spans.Ended()
	require.Len(t, spans, 2)
	run := spans[1]
	require.Equal(t, "invoke_agent", run.Name())
	text := func(kind, content string) attribute.Value {
		return attribute.MapValue(attribute.String("type", kind), attribute.String("content", content))
	}
	assert.Subset(t, run.Attributes(), []attribute.KeyValue{
		semconv.GenAISystemInstructionsKey.Slice(text("text", "Be brief.")),
		semconv.GenAIToolDefinitionsKey.Slice(attribute.MapValue(attribute.String("type", "function"),
			attribute.String("name", "read"), attribute.String("description", "Read a file."))),
		semconv.GenAIInputMessagesKey.Slice(attribute.MapValue(attribute.String("role", "user"), attribute.Slice("parts", text("text", "read a")))),
		semconv.GenAIOutputMessagesKey.Slice(attribute.MapValue(attribute.String("role", "assistant"),
			attribute.Slice("parts", text("text", "Read.")), attribute.String("finish_reason", "stop"))),
	})
	assert.Contains(t, spans[0].Attributes(), semconv.GenAIToolDefinitionsKey.Slice(attribute.MapValue(attribute.String("type", "function"),
		attribute.String("name", "read"), attribute.String("description", "Read a file."))), "on the chat span too")
}

// TestToolResultOnlyOnSuccess checks that a call that succeeded records
// its result (a JSON object as a map) and one that failed records none:
// its text is the error status, beside error.type.
func TestToolResultOnlyOnSuccess(t *testing.T) {
	synctest.Test(t, testToolResultOnlyOnSuccess)
}

func testToolResultOnlyOnSuccess(t *testing.T) {
	h := newHarness(agentotel.Config{CaptureContent: true})
	lookup := agentcore.NewTool("lookup", "Looks a city up.", func(context.Context, string, struct{}, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.TextResult(`{"city":"Lisbon","temp":18}`), nil
	})
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("ok", "lookup", nil), agentcoretest.ToolCall("bad", "fail", nil)),
		agentcoretest.TextResponse("done"),
	)
	agent := h.inst.NewAgent(agentcore.Options{Model: model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{lookup, failTool()}})
	require.NoError(t, agent.Prompt(context.Background(), "go"))
	byID := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range h.spans.Ended() {
		if id := attr(s, string(semconv.GenAIToolCallIDKey)); id != "" {
			byID[id] = s
		}
	}
	require.Len(t, byID, 2)
	assert.Contains(t, byID["ok"].Attributes(), attribute.KeyValue{Key: semconv.GenAIToolCallResultKey,
		Value: attribute.MapValue(attribute.String("city", "Lisbon"), attribute.Int64("temp", 18))})
	assert.Subset(t, byID["ok"].Attributes(), []attribute.KeyValue{
		semconv.GenAIOperationNameExecuteTool, semconv.GenAIToolName("lookup"), semconv.GenAIToolCallID("ok"),
		semconv.GenAIToolType("function"), semconv.GenAIToolDescription("Looks a city up."),
	})
	assert.Contains(t, byID["ok"].Attributes(), attribute.KeyValue{Key: semconv.GenAIToolCallArgumentsKey, Value: attribute.MapValue()})
	assert.Equal(t, codes.Unset, byID["ok"].Status().Code)
	for _, kv := range byID["bad"].Attributes() {
		assert.NotEqual(t, semconv.GenAIToolCallResultKey, kv.Key, "a failed call has no result")
	}
	assert.Contains(t, byID["bad"].Attributes(), semconv.ErrorTypeKey.String(agentotel.ErrorTypeTool))
	assert.Equal(t, codes.Error, byID["bad"].Status().Code)
	assert.Equal(t, "disk full", byID["bad"].Status().Description)
}

// TestScopeAndBuckets checks the schema URL of the spans' and metrics'
// scope, and each histogram's unit and bucket boundaries, against the
// conventions.
func TestScopeAndBuckets(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(agentotel.Config{AgentName: "coder"})
		fake := agentcoretest.New(
			agentcoretest.Response{Content: []agentcore.ContentBlock{agentcoretest.ToolCall("c1", "read", readArgs{Path: "a.txt"})}, Usage: usage(1, 1, 0)},
			agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "ok"}}, Chunks: 2},
		)
		agent := h.inst.NewAgent(agentcore.Options{Model: model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{readTool()}})
		require.NoError(t, agent.Prompt(context.Background(), "go"))
		for _, s := range h.spans.Ended() {
			if s.InstrumentationScope().Name == agentotel.ScopeName {
				assert.Equal(t, semconv.SchemaURL, s.InstrumentationScope().SchemaURL, s.Name())
			}
		}
		var rm metricdata.ResourceMetrics
		require.NoError(t, h.reader.Collect(context.Background(), &rm))
		require.Len(t, rm.ScopeMetrics, 1)
		assert.Equal(t, agentotel.ScopeName, rm.ScopeMetrics[0].Scope.Name)
		assert.Equal(t, semconv.SchemaURL, rm.ScopeMetrics[0].Scope.SchemaURL)
		seconds := []float64{0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92}
		want := map[string]struct {
			unit   string
			bounds []float64
		}{
			genaiconv.ClientOperationDuration{}.Name():           {genaiconv.ClientOperationDuration{}.Unit(), seconds},
			genaiconv.ClientOperationTimeToFirstChunk{}.Name():   {genaiconv.ClientOperationTimeToFirstChunk{}.Unit(), seconds},
			genaiconv.ClientOperationTimePerOutputChunk{}.Name(): {genaiconv.ClientOperationTimePerOutputChunk{}.Unit(), seconds},
			genaiconv.ClientTokenUsage{}.Name(): {genaiconv.ClientTokenUsage{}.Unit(),
				[]float64{1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864}},
			"gen_ai.execute_tool.duration": {"s", seconds},
			"gen_ai.invoke_agent.duration": {"s", []float64{0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.4, 12.8, 25.6, 51.2, 102.4, 204.8, 409.6}},
		}
		seen := map[string]bool{}
		for _, m := range rm.ScopeMetrics[0].Metrics {
			w, ok := want[m.Name]
			if !assert.True(t, ok, "unexpected metric %s", m.Name) {
				continue
			}
			seen[m.Name] = true
			assert.Equal(t, w.unit, m.Unit, m.Name)
			switch d := m.Data.(type) {
			case metricdata.Histogram[float64]:
				assert.Equal(t, w.bounds, d.DataPoints[0].Bounds, m.Name)
			case metricdata.Histogram[int64]:
				assert.Equal(t, w.bounds, d.DataPoints[0].Bounds, m.Name)
			}
		}
		assert.Len(t, seen, len(want))
	})
}

// TestStartRunWithoutModel checks that a run started without a model
// takes its provider and model from its first request.
func TestStartRunWithoutModel(t *testing.T) {
	h := newHarness(agentotel.Config{})
	ctx, run := h.inst.StartRun(context.Background(), agentcore.Model{})
	lr, err := agentcore.RunLoop(ctx, []agentcore.Message{&agentcore.UserMessage{Content: agentcore.Text("go")}}, agentcore.AgentContext{},
		agentcore.LoopConfig{Model: model(), StreamFn: h.inst.WrapStreamFn(agentcoretest.New(agentcoretest.TextResponse("hi")).Stream)})
	require.NoError(t, err)
	for range lr.Events() {
	}
	run.End(lr.Wait())
	spans := h.spans.Ended()
	require.Len(t, spans, 2)
	assert.Equal(t, "invoke_agent", spans[1].Name())
	assert.Subset(t, spans[1].Attributes(), []attribute.KeyValue{semconv.GenAIProviderNameKey.String("fake"), semconv.GenAIRequestModel("fake-model")})
}
