package providertest

import (
	"regexp"
	"strings"
	"testing"
)

// javaScriptParseError matches the words of V8's JSON.parse errors.
var javaScriptParseError = regexp.MustCompile(`^(Unexpected (end of JSON input|token|non-whitespace)|Expected |Bad (control|escaped|Unicode)|Unterminated)`)

// IsJavaScriptParseError reports whether s is the text of a V8
// JSON.parse error, which a Go parser words otherwise.
func IsJavaScriptParseError(s string) bool { return javaScriptParseError.MatchString(s) }

// GeminiErrorText returns a [Target.ErrorText] for a Gemini codec
// (providers/google, providers/vertex): it replaces the parser's words
// for a malformed chunk (Go's after malformedPrefix, V8's) with
// "<malformed chunk>" and the platform's reason for a failed connection
// (after fetchFailedPrefix) with "<reason>".
func GeminiErrorText(malformedPrefix, fetchFailedPrefix string) func(string) string {
	return func(s string) string {
		switch {
		case strings.HasPrefix(s, malformedPrefix), javaScriptParseError.MatchString(s):
			return "<malformed chunk>"
		case strings.HasPrefix(s, fetchFailedPrefix):
			return fetchFailedPrefix + "<reason>"
		}
		return s
	}
}

// madeUpID matches a tool-call ID made up from the clock and a counter.
var madeUpID = regexp.MustCompile(`_\d{13}_\d+$`)

// GeminiToolCallID is a [Target.ToolCallID] for a Gemini codec: it
// replaces the clock and counter of an ID made up for a call without one
// ("NAME_<time>_<n>").
func GeminiToolCallID(id string) string {
	return madeUpID.ReplaceAllString(id, "_<time>_<n>")
}

// Gemini returns target completed for a Gemini codec (providers/google,
// providers/vertex), whose recordings share one shape: target holds the
// provider's New, Model, APIKey and WithLimits; Gemini sets the success
// body, the refusal and its text, the error-text and tool-call-ID
// normalizers (malformedPrefix and fetchFailedPrefix as for
// [GeminiErrorText]), the body mark and the tool-call events.
func Gemini(t testing.TB, target Target, malformedPrefix, fetchFailedPrefix string) Target {
	target.Success = ReadTestdata(t, "stream", "text.sse")
	target.FirstDelta = 1 // the first chunk holds "Hello"
	target.Refusal = []byte(`{"error":{"code":429,"message":"slow down","status":"RESOURCE_EXHAUSTED"}}`)
	target.RefusalText = string(target.Refusal)
	target.ErrorText = GeminiErrorText(malformedPrefix, fetchFailedPrefix)
	target.ToolCallID = GeminiToolCallID
	target.BodyMark = `"contents":[{"parts":[{"text":"Hi"}],"role":"user"}]`
	target.WholeToolCalls = true // Gemini sends a function call whole: the pieces are text
	target.ArgumentsEvent = GeminiTextEvent
	target.ToolCallTail = []byte(`data: {"candidates":[{"content":{"parts":[],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":1,"candidatesTokenCount":1,"totalTokenCount":2}}` + "\n\n")
	return target
}

// GeminiTextEvent is the Gemini event of a text part holding text.
func GeminiTextEvent(text string) []byte {
	return []byte(`data: {"candidates":[{"content":{"parts":[{"text":` + Quote(text) + `}],"role":"model"},"index":0}],"responseId":"r"}` + "\n\n")
}
