package openai

import (
	"slices"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/jsvalue"
	"github.com/pi-go/agentcore/internal/transform"
)

// The texts pi-ai sends around tool results.
const (
	toolImagesCaption = "Attached image(s) from tool result:"
	imageOnlyResult   = "(see attached image)"
	emptyResult       = "(no tool output)"
)

// reasoningFields are the delta fields that carry reasoning, in the order
// they are looked for. A thinking block's signature names the field it
// came in, and it is sent back in that field.
var reasoningFields = []string{"reasoning_content", "reasoning", "reasoning_text"}

// convertMessages maps a prepared transcript onto Chat Completions
// messages. Messages of roles other than the four standard ones are
// skipped: [agentcore.Hooks.ConvertToLLM] should have removed them.
func convertMessages(model agentcore.Model, messages []agentcore.Message, s settings) []wireMessage {
	instructionRole := "system"
	if model.Reasoning && s.developerRole {
		instructionRole = "developer"
	}
	images := slices.Contains(model.Input, "image")
	out := make([]wireMessage, 0, len(messages))
	for i := 0; i < len(messages); i++ {
		switch m := messages[i].(type) {
		case *agentcore.SystemMessage:
			text := transform.RenderSystemUpdate(m)
			if i == 0 {
				text = agentcore.SystemPromptText(m)
			}
			if text != "" {
				out = append(out, wireMessage{Role: instructionRole, Content: text})
			}
		case *agentcore.UserMessage:
			if msg, ok := convertUser(m); ok {
				out = append(out, msg)
			}
		case *agentcore.AssistantMessage:
			if msg, ok := convertAssistant(m); ok {
				out = append(out, msg)
			}
		case *agentcore.ToolResultMessage:
			var n int
			out, n = appendToolResults(out, messages[i:], images, s)
			i += n - 1
		}
	}
	return out
}

// appendToolResults appends the run of tool results messages starts with,
// then a user message with their images when the model takes images; it
// returns how many messages the run holds.
func appendToolResults(out []wireMessage, messages []agentcore.Message, images bool, s settings) ([]wireMessage, int) {
	var attached []wirePart
	n := 0
	for ; n < len(messages); n++ {
		tr, ok := messages[n].(*agentcore.ToolResultMessage)
		if !ok {
			break
		}
		out = append(out, convertToolResult(tr, s))
		if images {
			attached = appendImages(attached, tr.Content)
		}
	}
	if len(attached) > 0 {
		out = append(out, wireMessage{Role: "user", Content: append([]wirePart{textPart(toolImagesCaption)}, attached...)})
	}
	return out, n
}

// convertUser maps a user message: plain content as a string, block
// content as parts without empty texts (and no message when none is left).
func convertUser(m *agentcore.UserMessage) (wireMessage, bool) {
	if m.Content.Plain {
		return wireMessage{Role: "user", Content: m.Content.Text()}, true
	}
	var parts []wirePart
	for _, b := range m.Content.Blocks {
		switch b := b.(type) {
		case agentcore.TextBlock:
			if b.Text != "" {
				parts = append(parts, textPart(b.Text))
			}
		case agentcore.ImageBlock:
			parts = append(parts, imagePart(b))
		}
	}
	if len(parts) == 0 {
		return wireMessage{}, false
	}
	return wireMessage{Role: "user", Content: parts}, true
}

// convertAssistant maps an assistant message: its non-blank texts joined
// as one string (or null), its thinking in the reasoning field it came in,
// and its tool calls. A message with neither content nor calls is dropped.
func convertAssistant(m *agentcore.AssistantMessage) (wireMessage, bool) {
	msg := wireMessage{Role: "assistant"}
	var text strings.Builder
	var thinking []agentcore.ThinkingBlock
	for _, b := range m.Content {
		switch b := b.(type) {
		case agentcore.TextBlock:
			if strings.TrimSpace(b.Text) != "" {
				text.WriteString(b.Text)
			}
		case agentcore.ThinkingBlock:
			if strings.TrimSpace(b.Thinking) != "" {
				thinking = append(thinking, b)
			}
		case agentcore.ToolCall:
			msg.ToolCalls = append(msg.ToolCalls, wireToolCall{
				ID: b.ID, Type: "function",
				Function: wireCallFunction{Name: b.Name, Arguments: argumentsText(b)},
			})
		}
	}
	if text.Len() > 0 {
		msg.Content = text.String()
	}
	if len(thinking) > 0 && slices.Contains(reasoningFields, thinking[0].ThinkingSignature) {
		texts := make([]string, len(thinking))
		for i, t := range thinking {
			texts[i] = t.Thinking
		}
		msg.ReasoningField, msg.ReasoningText = thinking[0].ThinkingSignature, strings.Join(texts, "\n")
	}
	if msg.Content == nil && len(msg.ToolCalls) == 0 {
		return wireMessage{}, false
	}
	return msg, true
}

// argumentsText is the compact JSON text of a call's arguments.
func argumentsText(c agentcore.ToolCall) string {
	if len(c.Arguments) == 0 {
		return "{}"
	}
	return jsvalue.CompactJSON(c.Arguments)
}

// convertToolResult maps a tool result onto a tool message holding its
// text, or a placeholder when it has none.
func convertToolResult(m *agentcore.ToolResultMessage, s settings) wireMessage {
	var texts []string
	hasImages := false
	for _, b := range m.Content {
		switch b := b.(type) {
		case agentcore.TextBlock:
			texts = append(texts, b.Text)
		case agentcore.ImageBlock:
			hasImages = true
		}
	}
	content := strings.Join(texts, "\n")
	switch {
	case strings.TrimSpace(content) != "":
	case hasImages:
		content = imageOnlyResult
	default:
		content = emptyResult
	}
	msg := wireMessage{Role: "tool", Content: content, ToolCallID: m.ToolCallID}
	if s.toolResultName {
		msg.Name = m.ToolName
	}
	return msg
}

// appendImages appends the images of content as parts.
func appendImages(parts []wirePart, content []agentcore.ContentBlock) []wirePart {
	for _, b := range content {
		if img, ok := b.(agentcore.ImageBlock); ok {
			parts = append(parts, imagePart(img))
		}
	}
	return parts
}
