package agentotel_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/semconv/v1.41.0/genaiconv"

	"github.com/pi-go/agentcore"
	agentotel "github.com/pi-go/agentcore/otel"
)

// streamOf returns a stream function whose streams push the events of
// produce.
func streamOf(produce func(w *agentcore.StreamWriter)) agentcore.StreamFn {
	return func(context.Context, agentcore.Model, agentcore.Request, agentcore.StreamOptions) agentcore.AssistantStream {
		return agentcore.NewAssistantStream(produce)
	}
}

func drain(s agentcore.AssistantStream) {
	for range s {
	}
}

// TestChatAttributes checks a request's span attributes: request
// parameters, a response model and ID of the provider's, every usage count,
// the content as structured values.
func TestChatAttributes(t *testing.T) {
	h := newHarness(agentotel.Config{CaptureContent: true})
	fn := h.inst.WrapStreamFn(streamOf(func(w *agentcore.StreamWriter) {
		w.Done(&agentcore.AssistantMessage{
			Content: []agentcore.ContentBlock{agentcore.ThinkingBlock{Thinking: "think"}, agentcore.TextBlock{Text: "hi"}},
			Model:   "gpt-x", ResponseModel: "gpt-x-2026", ResponseID: "resp_1", StopReason: agentcore.StopLength,
			Usage: agentcore.Usage{Input: 10, Output: 20, CacheRead: 30, CacheWrite: 40, Reasoning: new(int64(5)), TotalTokens: 100},
		})
	}))
	temp := 0.5
	drain(fn(context.Background(), agentcore.Model{ID: "gpt-x", Provider: "openai"},
		agentcore.Request{Messages: []agentcore.Message{&agentcore.UserMessage{Content: agentcore.Text("hello")}}},
		agentcore.StreamOptions{Temperature: &temp, MaxTokens: 64, SessionID: "s1"}))
	spans := h.spans.Ended()
	require.Len(t, spans, 1)
	assert.Equal(t, "chat gpt-x", spans[0].Name())
	text := func(kind, content string) attribute.Value {
		return attribute.MapValue(attribute.String("type", kind), attribute.String("content", content))
	}
	assert.ElementsMatch(t, []attribute.KeyValue{
		semconv.GenAIOperationNameChat,
		semconv.GenAIProviderNameOpenAI,
		semconv.GenAIRequestModel("gpt-x"),
		semconv.GenAIRequestStream(true),
		semconv.GenAIRequestMaxTokens(64),
		semconv.GenAIRequestTemperature(0.5),
		semconv.GenAIConversationID("s1"),
		semconv.GenAIInputMessagesKey.Slice(attribute.MapValue(
			attribute.String("role", "user"), attribute.Slice("parts", text("text", "hello")))),
		semconv.GenAIResponseModel("gpt-x-2026"),
		semconv.GenAIResponseID("resp_1"),
		semconv.GenAIResponseFinishReasons("length"),
		semconv.GenAIUsageInputTokens(80),
		semconv.GenAIUsageOutputTokens(20),
		semconv.GenAIUsageCacheReadInputTokens(30),
		semconv.GenAIUsageCacheCreationInputTokens(40),
		semconv.GenAIUsageReasoningOutputTokens(5),
		semconv.GenAIOutputMessagesKey.Slice(attribute.MapValue(
			attribute.String("role", "assistant"), attribute.Slice("parts", text("reasoning", "think"), text("text", "hi")),
			attribute.String("finish_reason", "length"))),
	}, spans[0].Attributes(), "no first chunk: no time to it")
	assert.Equal(t, codes.Unset, spans[0].Status().Code)
}

