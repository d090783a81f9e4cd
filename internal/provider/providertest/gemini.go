package providertest

import (
	"regexp"
	"strings"
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
