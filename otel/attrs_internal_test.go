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

// TestJSONOrText checks the structured values of arguments and results:
// a JSON object or array within the cap is decoded, anything else is its
// capped text.
func TestJSONOrText(t *testing.T) {
	in := &Instrumentation{maxBytes: 40}
	for _, tt := range []struct {
		name, in string
		want     attribute.Value
	}{
		{"object", `{"b":[1,2.5,"x",true,null],"a":{"c":-3}}`, attribute.MapValue(
			attribute.Map("a", attribute.Int64("c", -3)),
			attribute.Slice("b", attribute.Int64Value(1), attribute.Float64Value(2.5), attribute.StringValue("x"),
				attribute.BoolValue(true), attribute.Value{}),
		)},
		{"array", ` [1] `, attribute.SliceValue(attribute.Int64Value(1))},
		{"big integer", `[123456789012345678901234567890]`, attribute.SliceValue(attribute.Float64Value(1.2345678901234568e29))},
		{"text", "contents of a.txt", attribute.StringValue("contents of a.txt")},
		{"a JSON string is text", `"quoted"`, attribute.StringValue(`"quoted"`)},
		{"invalid JSON", `{"a":`, attribute.StringValue(`{"a":`)},
		{"trailing data", `{} {}`, attribute.StringValue(`{} {}`)},
		{"over the cap", `{"a":"` + strings.Repeat("x", 40) + `"}`, attribute.StringValue(`{"a":"` + strings.Repeat("x", 31) + "…")},
	} {
		t.Run(tt.name, func(t *testing.T) { assert.Equal(t, tt.want, in.jsonOrText(tt.in)) })
	}
	assert.Equal(t, attribute.MapValue(), in.arguments(""), "no arguments: an empty object")
}

func TestServer(t *testing.T) {
	for _, tt := range []struct {
		url  string
		want []attribute.KeyValue
	}{
		{"", nil},
		{"not a url", nil},
		{"https://api.openai.com/v1", []attribute.KeyValue{semconv.ServerAddress("api.openai.com"), semconv.ServerPort(443)}},
		{"http://localhost:11434/v1", []attribute.KeyValue{semconv.ServerAddress("localhost"), semconv.ServerPort(11434)}},
		{"http://[::1]/v1", []attribute.KeyValue{semconv.ServerAddress("::1"), semconv.ServerPort(80)}},
		{"unix://host", []attribute.KeyValue{semconv.ServerAddress("host")}},
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
		semconv.GenAIUsageInputTokens(117), semconv.GenAIUsageOutputTokens(5), semconv.GenAIUsageCacheReadInputTokens(100),
		semconv.GenAIUsageCacheCreationInputTokens(7), semconv.GenAIUsageReasoningOutputTokens(3),
	}, usageAttrs(u))
	assert.False(t, hasUsage(agentcore.Usage{}))
}

// TestProviderName checks that pi's provider IDs map to the conventions'
// well-known values where one applies, and stay as they are elsewhere.
func TestProviderName(t *testing.T) {
	for _, tt := range []struct {
		model agentcore.Model
		want  attribute.KeyValue
	}{
		{agentcore.Model{Provider: "amazon-bedrock"}, semconv.GenAIProviderNameAWSBedrock},
		{agentcore.Model{Provider: "anthropic"}, semconv.GenAIProviderNameAnthropic},
		{agentcore.Model{Provider: "azure"}, semconv.GenAIProviderNameAzureAIOpenAI},
		{agentcore.Model{Provider: "deepseek"}, semconv.GenAIProviderNameDeepseek},
		{agentcore.Model{Provider: "google"}, semconv.GenAIProviderNameGCPGemini},
		{agentcore.Model{Provider: "google-vertex"}, semconv.GenAIProviderNameGCPVertexAI},
		{agentcore.Model{Provider: "groq"}, semconv.GenAIProviderNameGroq},
		{agentcore.Model{Provider: "mistral"}, semconv.GenAIProviderNameMistralAI},
		{agentcore.Model{Provider: "openai", API: "openai-completions"}, semconv.GenAIProviderNameOpenAI},
		{agentcore.Model{Provider: "openai-codex"}, semconv.GenAIProviderNameOpenAI},
		{agentcore.Model{Provider: "xai"}, semconv.GenAIProviderNameXAI},
		{agentcore.Model{Provider: "openrouter", API: "openai-completions"}, semconv.GenAIProviderNameKey.String("openrouter")},
		{agentcore.Model{API: "openai-completions"}, semconv.GenAIProviderNameKey.String("openai-completions")},
		{agentcore.Model{}, semconv.GenAIProviderNameKey.String("unknown")},
	} {
		assert.Equal(t, tt.want, semconv.GenAIProviderNameKey.String(providerName(tt.model)), "%+v", tt.model)
	}
}

func TestRequestContent(t *testing.T) {
	in := &Instrumentation{maxBytes: -1, capture: true, toolDefs: true}
	attrs := in.requestContent([]agentcore.Message{
		&agentcore.SystemMessage{Content: agentcore.Text("be brief"), ToolsAdded: []agentcore.ToolDeclaration{
			{Name: "see", Description: "Looks.", Parameters: json.RawMessage(`{"type":"object"}`)},
		}},
		&agentcore.UserMessage{Content: agentcore.Blocks(agentcore.TextBlock{Text: "look"}, agentcore.ImageBlock{Data: "AAAA", MimeType: "image/png"})},
		&agentcore.AssistantMessage{Content: []agentcore.ContentBlock{
			agentcore.ThinkingBlock{Thinking: "hmm"}, agentcore.ThinkingBlock{Thinking: "secret", Redacted: true},
			agentcore.ToolCall{ID: "c1", Name: "see", Arguments: json.RawMessage(`{"x":1}`)},
		}},
		&agentcore.ToolResultMessage{ToolCallID: "c1", ToolName: "see", Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "a cat"}}},
	}, true)
	require.Len(t, attrs, 3)
	assert.Equal(t, semconv.GenAISystemInstructionsKey, attrs[0].Key)
	assert.Equal(t, `[{"content":"be brief","type":"text"}]`, attrs[0].Value.String())
	assert.Equal(t, semconv.GenAIInputMessagesKey, attrs[1].Key)
	assert.Equal(t, `[{"parts":[{"content":"look","type":"text"},{"mime_type":"image/png","type":"image"}],"role":"user"},`+
		`{"parts":[{"content":"hmm","type":"reasoning"},{"arguments":{"x":1},"id":"c1","name":"see","type":"tool_call"}],"role":"assistant"},`+
		`{"parts":[{"id":"c1","response":"a cat","type":"tool_call_response"}],"role":"tool"}]`, attrs[1].Value.String())
	assert.Equal(t, semconv.GenAIToolDefinitionsKey, attrs[2].Key)
	assert.Equal(t, `[{"description":"Looks.","name":"see","type":"function"}]`, attrs[2].Value.String(), "no parameters")

	assert.Empty(t, (&Instrumentation{}).requestContent([]agentcore.Message{&agentcore.SystemMessage{Content: agentcore.Text("x")}}, true),
		"neither content nor definitions")
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
