package compaction

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/pi-go/agentcore"
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
			if text := m.Text(); text != "" {
				parts = append(parts, "[User]: "+text)
			}
		case *agentcore.AssistantMessage:
			parts = appendAssistant(parts, m)
		case *agentcore.ToolResultMessage:
			if text := m.Text(); text != "" {
				parts = append(parts, "[Tool result]: "+truncate(text, resultChars))
			}
		}
	}
	return parts
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

// formatArgs writes a JSON object's members as key=value, in order, each
// value as compact JSON; anything else is written as it is.
func formatArgs(raw json.RawMessage) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return string(raw)
	}
	var out []string
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return string(raw)
		}
		var value json.RawMessage
		if dec.Decode(&value) != nil {
			return string(raw)
		}
		var compact bytes.Buffer
		if json.Compact(&compact, value) != nil {
			return string(raw)
		}
		out = append(out, fmt.Sprint(key)+"="+compact.String())
	}
	return strings.Join(out, ", ")
}

// truncate keeps the first max characters of text and says how many it
// cut.
func truncate(text string, max int) string {
	n := utf8.RuneCountInString(text)
	if n <= max {
		return text
	}
	cut := 0
	for i := range text {
		if max == 0 {
			cut = i
			break
		}
		max--
	}
	return fmt.Sprintf("%s\n\n[... %d more characters cut]", text[:cut], n-utf8.RuneCountInString(text[:cut]))
}

// fitParts joins parts with blank lines within about maxChars characters,
// leaving out the oldest parts when they do not fit and saying so; when
// not even the newest part fits, its start is kept.
func fitParts(parts []string, maxChars int) string {
	total, keep := 0, len(parts)
	for keep > 0 {
		next := utf8.RuneCountInString(parts[keep-1]) + 2
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
