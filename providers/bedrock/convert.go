package bedrock

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/jsonv"
	"github.com/pi-go/agentcore/internal/transform"
)

// The texts pi-ai sends in place of what Bedrock refuses.
const (
	// emptyText stands for content Bedrock would refuse as empty.
	emptyText             = "<empty>"
	errorImagePlaceholder = "(image attached after the tool results)"
)

// convertMessages maps a transcript, its system messages collapsed, onto
// Bedrock messages as pi-ai does (its leading system message is the
// request's system prompt):
//
//   - user text and images, blank texts dropped ("<empty>" when nothing is
//     left);
//   - assistant text, tool calls (their arguments without empty keys) and
//     thinking: signed reasoning for Claude (unsigned thinking as text),
//     reasoning without a signature for other models, redacted reasoning
//     as its encrypted bytes; blank blocks are dropped, and a message left
//     with none;
//   - each run of tool results becomes one user message; for Claude the
//     images of error results follow all the results, with a caption.
//
// cp, when not nil, is the cache point put after the last message when it
// is a user message. An image of a type Bedrock does not take fails the
// request.
func convertMessages(model agentcore.Model, messages []agentcore.Message, cp *cachePoint) ([]wireMessage, error) {
	prepared := transform.Prepare(model, messages, normalizeToolCallID)
	if len(prepared) > 0 {
		if _, ok := prepared[0].(*agentcore.SystemMessage); ok {
			prepared = prepared[1:]
		}
	}
	claude := isClaude(model)
	var out []wireMessage
	for i := 0; i < len(prepared); i++ {
		var err error
		switch m := prepared[i].(type) {
		case *agentcore.UserMessage:
			var content []contentBlock
			content, err = convertUser(m)
			out = append(out, wireMessage{Role: "user", Content: content})
		case *agentcore.AssistantMessage:
			if blocks := convertAssistant(m, claude); len(blocks) > 0 {
				out = append(out, wireMessage{Role: "assistant", Content: blocks})
			}
		case *agentcore.ToolResultMessage:
			var results, images []contentBlock
			j := i
			for ; j < len(prepared) && err == nil; j++ {
				tr, ok := prepared[j].(*agentcore.ToolResultMessage)
				if !ok {
					break
				}
				var block contentBlock
				block, images, err = convertToolResult(tr, claude, images)
				results = append(results, block)
			}
			i = j - 1
			out = append(out, wireMessage{Role: "user", Content: append(results, images...)})
		}
		if err != nil {
			return nil, err
		}
	}
	if cp != nil && len(out) > 0 && out[len(out)-1].Role == "user" {
		last := &out[len(out)-1]
		last.Content = append(last.Content, contentBlock{CachePoint: cp})
	}
	return out, nil
}

// normalizeToolCallID makes a tool-call ID Bedrock takes: letters, digits,
// '_' and '-', at most 64 characters.
func normalizeToolCallID(id string) string {
	s := transform.SanitizeID(id)
	if len(s) > 64 {
		s = s[:64]
	}
	return s
}

// convertUser maps a user message's content.
func convertUser(m *agentcore.UserMessage) ([]contentBlock, error) {
	if m.Content.Plain {
		return []contentBlock{textBlock(nonBlank(m.Content.Text()))}, nil
	}
	var content []contentBlock
	for _, b := range m.Content.Blocks {
		switch b := b.(type) {
		case agentcore.TextBlock:
			if strings.TrimSpace(b.Text) != "" {
				content = append(content, textBlock(b.Text))
			}
		case agentcore.ImageBlock:
			img, err := newImage(b)
			if err != nil {
				return nil, err
			}
			content = append(content, img)
		}
	}
	if len(content) == 0 {
		content = append(content, textBlock(emptyText))
	}
	return content, nil
}

// nonBlank is s, or "<empty>" when s is blank.
func nonBlank(s string) string {
	if strings.TrimSpace(s) == "" {
		return emptyText
	}
	return s
}

// convertAssistant maps the blocks of an assistant message.
func convertAssistant(m *agentcore.AssistantMessage, claude bool) []contentBlock {
	var blocks []contentBlock
	for _, b := range m.Content {
		switch b := b.(type) {
		case agentcore.TextBlock:
			if strings.TrimSpace(b.Text) != "" {
				blocks = append(blocks, textBlock(b.Text))
			}
		case agentcore.ToolCall:
			blocks = append(blocks, contentBlock{ToolUse: &toolUseBlock{ToolUseID: b.ID, Name: b.Name, Input: documentInput(b.Arguments)}})
		case agentcore.ThinkingBlock:
			if block, ok := convertThinking(b, claude); ok {
				blocks = append(blocks, block)
			}
		}
	}
	return blocks
}