// TestChatChunks checks the time to the first chunk (an event that opens
// a content block or adds to one) on the span and in its histogram, and
// the time between chunks in its own, on the synctest clock.
func TestChatChunks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(agentotel.Config{})
		fn := h.inst.WrapStreamFn(func(ctx context.Context, m agentcore.Model, _ agentcore.Request, _ agentcore.StreamOptions) agentcore.AssistantStream {
			return agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
				msg := &agentcore.AssistantMessage{Content: []agentcore.ContentBlock{}, Provider: m.Provider, Model: m.ID}
				for _, step := range []struct {
					wait time.Duration
					ev   agentcore.AssistantEvent
				}{
					{200 * time.Millisecond, &agentcore.StartEvent{Partial: msg}}, // headers: not a chunk
					{300 * time.Millisecond, &agentcore.TextStartEvent{Partial: msg}},
					{100 * time.Millisecond, &agentcore.TextDeltaEvent{Delta: "a", Partial: msg}},
					{400 * time.Millisecond, &agentcore.TextDeltaEvent{Delta: "b", Partial: msg}},
					{time.Second, &agentcore.TextEndEvent{Content: "ab", Partial: msg}}, // closes: not a chunk
				} {
					require.NoError(t, sleep(ctx, step.wait))
					w.Push(step.ev)
				}
				msg.Content, msg.StopReason = []agentcore.ContentBlock{agentcore.TextBlock{Text: "ab"}}, agentcore.StopStop
				w.Done(msg)
			})
		})
		drain(fn(context.Background(), agentcore.Model{ID: "claude-x", Provider: "anthropic"}, agentcore.Request{}, agentcore.StreamOptions{}))
		spans := h.spans.Ended()
		require.Len(t, spans, 1)
		assert.Contains(t, spans[0].Attributes(), semconv.GenAIResponseTimeToFirstChunk(0.5))
		assert.Contains(t, spans[0].Attributes(), semconv.GenAIProviderNameAnthropic)
		metrics := h.metrics(t)
		set := "gen_ai.operation.name=chat,gen_ai.provider.name=anthropic,gen_ai.request.model=claude-x,gen_ai.response.model=claude-x"
		for _, want := range []string{
			genaiconv.ClientOperationTimeToFirstChunk{}.Name() + " (s) " + genaiconv.ClientOperationTimeToFirstChunk{}.Description() + "\n  " + set + " count=1 sum=0.5 min=0.5 max=0.5",
			genaiconv.ClientOperationTimePerOutputChunk{}.Name() + " (s) " + genaiconv.ClientOperationTimePerOutputChunk{}.Description() + "\n  " + set + " count=2 sum=0.5 min=0.1 max=0.4",
			genaiconv.ClientOperationDuration{}.Name() + " (s) " + genaiconv.ClientOperationDuration{}.Description() + "\n  " + set + " count=1 sum=2 min=2 max=2",
		} {
			assert.Contains(t, metrics, want)
		}
	})
}

// TestChatIncomplete checks the span of a stream that ends without a
// final event: a nil stream, a stream its consumer stops early.
func TestChatIncomplete(t *testing.T) {
	for _, tt := range []struct {
		name string
		fn   agentcore.StreamFn
		stop bool
	}{
		{"nil stream", func(context.Context, agentcore.Model, agentcore.Request, agentcore.StreamOptions) agentcore.AssistantStream {
			return nil
		}, false},
		{"consumer stops", streamOf(func(w *agentcore.StreamWriter) {
			w.Push(&agentcore.StartEvent{Partial: &agentcore.AssistantMessage{}})
			w.Done(&agentcore.AssistantMessage{})
		}), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(agentotel.Config{})
			s := h.inst.WrapStreamFn(tt.fn)(context.Background(), agentcore.Model{}, agentcore.Request{}, agentcore.StreamOptions{})
			for range s {
				if tt.stop {
					break
				}
			}
			spans := h.spans.Ended()
			require.Len(t, spans, 1)
			assert.Equal(t, "chat", spans[0].Name(), "no model, no model in the name")
			assert.Equal(t, codes.Error, spans[0].Status().Code)
			assert.Equal(t, agentcore.ErrStreamIncomplete.Error(), spans[0].Status().Description)
			assert.Contains(t, spans[0].Attributes(), semconv.ErrorTypeKey.String(agentotel.ErrorTypeIncomplete))
			assert.Contains(t, spans[0].Attributes(), semconv.GenAIProviderNameKey.String("unknown"))
		})
	}
}
