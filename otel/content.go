package agentotel

import (
	"encoding/json"
	"unicode/utf8"

	"go.opentelemetry.io/otel/attribute"

	"github.com/pi-go/agentcore"
)

// message is a message in the conventions' JSON shape for
// gen_ai.input.messages and gen_ai.output.messages.
type message struct {
	Role         string `json:"role"`
	Parts        []part `json:"parts"`
	FinishReason string `json:"finish_reason,omitempty"`
}

// part is one part of a message: text, reasoning, tool_call,
// tool_call_response, or a generic part for an image (whose data is never
// recorded).
type part struct {
	Type      string `json:"type"`
	Content   string `json:"content,omitempty"`
	ID        string `json:"id,omitempty"`
	Name      string `json:"name,omitempty"`
	Arguments any    `json:"arguments,omitempty"`
	Response  any    `json:"response,omitempty"`
	MimeType  string `json:"mime_type,omitempty"`
}

// truncationMark ends a value cut by truncate.
const truncationMark = "…"

// truncate caps s at max bytes, the mark included: a longer s is cut at a
// UTF-8 boundary and marked with "…" (a cap shorter than the mark keeps
// only the cut). A negative max keeps s whole.
func truncate(s string, max int) string {
	if max < 0 || len(s) <= max {
		return s
	}
	mark := truncationMark
	if max < len(mark) {
		mark = ""
	}
	cut := max - len(mark)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + mark
}

// arguments is a tool call's arguments as a part holds them: the JSON
// object itself when it is valid and within the cap, else its capped text.
func (in *Instrumentation) arguments(args json.RawMessage) any {
	if len(args) == 0 {
		return json.RawMessage("{}")
	}
	if (in.maxBytes < 0 || len(args) <= in.maxBytes) && json.Valid(args) {
		return args
	}
	return truncate(string(args), in.maxBytes)
}

// blockParts converts content blocks to parts, text capped.
func (in *Instrumentation) blockParts(blocks []agentcore.ContentBlock) []part {
	parts := make([]part, 0, len(blocks))
	for _, b := range blocks {
		switch b := b.(type) {
		case agentcore.TextBlock:
			parts = append(parts, part{Type: "text", Content: truncate(b.Text, in.maxBytes)})
		case agentcore.ThinkingBlock:
			if !b.Redacted {
				parts = append(parts, part{Type: "reasoning", Content: truncate(b.Thinking, in.maxBytes)})
			}
		case agentcore.ToolCall:
			parts = append(parts, part{Type: "tool_call", ID: b.ID, Name: b.Name, Arguments: in.arguments(b.Arguments)})
		case agentcore.ImageBlock:
			parts = append(parts, part{Type: "image", MimeType: b.MimeType})
		}
	}
	return parts
}

// inputContent is gen_ai.system_instructions and gen_ai.input.messages of
// a request's messages: the system prompt they replay, and the user,
// assistant and tool-result messages.
func (in *Instrumentation) inputContent(messages []agentcore.Message) []attribute.KeyValue {
	var attrs []attribute.KeyValue
	if prompt := agentcore.SystemPromptText(agentcore.CurrentSystemMessage(messages)); prompt != "" {
		attrs = append(attrs, keySystemInstruction.String(marshal([]part{{Type: "text", Content: truncate(prompt, in.maxBytes)}})))
	}
	out := make([]message, 0, len(messages))
	for _, m := range messages {
		switch m := m.(type) {
		case *agentcore.UserMessage:
			out = append(out, message{Role: "user", Parts: in.blockParts(m.Content.Blocks)})
		case *agentcore.AssistantMessage:
			out = append(out, message{Role: "assistant", Parts: in.blockParts(m.Content)})
		case *agentcore.ToolResultMessage:
			out = append(out, message{Role: "tool", Parts: []part{{
				Type: "tool_call_response", ID: m.ToolCallID,
				Response: truncate(agentcore.ToolResult{Content: m.Content}.Text(), in.maxBytes),
			}}})
		}
	}
	return append(attrs, keyInputMessages.String(marshal(out)))
}

// outputContent is gen_ai.output.messages of a response.
func (in *Instrumentation) outputContent(final *agentcore.AssistantMessage) []attribute.KeyValue {
	out := []message{{Role: "assistant", Parts: in.blockParts(final.Content), FinishReason: finishReason(final.StopReason)}}
	return []attribute.KeyValue{keyOutputMessages.String(marshal(out))}
}

// marshal is v's JSON; the values built here always marshal.
func marshal(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}
