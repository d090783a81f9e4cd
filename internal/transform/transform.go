// Package transform transforms a transcript for a provider request the way
// pi-ai's transformMessages does for every provider: images a model cannot
// take become placeholders, failed turns and foreign thinking are dropped,
// tool-call IDs from other models are normalized, and every tool call gets
// a result. The provider modules (providers/openai, providers/anthropic)
// share it, so that they replay a transcript alike.
package transform

import (
	"slices"
	"strings"

	"github.com/pi-go/agentcore"
)

// The texts pi-ai puts in place of what a request cannot carry.
const (
	// UserImagePlaceholder replaces the images of a user message for a
	// model without image input.
	UserImagePlaceholder = "(image omitted: model does not support images)"
	// ToolImagePlaceholder replaces the images of a tool result for a
	// model without image input.
	ToolImagePlaceholder = "(tool image omitted: model does not support images)"
	// NoResultText is the content of the error result made up for a tool
	// call that got none.
	NoResultText = "No result provided"
)

// Prepare returns messages normalized for replay to model, without
// modifying them (changed messages are copies; the others are shared):
//
//   - images become a placeholder text when model.Input lacks "image";
//   - assistant messages that failed or were aborted are dropped;
//   - thinking from another model (provider, API or ID differ) is dropped,
//     as is empty thinking without a signature; tool calls from another
//     model lose their ThoughtSignature and get normalizeID(ID) (nil keeps
//     IDs), and their results follow the new ID;
//   - a tool call left without a result gets an error result
//     [NoResultText] before the next assistant or user message;
//   - system messages between a tool call and its results move after the
//     results.
func Prepare(model agentcore.Model, messages []agentcore.Message, normalizeID func(string) string) []agentcore.Message {
	var normalize func(string, *agentcore.AssistantMessage) string
	if normalizeID != nil {
		normalize = func(id string, _ *agentcore.AssistantMessage) string { return normalizeID(id) }
	}
	return PrepareFrom(model, messages, normalize)
}

// PrepareFrom is [Prepare] for an API whose tool-call IDs depend on where
// a call came from: normalizeID gets the ID and the assistant message it
// is in (read-only).
func PrepareFrom(model agentcore.Model, messages []agentcore.Message, normalizeID func(id string, from *agentcore.AssistantMessage) string) []agentcore.Message {
	images := slices.Contains(model.Input, "image")
	ids := map[string]string{}
	out := make([]agentcore.Message, 0, len(messages))
	var (
		pending  []agentcore.ToolCall
		answered map[string]bool
		held     []agentcore.Message
	)
	closePending := func() {
		for _, call := range pending {
			if !answered[call.ID] {
				out = append(out, &agentcore.ToolResultMessage{
					ToolCallID: call.ID, ToolName: call.Name, IsError: true,
					Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: NoResultText}},
				})
			}
		}
		pending, answered = nil, nil
		out = append(out, held...)
		held = nil
	}
	for _, m := range messages {
		switch m := m.(type) {
		case *agentcore.AssistantMessage:
			closePending()
			am := transformAssistant(model, m, ids, normalizeID) // renames IDs even if dropped
			if m.StopReason.Failed() {
				continue
			}
			if calls := am.ToolCalls(); len(calls) > 0 {
				pending, answered = calls, map[string]bool{}
			}
			out = append(out, am)
		case *agentcore.ToolResultMessage:
			tr := m
			if id, ok := ids[m.ToolCallID]; ok && id != m.ToolCallID {
				c := *m
				c.ToolCallID = id
				tr = &c
			}
			if !images {
				c := *tr
				c.Content = ReplaceImages(tr.Content, ToolImagePlaceholder)
				tr = &c
			}
			if answered != nil {
				answered[tr.ToolCallID] = true
			}
			out = append(out, tr)
		case *agentcore.SystemMessage:
			if len(pending) > 0 {
				held = append(held, m)
			} else {
				out = append(out, m)
			}
		case *agentcore.UserMessage:
			closePending()
			if !images && !m.Content.Plain {
				c := *m
				c.Content = agentcore.Blocks(ReplaceImages(m.Content.Blocks, UserImagePlaceholder)...)
				m = &c
			}
			out = append(out, m)
		default:
			out = append(out, m)
		}
	}
	closePending()
	return out
}

// transformAssistant returns m prepared for replay to model; ids collects
// the tool-call IDs it renamed.
func transformAssistant(model agentcore.Model, m *agentcore.AssistantMessage, ids map[string]string, normalizeID func(string, *agentcore.AssistantMessage) string) *agentcore.AssistantMessage {
	same := m.Provider == model.Provider && m.API == model.API && m.Model == model.ID
	content := make([]agentcore.ContentBlock, 0, len(m.Content))
	for _, b := range m.Content {
		switch b := b.(type) {
		case agentcore.ThinkingBlock:
			if !same || !b.Redacted && b.ThinkingSignature == "" && strings.TrimSpace(b.Thinking) == "" {
				continue
			}
			content = append(content, b)
		case agentcore.ToolCall:
			if !same {
				b.ThoughtSignature = ""
				if normalizeID != nil {
					if id := normalizeID(b.ID, m); id != b.ID {
						ids[b.ID] = id
						b.ID = id
					}
				}
			}
			content = append(content, b)
		default:
			content = append(content, b)
		}
	}
	c := *m
	c.Content = content
	return &c
}

// ReplaceImages returns blocks with each run of images replaced by one
// placeholder text block (none when a placeholder text precedes the run).
// blocks is not modified.
func ReplaceImages(blocks []agentcore.ContentBlock, placeholder string) []agentcore.ContentBlock {
	out := make([]agentcore.ContentBlock, 0, len(blocks))
	afterPlaceholder := false
	for _, b := range blocks {
		if _, ok := b.(agentcore.ImageBlock); ok {
			if !afterPlaceholder {
				out = append(out, agentcore.TextBlock{Text: placeholder})
			}
			afterPlaceholder = true
			continue
		}
		out = append(out, b)
		t, ok := b.(agentcore.TextBlock)
		afterPlaceholder = ok && t.Text == placeholder
	}
	return out
}

// RenderSystemUpdate renders a later system message for an API that takes
// system messages mid-conversation: its text, then each section change
// framed by name so that the model can relate it to the leading prompt,
// joined by blank lines.
func RenderSystemUpdate(m *agentcore.SystemMessage) string {
	var parts []string
	if text := m.Content.Text(); text != "" {
		parts = append(parts, text)
	}
	for _, sec := range m.Sections {
		if sec.Removed {
			parts = append(parts, "Removed system prompt section \""+sec.Name+"\".")
		} else {
			parts = append(parts, "Updated system prompt section \""+sec.Name+"\":\n\n"+sec.Text)
		}
	}
	return strings.Join(parts, "\n\n")
}

// SanitizeID replaces every character of s but ASCII letters, digits, '_'
// and '-' with '_' (two for a character outside the BMP, which JavaScript
// counts as two), as the tool-call ID rules of the APIs require.
func SanitizeID(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		case r > 0xFFFF:
			b.WriteString("__")
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// HasImages reports whether content holds an image block.
func HasImages(content []agentcore.ContentBlock) bool {
	for _, b := range content {
		if _, ok := b.(agentcore.ImageBlock); ok {
			return true
		}
	}
	return false
}
