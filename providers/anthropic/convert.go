package anthropic

import (
	"encoding/json"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/transform"
)

// The texts pi-ai sends around tool results.
const (
	imageOnlyResult       = "(see attached image)"
	errorImagePlaceholder = "(image attached after the tool results)"
	redactedThinkingText  = "[Reasoning redacted]"
)

// convertMessages maps a prepared transcript (its leading system message
// removed) onto request messages, as pi-ai does:
//
//   - a later system message (only present when they are sent in place)
//     becomes a role "system" message holding its rendered update, held
//     back until just before the next assistant message or the end, since
//     tool results must follow their tool calls directly;
//   - user text and images, blank texts dropped (and the message when
//     nothing is left);
//   - assistant text, signed thinking, redacted thinking and tool calls;
//     unsigned thinking is sent as text (or as thinking with an empty
//     signature when s.emptySignature); an assistant message left with no
//     block is dropped;
//   - each run of tool results becomes one user message of tool_result
//     blocks, the images of error results moved after them with a caption.
//
// When cc is set, the last block of the last message gets it if that
// message is a user or system message.
func convertMessages(messages []agentcore.Message, s settings, cc *cacheControl) []wireMessage {
	var out, pending []wireMessage
	for i := 0; i < len(messages); i++ {
		switch m := messages[i].(type) {
		case *agentcore.SystemMessage:
			if text := transform.RenderSystemUpdate(m); text != "" {
				pending = append(pending, wireMessage{Role: "system", Content: []block{newText(text)}})
			}
		case *agentcore.UserMessage:
			if msg, ok := convertUser(m); ok {
				out = append(out, msg)
			}
		case *agentcore.AssistantMessage:
			blocks := convertAssistant(m, s)
			if len(blocks) == 0 {
				continue
			}
			out = append(append(out, pending...), wireMessage{Role: "assistant", Content: blocks})
			pending = nil
		case *agentcore.ToolResultMessage:
			var results, images []block
			j := i
			for ; j < len(messages); j++ {
				tr, ok := messages[j].(*agentcore.ToolResultMessage)
				if !ok {
					break
				}
				results = append(results, convertToolResult(tr))
				images = appendErrorImages(images, tr)
			}
			i = j - 1
			out = append(out, wireMessage{Role: "user", Content: append(results, images...)})
		}
	}
	out = append(out, pending...)
	if cc != nil && len(out) > 0 {
		markLast(&out[len(out)-1], cc)
	}
	return out
}

// markLast puts a cache breakpoint on the last block of m when m is a user
// or system message; string content becomes one text block first.
func markLast(m *wireMessage, cc *cacheControl) {
	if m.Role != "user" && m.Role != "system" {
		return
	}
	switch c := m.Content.(type) {
	case string:
		m.Content = []block{textBlock{Type: "text", Text: c, CacheControl: cc}}
	case []block:
		if len(c) == 0 {
			return
		}
		if b, ok := c[len(c)-1].withCache(cc); ok {
			c[len(c)-1] = b
		}
	}
}

// convertUser maps a user message: plain content as a string (none when
// blank), block content as blocks without blank texts (none when nothing is
// left).
func convertUser(m *agentcore.UserMessage) (wireMessage, bool) {
	if m.Content.Plain {
		text := m.Content.Text()
		return wireMessage{Role: "user", Content: text}, strings.TrimSpace(text) != ""
	}
	var blocks []block
	for _, b := range m.Content.Blocks {
		switch b := b.(type) {
		case agentcore.TextBlock:
			if strings.TrimSpace(b.Text) != "" {
				blocks = append(blocks, newText(b.Text))
			}
		case agentcore.ImageBlock:
			blocks = append(blocks, newImage(b))
		}
	}
	return wireMessage{Role: "user", Content: blocks}, len(blocks) > 0
}

// convertAssistant maps the blocks of an assistant message.
func convertAssistant(m *agentcore.AssistantMessage, s settings) []block {
	var blocks []block
	for _, b := range m.Content {
		switch b := b.(type) {
		case agentcore.TextBlock:
			if strings.TrimSpace(b.Text) != "" {
				blocks = append(blocks, newText(b.Text))
			}
		case agentcore.ThinkingBlock:
			signed := strings.TrimSpace(b.ThinkingSignature) != ""
			switch {
			case b.Redacted:
				blocks = append(blocks, redactedThinkingBlock{Type: "redacted_thinking", Data: b.ThinkingSignature})
			case signed:
				blocks = append(blocks, thinkingBlock{Type: "thinking", Thinking: b.Thinking, Signature: b.ThinkingSignature})
			case strings.TrimSpace(b.Thinking) == "":
			case s.emptySignature:
				blocks = append(blocks, thinkingBlock{Type: "thinking", Thinking: b.Thinking})
			default:
				blocks = append(blocks, newText(b.Thinking))
			}
		case agentcore.ToolCall:
			input := b.Arguments
			if len(input) == 0 {
				input = json.RawMessage("{}")
			}
			blocks = append(blocks, toolUseBlock{Type: "tool_use", ID: b.ID, Name: b.Name, Input: input})
		}
	}
	return blocks
}

// convertToolResult maps a tool result. The images of an error result are
// replaced by a placeholder (the API takes only text in error results);
// appendErrorImages sends them after the results.
func convertToolResult(m *agentcore.ToolResultMessage) block {
	content := m.Content
	if m.IsError && transform.HasImages(content) {
		content = transform.ReplaceImages(content, errorImagePlaceholder)
	}
	return toolResultBlock{Type: "tool_result", ToolUseID: m.ToolCallID, Content: resultContent(content), IsError: m.IsError}
}

// appendErrorImages appends the images of an error result with a caption
// naming the call.
func appendErrorImages(out []block, m *agentcore.ToolResultMessage) []block {
	if !m.IsError || !transform.HasImages(m.Content) {
		return out
	}
	out = append(out, newText("Images from the error result of tool call "+m.ToolCallID+" ("+m.ToolName+"):"))
	for _, b := range m.Content {
		if img, ok := b.(agentcore.ImageBlock); ok {
			out = append(out, newImage(img))
		}
	}
	return out
}

// resultContent is a tool result's content: its texts joined by newlines
// when it has no image, else text and image blocks (led by a placeholder
// text when it has no text).
func resultContent(content []agentcore.ContentBlock) any {
	if !transform.HasImages(content) {
		var texts []string
		for _, b := range content {
			if t, ok := b.(agentcore.TextBlock); ok {
				texts = append(texts, t.Text)
			}
		}
		return strings.Join(texts, "\n")
	}
	var blocks []block
	hasText := false
	for _, b := range content {
		switch b := b.(type) {
		case agentcore.TextBlock:
			blocks = append(blocks, newText(b.Text))
			hasText = true
		case agentcore.ImageBlock:
			blocks = append(blocks, newImage(b))
		}
	}
	if !hasText {
		blocks = append([]block{newText(imageOnlyResult)}, blocks...)
	}
	return blocks
}

func newImage(img agentcore.ImageBlock) imageBlock {
	return imageBlock{Type: "image", Source: imageSource{Type: "base64", MediaType: img.MimeType, Data: img.Data}}
}
