package agentotel

import (
	"errors"
	"net/url"
	"strconv"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/pi-go/agentcore"
)

// The attribute keys of the GenAI semantic conventions this package
// records, as the conventions name them.
const (
	keyOperationName     = attribute.Key("gen_ai.operation.name")
	keyProviderName      = attribute.Key("gen_ai.provider.name")
	keyRequestModel      = attribute.Key("gen_ai.request.model")
	keyRequestMaxTokens  = attribute.Key("gen_ai.request.max_tokens")
	keyRequestTemp       = attribute.Key("gen_ai.request.temperature")
	keyResponseModel     = attribute.Key("gen_ai.response.model")
	keyResponseID        = attribute.Key("gen_ai.response.id")
	keyFinishReasons     = attribute.Key("gen_ai.response.finish_reasons")
	keyConversationID    = attribute.Key("gen_ai.conversation.id")
	keyAgentName         = attribute.Key("gen_ai.agent.name")
	keyAgentID           = attribute.Key("gen_ai.agent.id")
	keyInputTokens       = attribute.Key("gen_ai.usage.input_tokens")
	keyOutputTokens      = attribute.Key("gen_ai.usage.output_tokens")
	keyCacheReadTokens   = attribute.Key("gen_ai.usage.cache_read.input_tokens")
	keyCacheWriteTokens  = attribute.Key("gen_ai.usage.cache_creation.input_tokens")
	keyReasoningTokens   = attribute.Key("gen_ai.usage.reasoning.output_tokens")
	keyTokenType         = attribute.Key("gen_ai.token.type")
	keyToolName          = attribute.Key("gen_ai.tool.name")
	keyToolCallID        = attribute.Key("gen_ai.tool.call.id")
	keyToolType          = attribute.Key("gen_ai.tool.type")
	keyToolArguments     = attribute.Key("gen_ai.tool.call.arguments")
	keyToolResult        = attribute.Key("gen_ai.tool.call.result")
	keyInputMessages     = attribute.Key("gen_ai.input.messages")
	keyOutputMessages    = attribute.Key("gen_ai.output.messages")
	keySystemInstruction = attribute.Key("gen_ai.system_instructions")
	keyErrorType         = attribute.Key("error.type")
	keyServerAddress     = attribute.Key("server.address")
	keyServerPort        = attribute.Key("server.port")
)

// The operation names of the conventions.
const (
	opChat        = "chat"
	opExecuteTool = "execute_tool"
	opInvokeAgent = "invoke_agent"
)

// The metric names: the conventions' client metrics, and their tool and
// agent durations.
const (
	metricOperationDuration = "gen_ai.client.operation.duration"
	metricTokenUsage        = "gen_ai.client.token.usage"
	metricToolDuration      = "gen_ai.execute_tool.duration"
	metricAgentDuration     = "gen_ai.invoke_agent.duration"
)

// The error.type values this package records.
const (
	// ErrorTypeError is the error.type of a model request or run that
	// ended with stopReason "error" without an HTTP status (a failure with
	// one has the status as its error.type, "429" say), and of a run
	// ended by a failing hook.
	ErrorTypeError = "error"
	// ErrorTypeAborted is the error.type of a model request, tool call or
	// run cut short by an abort (stopReason "aborted", or a failed tool
	// call while the run's ctx was cancelled).
	ErrorTypeAborted = "aborted"
	// ErrorTypeTool is the error.type of a tool call whose result is an
	// error (isError): an error or panic in Execute, an unknown tool,
	// invalid arguments, a blocked call.
	ErrorTypeTool = "tool_error"
	// ErrorTypeIncomplete is the error.type of a model request whose
	// stream ended without a final event.
	ErrorTypeIncomplete = "incomplete"
)

// providerName is the gen_ai.provider.name of model: its Provider, else
// its API, else "unknown".
func providerName(m agentcore.Model) string {
	switch {
	case m.Provider != "":
		return m.Provider
	case m.API != "":
		return m.API
	}
	return "unknown"
}

