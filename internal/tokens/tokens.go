// Package tokens estimates how many tokens a transcript takes and fits a
// response's max tokens into the model's context window, as pi-ai's
// estimateContextTokens and clampMaxTokensToContext do for its providers.
//
// The estimate counts characters as JavaScript does (UTF-16 code units) at
// 3.5 characters a token and an image as 4800 characters; after the last
// assistant message that reported usage, it counts that usage and
// estimates only what follows. JSON parts (tool arguments, tool
// declarations) are measured in their compact form, which matches
// JavaScript's JSON.stringify except for characters the source escaped
// that JavaScript would write as they are.
package tokens

import (
	"bytes"
	"encoding/json"
	"math"
	"unicode/utf16"

	"github.com/pi-go/agentcore"
)

// Estimation constants of pi-ai.
const (
	charsPerToken  = 3.5
	imageChars     = 4800
	safetyTokens   = 4096
	safetyRatio    = 0.15
	minRatioOutput = 32768
)

// ClampMaxTokens fits maxTokens into model's context window, leaving room
// for an input counted higher than estimated: a margin of 15% of the
// estimated input (at least 4096 tokens) while that leaves 32768 tokens
// of output, else only the 4096 tokens, with the output capped at 32768,
// and never below 1 unless maxTokens is 0 (which stays 0). With no
// context window (0) it returns maxTokens, at least 1. These are pi-ai's
// clampMaxTokensToContext rules.
func ClampMaxTokens(model agentcore.Model, messages []agentcore.Message, maxTokens int) int {
	if model.ContextWindow <= 0 {
		return max(1, maxTokens)
	}
	input := Estimate(messages)
	margin := max(safetyTokens, int(math.Ceil(float64(input)*safetyRatio)))
	room := model.ContextWindow - input - margin
	if room < minRatioOutput {
		room = min(minRatioOutput, model.ContextWindow-input-safetyTokens)
	}
	return min(maxTokens, max(1, room))
}

// Estimate returns the estimated token count of messages: the context
// size the last usable assistant usage reports plus the estimate of the
// messages after it, or the estimate of every message when none reports
// usage.
func Estimate(messages []agentcore.Message) int {
	last, used := LastUsage(messages)
	total := used
	for _, m := range messages[last+1:] {
		total += MessageTokens(m)
	}
	return total
}

// LastUsage returns the index of the last assistant message of messages
// whose usage is usable and the context size that usage reports, or -1
// and 0 when none is. An assistant message's usage is usable when it did
// not fail, counts tokens, and is not older than a message before it (a
// message inserted later, such as a compaction summary, invalidates it).
func LastUsage(messages []agentcore.Message) (index, tokens int) {
	index = -1
	latest := int64(math.MinInt64)
	for i, m := range messages {
		if a, ok := m.(*agentcore.AssistantMessage); ok && a.Timestamp >= latest && !a.StopReason.Failed() {
			if n := ContextTokens(a.Usage); n > 0 {
				index, tokens = i, n
			}
		}
		latest = max(latest, Timestamp(m))
	}
	return index, tokens
}

// ContextTokens is the context size a usage reports: its total, or the
// sum of its counts when the total is 0. The sum saturates at the largest
// int rather than wrapping; a negative count counts 0.
func ContextTokens(u agentcore.Usage) int {
	if u.TotalTokens != 0 {
		return int(min(u.TotalTokens, math.MaxInt))
	}
	return int(min(Sum(u.Input, u.Output, u.CacheRead, u.CacheWrite), math.MaxInt))
}

// Sum adds token counts, saturating at the largest int64 instead of
// wrapping; a negative count counts 0.
func Sum(counts ...int64) int64 {
	var total int64
	for _, n := range counts {
		if n <= 0 {
			continue
		}
		if total > math.MaxInt64-n {
			return math.MaxInt64
		}
		total += n
	}
	return total
}

// Timestamp is the timestamp of one of the root package's messages, 0 for
// a message of another type.
func Timestamp(m agentcore.Message) int64 {
	switch m := m.(type) {
	case *agentcore.SystemMessage:
		return m.Timestamp
	case *agentcore.UserMessage:
		return m.Timestamp
	case *agentcore.AssistantMessage:
		return m.Timestamp
	case *agentcore.ToolResultMessage:
		return m.Timestamp
	}
	return 0
}

// MessageTokens estimates the tokens of one message from its characters.
func MessageTokens(m agentcore.Message) int {
	if s, ok := m.(*agentcore.SystemMessage); ok {
		n := ofChars(JSLen(agentcore.SystemPromptText(s)))
		if len(s.ToolsAdded) > 0 {
			n += ofChars(JSONLen(s.ToolsAdded))
		}
		if len(s.ToolsRemoved) > 0 {
			n += ofChars(JSONLen(s.ToolsRemoved))
		}
		return n
	}
	return ofChars(MessageChars(m))
}

// MessageChars is the length of one message as the estimate counts it:
// UTF-16 code units of its text, 4800 for an image, a tool call's name
// and arguments' JSON, a system message's prompt and added tools' JSON.
// A message of a type it does not know counts 0.
func MessageChars(m agentcore.Message) int {
	switch m := m.(type) {
	case *agentcore.SystemMessage:
		n := JSLen(agentcore.SystemPromptText(m))
		if len(m.ToolsAdded) > 0 {
			n += JSONLen(m.ToolsAdded)
		}
		return n
	case *agentcore.UserMessage:
		if m.Content.Plain {
			return JSLen(m.Content.Text())
		}
		return blocksChars(m.Content.Blocks)
	case *agentcore.ToolResultMessage:
		return blocksChars(m.Content)
	case *agentcore.AssistantMessage:
		chars := 0
		for _, b := range m.Content {
			switch b := b.(type) {
			case agentcore.TextBlock:
				chars += JSLen(b.Text)
			case agentcore.ThinkingBlock:
				chars += JSLen(b.Thinking)
			case agentcore.ToolCall:
				args := b.Arguments
				if len(args) == 0 {
					args = json.RawMessage("{}")
				}
				chars += JSLen(b.Name) + JSONLen(args)
			}
		}
		return chars
	}
	return 0
}

// blocksChars counts text blocks by their length and any other block as
// an image.
func blocksChars(blocks []agentcore.ContentBlock) int {
	chars := 0
	for _, b := range blocks {
		if t, ok := b.(agentcore.TextBlock); ok {
			chars += JSLen(t.Text)
		} else {
			chars += imageChars
		}
	}
	return chars
}

func ofChars(chars int) int { return int(math.Ceil(float64(chars) / charsPerToken)) }

// JSLen is the length of s in UTF-16 code units, as JavaScript counts it.
func JSLen(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// JSONLen is the length of v's compact JSON without HTML escaping.
func JSONLen(v any) int {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return 0
	}
	return JSLen(string(bytes.TrimRight(buf.Bytes(), "\n")))
}
