package compaction

import (
	"fmt"
	"strings"
	"unicode/utf16"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/tokens"
)

// toolResultChars is how much of a tool result's text (as in pi) and of a
// tool call's arguments a summary request shows.
const toolResultChars = 2000

// serialize writes messages (standard ones; others are skipped) as the
// plain-text transcript a summary request shows, one part per entry, so
// that the model reads a record rather than a conversation to continue.
// Thinking is left out; a tool result's text, and a tool call's
// arguments, are cut after resultChars characters.
func serialize(messages []agentcore.Message, resultChars int) []string {
	var parts []string
	for _, m := range messages {
		switch m := m.(type) {
		case *agentcore.UserMessage:
			text := m.Content.Text()
			if !m.Content.Plain {
				text = joinText(m.Content.Blocks)
			}
			if text != "" {
				parts = append(parts, "[User]: "+text)
			}
		case *agentcore.AssistantMessage:
			parts = appendAssistant(parts, m)
		case *agentcore.ToolResultMessage:
			if text := joinText(m.Content); text != "" {
				parts = append(parts, "[Tool result]: "+truncate(text, resultChars))
			}
		}
	}
	return parts
}

// joinText joins the text blocks of a user message or a tool result with
// nothing between them, as pi's record does (an assistant message's are
// joined with newlines).
func joinText(blocks []agentcore.ContentBlock) string {
	var b strings.Builder
	for _, block := range blocks {
		if t, ok := block.(agentcore.TextBlock); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

func appendAssistant(parts []string, m *agentcore.AssistantMessage) []string {
	var texts, calls []string
	for _, b := range m.Content {
		switch b := b.(type) {
		case agentcore.TextBlock:
			texts = append(texts, b.Text)
		case agentcore.ToolCall:
			calls = append(calls, b.Name+"("+truncate(formatArgs(b.Arguments), toolResultChars)+")")
		}
	}
	if len(texts) > 0 {
		parts = append(parts, "[Assistant]: "+strings.Join(texts, "\n"))
	}
	if len(calls) > 0 {
		parts = append(parts, "[Assistant tool calls]: "+strings.Join(calls, "; "))
	}
	return parts
}

// truncate keeps the first max characters of text, counted as
// JavaScript counts them (UTF-16 code units, a character never split), and
// says how many it cut, as pi does.
func truncate(text string, max int) string {
	n := jsLen(text)
	if n <= max {
		return text
	}
	return fmt.Sprintf("%s\n\n[... %d more characters cut]", truncateQuiet(text, max), n-max)
}

// truncateQuiet is the first max UTF-16 code units of text, a character
// never split.
func truncateQuiet(text string, max int) string {
	units := 0
	for i, r := range text {
		if units += utf16.RuneLen(r); units > max {
			return text[:i]
		}
	}
	return text
}

func jsLen(s string) int { return tokens.JSLen(s) }

// fitParts joins parts with blank lines within about maxChars characters,
// leaving out the oldest parts when they do not fit and saying so; when
// not even the newest part fits, its start is kept.
func fitParts(parts []string, maxChars int) string {
	total, keep := 0, len(parts)
	for keep > 0 {
		next := tokens.JSLen(parts[keep-1]) + 2
		if total+next > maxChars {
			break
		}
		total += next
		keep--
	}
	kept := parts[keep:]
	if len(kept) == 0 && len(parts) > 0 {
		keep = len(parts) - 1
		kept = []string{truncate(parts[keep], max(maxChars-64, 0))}
	}
	text := strings.Join(kept, "\n\n")
	if keep > 0 {
		text = fmt.Sprintf("[... %d earlier entries left out to fit the context window]\n\n", keep) + text
	}
	return text
}