// finishReason maps a stop reason to the conventions' finish reasons.
func finishReason(r agentcore.StopReason) string {
	switch r {
	case agentcore.StopToolUse:
		return "tool_call"
	case "":
		return "stop"
	}
	return string(r)
}

// errorType is the error.type of a response m: empty when it succeeded,
// the HTTP status of a failure its provider reported one for (a
// [*agentcore.ProviderError] on m.Err), else the stop reason.
func errorType(m *agentcore.AssistantMessage) string {
	switch m.StopReason {
	case agentcore.StopError:
		if pe, ok := errors.AsType[*agentcore.ProviderError](m.Err); ok && pe.StatusCode != 0 {
			return strconv.Itoa(pe.StatusCode)
		}
		return ErrorTypeError
	case agentcore.StopAborted:
		return ErrorTypeAborted
	}
	return ""
}

// server returns the server.address and server.port of a model's BaseURL;
// none when it has no host.
func server(baseURL string) []attribute.KeyValue {
	if baseURL == "" {
		return nil
	}
	u, err := url.Parse(baseURL)
	if err != nil || u.Host == "" {
		return nil
	}
	attrs := []attribute.KeyValue{keyServerAddress.String(u.Hostname())}
	port := u.Port()
	if port == "" {
		switch u.Scheme {
		case "https":
			port = "443"
		case "http":
			port = "80"
		}
	}
	if n, err := strconv.Atoi(port); err == nil {
		attrs = append(attrs, keyServerPort.Int(n))
	}
	return attrs
}

// inputTokens is the conventions' input token count: pi counts cached
// input apart, the conventions include it.
func inputTokens(u agentcore.Usage) int64 { return u.Input + u.CacheRead + u.CacheWrite }

// hasUsage reports whether the response reported any token counts.
func hasUsage(u agentcore.Usage) bool {
	return u.Input != 0 || u.Output != 0 || u.CacheRead != 0 || u.CacheWrite != 0 || u.TotalTokens != 0
}

// usageAttrs are the gen_ai.usage attributes of u.
func usageAttrs(u agentcore.Usage) []attribute.KeyValue {
	attrs := []attribute.KeyValue{keyInputTokens.Int64(inputTokens(u)), keyOutputTokens.Int64(u.Output)}
	if u.CacheRead != 0 {
		attrs = append(attrs, keyCacheReadTokens.Int64(u.CacheRead))
	}
	if u.CacheWrite != 0 {
		attrs = append(attrs, keyCacheWriteTokens.Int64(u.CacheWrite))
	}
	if u.Reasoning != nil {
		attrs = append(attrs, keyReasoningTokens.Int64(*u.Reasoning))
	}
	return attrs
}

// appendOutcome appends the finish reason of a response that stopped for
// reason, and its usage when reported.
func appendOutcome(attrs []attribute.KeyValue, reason agentcore.StopReason, u agentcore.Usage) []attribute.KeyValue {
	attrs = append(attrs, keyFinishReasons.StringSlice([]string{finishReason(reason)}))
	if hasUsage(u) {
		attrs = append(attrs, usageAttrs(u)...)
	}
	return attrs
}

// MaxStatusBytes caps the description of a span's error status: a
// provider's error text can be long (a whole error page), and the status
// is exported with every failed span whether or not content is captured.
const MaxStatusBytes = 1024

// setOutcome sets attrs on a recording span and, when errType is set,
// error.type and an error status described by errText, cut to
// MaxStatusBytes.
func setOutcome(span trace.Span, attrs []attribute.KeyValue, errType, errText string) {
	if errType != "" {
		attrs = append(attrs, keyErrorType.String(errType))
		span.SetStatus(codes.Error, truncate(errText, MaxStatusBytes))
	}
	span.SetAttributes(attrs...)
}

// spanName is "{operation} {target}", or the operation alone when the
// target is unknown.
func spanName(operation, target string) string {
	if target == "" {
		return operation
	}
	return operation + " " + target
}