// convertThinking maps a thinking block; false drops it.
func convertThinking(b agentcore.ThinkingBlock, claude bool) (contentBlock, bool) {
	switch {
	case b.Redacted:
		data, err := decodeBase64(b.ThinkingSignature)
		if err != nil || len(data) == 0 {
			return contentBlock{}, false
		}
		return contentBlock{ReasoningContent: &reasoningContent{RedactedContent: data}}, true
	case strings.TrimSpace(b.Thinking) == "":
		return contentBlock{}, false
	case !claude:
		return contentBlock{ReasoningContent: &reasoningContent{ReasoningText: &reasoningText{Text: b.Thinking}}}, true
	case strings.TrimSpace(b.ThinkingSignature) == "":
		return textBlock(b.Thinking), true
	}
	return contentBlock{ReasoningContent: &reasoningContent{ReasoningText: &reasoningText{Text: b.Thinking, Signature: b.ThinkingSignature}}}, true
}

// convertToolResult maps a tool result. For Claude the images of an error
// result are replaced by a placeholder and appended to images, after a
// caption naming the call.
func convertToolResult(m *agentcore.ToolResultMessage, claude bool, images []contentBlock) (contentBlock, []contentBlock, error) {
	content := m.Content
	if claude && m.IsError && transform.HasImages(content) {
		content = transform.ReplaceImages(content, errorImagePlaceholder)
		images = append(images, textBlock("Images from the error result of tool call "+m.ToolCallID+" ("+m.ToolName+"):"))
		for _, b := range m.Content {
			if img, ok := b.(agentcore.ImageBlock); ok {
				block, err := newImage(img)
				if err != nil {
					return contentBlock{}, nil, err
				}
				images = append(images, block)
			}
		}
	}
	var blocks []contentBlock
	for _, b := range content {
		switch b := b.(type) {
		case agentcore.TextBlock:
			if strings.TrimSpace(b.Text) != "" {
				blocks = append(blocks, textBlock(b.Text))
			}
		case agentcore.ImageBlock:
			block, err := newImage(b)
			if err != nil {
				return contentBlock{}, nil, err
			}
			blocks = append(blocks, block)
		}
	}
	if len(blocks) == 0 {
		blocks = append(blocks, textBlock(emptyText))
	}
	status := "success"
	if m.IsError {
		status = "error"
	}
	return contentBlock{ToolResult: &toolResultBlock{ToolUseID: m.ToolCallID, Content: blocks, Status: status}}, images, nil
}

// newImage is an image block; Bedrock takes JPEG, PNG, GIF and WebP.
func newImage(img agentcore.ImageBlock) (contentBlock, error) {
	var format string
	switch img.MimeType {
	case "image/jpeg", "image/jpg":
		format = "jpeg"
	case "image/png":
		format = "png"
	case "image/gif":
		format = "gif"
	case "image/webp":
		format = "webp"
	default:
		return contentBlock{}, errors.New("Unknown image type: " + img.MimeType)
	}
	data, err := decodeBase64(img.Data)
	if err != nil {
		return contentBlock{}, errors.New("Invalid image data: " + err.Error())
	}
	b := &imageBlock{Format: format}
	b.Source.Bytes = data
	return contentBlock{Image: b}, nil
}

// decodeBase64 decodes s as JavaScript's atob does: ASCII whitespace is
// ignored and the padding may be left off.
func decodeBase64(s string) ([]byte, error) {
	s = strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\n', '\f', '\r':
			return -1
		}
		return r
	}, s)
	s = strings.TrimRight(s, "=")
	return base64.RawStdEncoding.DecodeString(s)
}

// documentInput is a tool call's arguments as a Bedrock document: an
// object ({} when absent or not JSON) without members whose key is empty,
// at any depth.
func documentInput(args json.RawMessage) json.RawMessage {
	v, err := jsonv.Parse(args)
	if err != nil {
		return json.RawMessage("{}")
	}
	return withoutEmptyKeys(v).AppendJSON(nil)
}

func withoutEmptyKeys(v jsonv.Value) jsonv.Value {
	switch v.Kind() {
	case jsonv.Array:
		items := make([]jsonv.Value, len(v.Items()))
		for i, item := range v.Items() {
			items[i] = withoutEmptyKeys(item)
		}
		return jsonv.ArrayValue(items)
	case jsonv.Object:
		members := make([]jsonv.Member, 0, len(v.Members()))
		for _, m := range v.Members() {
			if m.Key != "" {
				members = append(members, jsonv.Member{Key: m.Key, Value: withoutEmptyKeys(m.Value)})
			}
		}
		return jsonv.ObjectValue(members)
	}
	return v
}
