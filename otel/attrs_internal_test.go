package agentotel

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"

	"github.com/pi-go/agentcore"
)

// TestKeysMatchSemconv checks the attribute keys against the last
// semconv package of the otel module that holds the GenAI registry.
func TestKeysMatchSemconv(t *testing.T) {
	for _, tt := range []struct{ ours, theirs attribute.Key }{
		{keyOperationName, semconv.GenAIOperationNameKey},
		{keyProviderName, semconv.GenAIProviderNameKey},
		{keyRequestModel, semconv.GenAIRequestModelKey},
		{keyRequestMaxTokens, semconv.GenAIRequestMaxTokensKey},
		{keyRequestTemp, semconv.GenAIRequestTemperatureKey},
		{keyResponseModel, semconv.GenAIResponseModelKey},
		{keyResponseID, semconv.GenAIResponseIDKey},
		{keyFinishReasons, semconv.GenAIResponseFinishReasonsKey},
		{keyConversationID, semconv.GenAIConversationIDKey},
		{keyAgentName, semconv.GenAIAgentNameKey},
		{keyAgentID, semconv.GenAIAgentIDKey},
		{keyInputTokens, semconv.GenAIUsageInputTokensKey},
		{keyOutputTokens, semconv.GenAIUsageOutputTokensKey},
		{keyCacheReadTokens, semconv.GenAIUsageCacheReadInputTokensKey},
		{keyCacheWriteTokens, semconv.GenAIUsageCacheCreationInputTokensKey},
		{keyReasoningTokens, semconv.GenAIUsageReasoningOutputTokensKey},
		{keyTokenType, semconv.GenAITokenTypeKey},
		{keyToolName, semconv.GenAIToolNameKey},
		{keyToolCallID, semconv.GenAIToolCallIDKey},
		{keyToolType, semconv.GenAIToolTypeKey},
		{keyToolArguments, semconv.GenAIToolCallArgumentsKey},
		{keyToolResult, semconv.GenAIToolCallResultKey},
		{keyInputMessages, semconv.GenAIInputMessagesKey},
		{keyOutputMessages, semconv.GenAIOutputMessagesKey},
		{keySystemInstruction, semconv.GenAISystemInstructionsKey},
		{keyErrorType, semconv.ErrorTypeKey},
		{keyServerAddress, semconv.ServerAddressKey},
		{keyServerPort, semconv.ServerPortKey},
	} {
		assert.Equal(t, tt.theirs, tt.ours)
	}
	assert.Equal(t, semconv.GenAIOperationNameChat.Value.AsString(), opChat)
	assert.Equal(t, semconv.GenAIOperationNameExecuteTool.Value.AsString(), opExecuteTool)
	assert.Equal(t, semconv.GenAIOperationNameInvokeAgent.Value.AsString(), opInvokeAgent)
}

func TestTruncate(t *testing.T) {
	for _, tt := range []struct {
		name string
		in   string
		max  int
		want string
	}{
		{"short", "abc", 3, "abc"},
		{"cut", "abcdefgh", 6, "abc…"},
		{"no cap", "abcdef", -1, "abcdef"},
		{"rune boundary", "aébcd", 5, "a…"},
		{"the mark alone", "abcdef", 3, "…"},
		{"under the mark", "abcdef", 2, "ab"},
		{"zero", "abc", 0, ""},
	} {
		t.Run(tt.name, func(t *testing.T) { assert.Equal(t, tt.want, truncate(tt.in, tt.max)) })
	}
}

func TestArguments(t *testing.T) {
	in := &Instrumentation{maxBytes: 12}
	assert.Equal(t, json.RawMessage(`{"a":1}`), in.arguments(json.RawMessage(`{"a":1}`)))
	assert.Equal(t, json.RawMessage(`{}`), in.arguments(nil))
	assert.Equal(t, `{"a":"lon…`, in.arguments(json.RawMessage(`{"a":"long text"}`)), "over the cap: capped text")
	assert.Equal(t, `{"a":`, in.arguments(json.RawMessage(`{"a":`)), "invalid JSON: as text")
}

func TestServer(t *testing.T) {
	for _, tt := range []struct {
		url  string
		want []attribute.KeyValue
	}{
		{"", nil},
		{"not a url", nil},
		{"https://api.openai.com/v1", []attribute.KeyValue{keyServerAddress.String("api.openai.com"), keyServerPort.Int(443)}},
		{"http://localhost:11434/v1", []attribute.KeyValue{keyServerAddress.String("localhost"), keyServerPort.Int(11434)}},
		{"http://[::1]/v1", []attribute.KeyValue{keyServerAddress.String("::1"), keyServerPort.Int(80)}},
		{"unix://host", []attribute.KeyValue{keyServerAddress.String("host")}},
	} {
		t.Run(tt.url, func(t *testing.T) { assert.Equal(t, tt.want, server(tt.url)) })
	}
}

