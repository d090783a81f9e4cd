package agentotel

import (
	"unicode/utf8"

	"go.opentelemetry.io/otel/attribute"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"

	"github.com/pi-go/agentcore"
)

// The content attributes are structured values in the conventions'
// shapes: a message is a map of role, parts and (output) finish_reason; a
// part a map of type and its fields (text and reasoning: content;
// tool_call: id, name, arguments; tool_call_response: id, response; an
// image: a generic part of type "image" with its mime_type, never its
// data).

// The keys of the messages' and parts' maps.
const (
	fieldRole         = "role"
	fieldParts        = "parts"
	fieldFinishReason = "finish_reason"
	fieldType         = "type"
	fieldContent      = "content"
	fieldID           = "id"
	fieldName         = "name"
	fieldDescription  = "description"
	fieldArguments    = "arguments"
	fieldResponse     = "response"
	fieldMimeType     = "mime_type"
)

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

// textValue is s capped, as a string value.
func (in *Instrumentation) textValue(s string) attribute.Value {
	return attribute.StringValue(truncate(s, in.maxBytes))
}

// jsonOrText is s as a structured value when it is a JSON object or array
// within the cap (the conventions ask tool arguments and results to be
// deserialized when they can be), else its capped text.
func (in *Instrumentation) jsonOrText(s string) attribute.Value {
	if in.maxBytes < 0 || len(s) <= in.maxBytes {
		if v, ok := jsonValue(s); ok {
			return v
		}
	}
	return in.textValue(s)
}

// arguments is a tool call's arguments: the object, an empty one when
// there are none.
func (in *Instrumentation) arguments(args string) attribute.Value {
	if args == "" {
		return attribute.MapValue()
	}
	return in.jsonOrText(args)
}

func part(kind string, fields ...attribute.KeyValue) attribute.Value {
	return attribute.MapValue(append([]attribute.KeyValue{attribute.String(fieldType, kind)}, fields...)...)
}

// textPart is a part of type kind whose content is text, capped.
func (in *Instrumentation) textPart(kind, text string) attribute.Value {
	return part(kind, attribute.KeyValue{Key: fieldContent, Value: in.textValue(text)})
}

// withID appends the id field when id is set.
func withID(fields []attribute.KeyValue, id string) []attribute.KeyValue {
	if id == "" {
		return fields
	}
	return append(fields, attribute.String(fieldID, id))
}

// blockParts converts content blocks to parts.
func (in *Instrumentation) blockParts(blocks []agentcore.ContentBlock) []attribute.Value {
	parts := make([]attribute.Value, 0, len(blocks))
	for _, b := range blocks {
		switch b := b.(type) {
		case agentcore.TextBlock:
			parts = append(parts, in.textPart("text", b.Text))
		case agentcore.ThinkingBlock:
			if !b.Redacted {
				parts = append(parts, in.textPart("reasoning", b.Thinking))
			}
		case agentcore.ToolCall:
			fields := withID(make([]attribute.KeyValue, 0, 3), b.ID)
			parts = append(parts, part("tool_call", append(fields, attribute.String(fieldName, b.Name),
				attribute.KeyValue{Key: fieldArguments, Value: in.arguments(string(b.Arguments))})...))
		case agentcore.ImageBlock:
			parts = append(parts, part("image", attribute.String(fieldMimeType, b.MimeType)))
		}
	}
	return parts
}

func message(role string, parts []attribute.Value, extra ...attribute.KeyValue) attribute.Value {
	return attribute.MapValue(append([]attribute.KeyValue{attribute.String(fieldRole, role), attribute.Slice(fieldParts, parts...)}, extra...)...)
}

// messages converts the user, assistant and tool-result messages of
// messages (system messages are the system instructions) to the
// conventions' input messages.
func (in *Instrumentation) messages(messages []agentcore.Message) []attribute.Value {
	out := make([]attribute.Value, 0, len(messages))
	for _, m := range messages {
		switch m := m.(type) {
		case *agentcore.UserMessage:
			out = append(out, message("user", in.blockParts(m.Content.Blocks)))
		case *agentcore.AssistantMessage:
			out = append(out, message("assistant", in.blockParts(m.Content)))
		case *agentcore.ToolResultMessage:
			fields := withID(make([]attribute.KeyValue, 0, 2), m.ToolCallID)
			response := in.jsonOrText(agentcore.ToolResult{Content: m.Content}.Text())
			out = append(out, message("tool", []attribute.Value{part("tool_call_response", append(fields, attribute.KeyValue{Key: fieldResponse, Value: response})...)}))
		}
	}
	return out
}

// requestContent is what a request's messages give a span:
// gen_ai.system_instructions (the system prompt they replay) and
// gen_ai.input.messages when content is captured, gen_ai.tool.definitions
// (the tools they declare) when tool definitions are.
func (in *Instrumentation) requestContent(messages []agentcore.Message, withMessages bool) []attribute.KeyValue {
	if !in.capture && !in.toolDefs {
		return nil
	}
	var attrs []attribute.KeyValue
	sys := agentcore.CurrentSystemMessage(messages)
	if in.capture {
		if prompt := agentcore.SystemPromptText(sys); prompt != "" {
			attrs = append(attrs, semconv.GenAISystemInstructionsKey.Slice(in.textPart("text", prompt)))
		}
		if withMessages {
			attrs = append(attrs, semconv.GenAIInputMessagesKey.Slice(in.messages(messages)...))
		}
	}
	if in.toolDefs && sys != nil && len(sys.ToolsAdded) > 0 {
		defs := make([]attribute.Value, len(sys.ToolsAdded))
		for i, t := range sys.ToolsAdded {
			defs[i] = part("function", attribute.String(fieldName, t.Name), attribute.String(fieldDescription, t.Description))
		}
		attrs = append(attrs, semconv.GenAIToolDefinitionsKey.Slice(defs...))
	}
	return attrs
}

// outputContent is gen_ai.output.messages of a response.
func (in *Instrumentation) outputContent(final *agentcore.AssistantMessage) attribute.KeyValue {
	return semconv.GenAIOutputMessagesKey.Slice(message("assistant", in.blockParts(final.Content),
		attribute.String(fieldFinishReason, finishReason(final.StopReason))))
}
