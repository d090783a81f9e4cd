package openai

import (
	"slices"
	"strings"

	"github.com/pi-go/agentcore"
)

// The texts pi-ai puts in place of what a request cannot carry.
const (
	userImagePlaceholder = "(image omitted: model does not support images)"
	toolImagePlaceholder = "(tool image omitted: model does not support images)"
	noResultText         = "No result provided"
)

// prepareMessages normalizes a transcript for replay to model, as pi-ai
// does for every provider, without modifying messages:
//
//   - images become a placeholder text when the model does not take images;
//   - assistant messages that failed or were aborted are dropped;
//   - thinking from another model is dropped, as is empty unsigned
//     thinking; tool-call IDs from another model are normalized, and their
//     results follow;
//   - a tool call left without a result gets an error result "No result
//     provided" before the next assistant or user message;
//   - system messages between a tool call and its results move after the
//     results.
func prepareMessages(model agentcore.Model, messages []agentcore.Message) []agentcore.Message {
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
					Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: noResultText}},
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
			am := transformAssistant(model, m, ids) // renames IDs even if dropped
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
				tr = withoutToolImages(tr)
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
			if !images {
				m = withoutUserImages(m)
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
func transformAssistant(model agentcore.Model, m *agentcore.AssistantMessage, ids map[string]string) *agentcore.AssistantMessage {
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
				if id := normalizeToolCallID(model, b.ID); id != b.ID {
					ids[b.ID] = id
					b.ID = id
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

// withoutUserImages replaces the images of m's content by a placeholder.
func withoutUserImages(m *agentcore.UserMessage) *agentcore.UserMessage {
	if m.Content.Plain {
		return m
	}
	c := *m
	c.Content = agentcore.Blocks(replaceImages(m.Content.Blocks, userImagePlaceholder)...)
	return &c
}

// withoutToolImages replaces the images of m's content by a placeholder.
func withoutToolImages(m *agentcore.ToolResultMessage) *agentcore.ToolResultMessage {
	c := *m
	c.Content = replaceImages(m.Content, toolImagePlaceholder)
	return &c
}

// replaceImages returns blocks with each run of images replaced by one
// placeholder text block (none when a placeholder precedes the run).
func replaceImages(blocks []agentcore.ContentBlock, placeholder string) []agentcore.ContentBlock {
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
