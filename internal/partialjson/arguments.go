package partialjson

import (
	"encoding/json"
	"strings"
)

// ArgumentsStream is the arguments of one streaming tool call, as pi-ai's
// ToolCallArgumentsStream keeps them: the raw text received, for the one
// strict parse when the call ends ([ArgumentsStream.Finish]), and a
// [Parser] for the preview shown while it streams
// ([ArgumentsStream.Append]). The raw text stays here, never in a content
// block. The zero value is ready to use; an ArgumentsStream is not safe for
// concurrent use.
type ArgumentsStream struct {
	text strings.Builder
	p    Parser
}

// Append adds a piece of the arguments text and returns the arguments the
// text so far shows: the preview of [Parser.Snapshot] when it is an
// object, else {} (tool arguments are an object; any other value shows as
// no arguments yet). The returned slice is never modified afterwards and
// may be retained.
func (a *ArgumentsStream) Append(piece string) json.RawMessage {
	a.text.WriteString(piece)
	a.p.Append(piece)
	if snap := a.p.Snapshot(); len(snap) > 0 && snap[0] == '{' {
		return snap
	}
	return emptyObject
}

// Text returns the raw text received so far.
func (a *ArgumentsStream) Text() string { return a.text.String() }

// Finish returns the final arguments: [Arguments] of the text received,
// never the preview, so that text whose JSON never closed is an error.
// Finishing changes nothing: Append may still be called.
func (a *ArgumentsStream) Finish() (args json.RawMessage, errText string) {
	return Arguments(a.text.String())
}