func TestFinishReasonAndErrorType(t *testing.T) {
	for _, tt := range []struct {
		reason          agentcore.StopReason
		finish, errType string
	}{
		{agentcore.StopStop, "stop", ""},
		{"", "stop", ""},
		{agentcore.StopLength, "length", ""},
		{agentcore.StopToolUse, "tool_call", ""},
		{agentcore.StopError, "error", ErrorTypeError},
		{agentcore.StopAborted, "aborted", ErrorTypeAborted},
	} {
		assert.Equal(t, tt.finish, finishReason(tt.reason), tt.reason)
		assert.Equal(t, tt.errType, errorType(&agentcore.AssistantMessage{StopReason: tt.reason}), tt.reason)
	}
	limited := &agentcore.AssistantMessage{StopReason: agentcore.StopError, Err: fmt.Errorf("request: %w", &agentcore.ProviderError{StatusCode: 429})}
	assert.Equal(t, "429", errorType(limited), "a provider's HTTP status")
	broken := &agentcore.AssistantMessage{StopReason: agentcore.StopError, Err: &agentcore.ProviderError{Message: "connection reset"}}
	assert.Equal(t, ErrorTypeError, errorType(broken), "no status")
}

func TestUsage(t *testing.T) {
	u := agentcore.Usage{Input: 10, Output: 5, CacheRead: 100, CacheWrite: 7, Reasoning: new(int64(3))}
	assert.Equal(t, []attribute.KeyValue{
		keyInputTokens.Int64(117), keyOutputTokens.Int64(5), keyCacheReadTokens.Int64(100),
		keyCacheWriteTokens.Int64(7), keyReasoningTokens.Int64(3),
	}, usageAttrs(u))
	assert.False(t, hasUsage(agentcore.Usage{}))
	assert.Equal(t, "unknown", providerName(agentcore.Model{}))
	assert.Equal(t, "openai-completions", providerName(agentcore.Model{API: "openai-completions"}))
}

func TestInputContent(t *testing.T) {
	in := &Instrumentation{maxBytes: -1}
	attrs := in.inputContent([]agentcore.Message{
		&agentcore.SystemMessage{Content: agentcore.Text("be brief")},
		&agentcore.UserMessage{Content: agentcore.Blocks(agentcore.TextBlock{Text: "look"}, agentcore.ImageBlock{Data: "AAAA", MimeType: "image/png"})},
		&agentcore.AssistantMessage{Content: []agentcore.ContentBlock{
			agentcore.ThinkingBlock{Thinking: "hmm"}, agentcore.ThinkingBlock{Thinking: "secret", Redacted: true},
			agentcore.ToolCall{ID: "c1", Name: "see", Arguments: json.RawMessage(`{"x":1}`)},
		}},
		&agentcore.ToolResultMessage{ToolCallID: "c1", ToolName: "see", Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "a cat"}}},
	})
	assert.Equal(t, []attribute.KeyValue{
		keySystemInstruction.String(`[{"type":"text","content":"be brief"}]`),
		keyInputMessages.String(`[{"role":"user","parts":[{"type":"text","content":"look"},{"type":"image","mime_type":"image/png"}]},` +
			`{"role":"assistant","parts":[{"type":"reasoning","content":"hmm"},{"type":"tool_call","id":"c1","name":"see","arguments":{"x":1}}]},` +
			`{"role":"tool","parts":[{"type":"tool_call_response","id":"c1","response":"a cat"}]}]`),
	}, attrs)
}

// TestStatusIsCapped checks that a long error text becomes a status
// description of at most MaxStatusBytes, marked as cut, and a short one
// stays whole.
func TestStatusIsCapped(t *testing.T) {
	for _, tt := range []struct {
		name, text, want string
	}{
		{name: "short", text: "429 slow down", want: "429 slow down"},
		{name: "long", text: strings.Repeat("é", MaxStatusBytes), want: strings.Repeat("é", (MaxStatusBytes-len(truncationMark))/2) + truncationMark},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := tracetest.NewSpanRecorder()
			_, span := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)).Tracer("t").Start(context.Background(), "s")
			setOutcome(span, nil, ErrorTypeError, tt.text)
			span.End()
			require.Len(t, rec.Ended(), 1)
			got := rec.Ended()[0].Status()
			assert.Equal(t, codes.Error, got.Code)
			assert.Equal(t, tt.want, got.Description)
			assert.LessOrEqual(t, len(got.Description), MaxStatusBytes)
		})
	}
}
