package agentcoretest

import (
	"encoding/json"

	"github.com/pi-go/agentcore"
)

// Model returns the fake model: id and name "fake-model", api and provider
// "fake", text input, zero cost and limits.
func Model() agentcore.Model {
	return agentcore.Model{ID: "fake-model", Name: "fake-model", API: "fake", Provider: "fake", Input: []string{"text"}}
}

// TextResponse is a response of one text block that stops.
func TextResponse(text string) Response {
	return Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: text}}, StopReason: agentcore.StopStop}
}

// ThinkingResponse is a response that thinks, then answers text.
func ThinkingResponse(thinking, text string) Response {
	return Response{Content: []agentcore.ContentBlock{agentcore.ThinkingBlock{Thinking: thinking}, agentcore.TextBlock{Text: text}}}
}

// ToolCallResponse is a response that calls tools (stopReason toolUse).
func ToolCallResponse(calls ...agentcore.ToolCall) Response {
	content := make([]agentcore.ContentBlock, len(calls))
	for i, c := range calls {
		content[i] = c
	}
	return Response{Content: content, StopReason: agentcore.StopToolUse}
}

// ErrorResponse is a response that fails with text before its start event,
// like a provider refusing the request.
func ErrorResponse(text string) Response {
	return Response{StopReason: agentcore.StopError, ErrorMessage: text, NoStart: true}
}

// ToolCall builds a tool call whose arguments are args marshaled to JSON
// (a json.RawMessage or []byte is used as is). It panics if args cannot be
// marshaled: test input is a programming error.
func ToolCall(id, name string, args any) agentcore.ToolCall {
	var raw json.RawMessage
	switch a := args.(type) {
	case nil:
		raw = json.RawMessage("{}")
	case json.RawMessage:
		raw = a
	case []byte:
		raw = a
	default:
		b, err := json.Marshal(a)
		if err != nil {
			panic("agentcoretest: tool call arguments: " + err.Error())
		}
		raw = b
	}
	return agentcore.ToolCall{ID: id, Name: name, Arguments: raw}
}
