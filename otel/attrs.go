package agentotel

import (
	"errors"
	"net/url"
	"strconv"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/pi-go/agentcore"
)

// The operation names of the conventions.
var (
	opChat        = semconv.GenAIOperationNameChat.Value.AsString()
	opExecuteTool = semconv.GenAIOperationNameExecuteTool.Value.AsString()
	opInvokeAgent = semconv.GenAIOperationNameInvokeAgent.Value.AsString()
)

// The metrics of the GenAI conventions that semconv 1.41.0 (and so its
// genaiconv package) does not define yet: the tool and agent durations.
const (
	metricToolDuration  = "gen_ai.execute_tool.duration"
	metricAgentDuration = "gen_ai.invoke_agent.duration"
)

// toolTypeFunction is the gen_ai.tool.type of every tool: the agent runs
// it on the client side, with the arguments the model generated.
var toolTypeFunction = semconv.GenAIToolType("function")

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
	attrs := []attribute.KeyValue{semconv.ServerAddress(u.Hostname())}
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
		attrs = append(attrs, semconv.ServerPort(n))
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
	attrs := []attribute.KeyValue{
		semconv.GenAIUsageInputTokensKey.Int64(inputTokens(u)),
		semconv.GenAIUsageOutputTokensKey.Int64(u.Output),
	}
	if u.CacheRead != 0 {
		attrs = append(attrs, semconv.GenAIUsageCacheReadInputTokensKey.Int64(u.CacheRead))
	}
	if u.CacheWrite != 0 {
		attrs = append(attrs, semconv.GenAIUsageCacheCreationInputTokensKey.Int64(u.CacheWrite))
	}
	if u.Reasoning != nil {
		attrs = append(attrs, semconv.GenAIUsageReasoningOutputTokensKey.Int64(*u.Reasoning))
	}
	return attrs
}

// appendOutcome appends the finish reason of a response that stopped for
// reason, and its usage when reported.
func appendOutcome(attrs []attribute.KeyValue, reason agentcore.StopReason, u agentcore.Usage) []attribute.KeyValue {
	attrs = append(attrs, semconv.GenAIResponseFinishReasons(finishReason(reason)))
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
		attrs = append(attrs, semconv.ErrorTypeKey.String(errType))
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
