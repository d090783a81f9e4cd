package agentotel_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"

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
// parameters, a response model and ID of the provider's, every usage count.
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
	assert.ElementsMatch(t, []attribute.KeyValue{
		attribute.String("gen_ai.operation.name", "chat"),
		attribute.String("gen_ai.provider.name", "openai"),
		attribute.String("gen_ai.request.model", "gpt-x"),
		attribute.Int("gen_ai.request.max_tokens", 64),
		attribute.Float64("gen_ai.request.temperature", 0.5),
		attribute.String("gen_ai.conversation.id", "s1"),
		attribute.String("gen_ai.input.messages", `[{"role":"user","parts":[{"type":"text","content":"hello"}]}]`),
		attribute.String("gen_ai.response.model", "gpt-x-2026"),
		attribute.String("gen_ai.response.id", "resp_1"),
		attribute.StringSlice("gen_ai.response.finish_reasons", []string{"length"}),
		attribute.Int64("gen_ai.usage.input_tokens", 80),
		attribute.Int64("gen_ai.usage.output_tokens", 20),
		attribute.Int64("gen_ai.usage.cache_read.input_tokens", 30),
		attribute.Int64("gen_ai.usage.cache_creation.input_tokens", 40),
		attribute.Int64("gen_ai.usage.reasoning.output_tokens", 5),
		attribute.String("gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"reasoning","content":"think"},{"type":"text","content":"hi"}],"finish_reason":"length"}]`),
	}, spans[0].Attributes())
	assert.Equal(t, codes.Unset, spans[0].Status().Code)
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
			assert.Contains(t, spans[0].Attributes(), attribute.String("error.type", agentotel.ErrorTypeIncomplete))
			assert.Contains(t, spans[0].Attributes(), attribute.String("gen_ai.provider.name", "unknown"))
		})
	}
}
