package agentcore

import (
	"encoding/json"
	"unicode/utf8"
)

// wireEvent is a decoded wire event, flat: absent fields are zero.
type wireEvent struct {
	Type             string
	Index            int
	HasIndex         bool
	Delta            string
	ContentSignature string
	ID               string
	ToolName         string
	ToolCall         json.RawMessage
	Reason           StopReason
	ErrorMessage     string
	Usage            *Usage
	// ThinkingLevel is providerThinkingLevel; HasThinkingLevel says it was
	// sent (the reference keeps the previous value when it was not).
	ThinkingLevel    string
	HasThinkingLevel bool
}

// decodeProxyEvent decodes one wire event into e. Almost every event of a
// stream is a flat object of strings and a content index (the deltas); a
// small scanner reads those without reflection, and anything else (usage,
// a tool call, null, a number that is not a plain integer, escapes it does
// not take, unknown keys, errors) is left to encoding/json, so the result
// is always what json.Unmarshal gives.
func decodeProxyEvent(data []byte, e *wireEvent) error {
	if fastDecodeEvent(data, e) {
		return nil
	}
	var p proxyEvent
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	*e = wireEvent{
		Type: p.Type, ContentSignature: p.ContentSignature, ToolCall: p.ToolCall, Reason: p.Reason, Usage: p.Usage,
	}
	if p.ContentIndex != nil {
		e.Index, e.HasIndex = *p.ContentIndex, true
	}
	e.Delta = deref(p.Delta)
	e.ID = deref(p.ID)
	e.ToolName = deref(p.ToolName)
	e.ErrorMessage = deref(p.ErrorMessage)
	if p.ProviderThinkingLevel != nil {
		e.ThinkingLevel, e.HasThinkingLevel = *p.ProviderThinkingLevel, true
	}
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// fastDecodeEvent decodes a flat event; false means "use encoding/json".
func fastDecodeEvent(data []byte, e *wireEvent) bool {
	*e = wireEvent{}
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return skipSpace(data, i+1) == len(data)
	}
	for {
		key, next, ok := scanKey(data, i)
		if !ok {
			return false
		}
		i = skipSpace(data, next)
		if i >= len(data) || data[i] != ':' {
			return false
		}
		i = skipSpace(data, i+1)
		if string(key) == "contentIndex" {
			n, next, ok := scanInt(data, i)
			if !ok {
				return false
			}
			e.Index, e.HasIndex = n, true
			i = next
		} else {
			s, next, ok := scanString(data, i)
			if !ok || !e.setString(key, s) {
				return false
			}
			i = next
		}
		i = skipSpace(data, i)
		if i >= len(data) {
			return false
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case '}':
			return skipSpace(data, i+1) == len(data)
		default:
			return false
		}
	}
}

// setString sets the string field key; false for any other key.
func (e *wireEvent) setString(key, b []byte) bool {
	if string(key) == "type" {
		e.Type = internType(b)
		return true
	}
	s := string(b)
	switch string(key) {
	case "delta":
		e.Delta = s
	case "contentSignature":
		e.ContentSignature = s
	case "id":
		e.ID = s
	case "toolName":
		e.ToolName = s
	case "reason":
		e.Reason = StopReason(s)
	case "errorMessage":
		e.ErrorMessage = s
	case "providerThinkingLevel":
		e.ThinkingLevel, e.HasThinkingLevel = s, true
	default:
		return false
	}
	return true
}

// scanKey reads a key without escapes at i; it returns the key's bytes.
func scanKey(data []byte, i int) ([]byte, int, bool) {
	if i >= len(data) || data[i] != '"' {
		return nil, 0, false
	}
	for j := i + 1; j < len(data); j++ {
		switch c := data[j]; {
		case c == '"':
			return data[i+1 : j], j + 1, true
		case c == '\\' || c < 0x20:
			return nil, 0, false
		}
	}
	return nil, 0, false
}

func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// scanInt reads a JSON integer of at most 9 digits at i.
func scanInt(data []byte, i int) (int, int, bool) {
	neg := i < len(data) && data[i] == '-'
	if neg {
		i++
	}
	start, n := i, 0
	for i < len(data) && '0' <= data[i] && data[i] <= '9' {
		n = n*10 + int(data[i]-'0')
		i++
	}
	digits := i - start
	if digits == 0 || digits > 9 || digits > 1 && data[start] == '0' {
		return 0, 0, false
	}
	if i < len(data) && (data[i] == '.' || data[i] == 'e' || data[i] == 'E') {
		return 0, 0, false
	}
	if neg {
		n = -n
	}
	return n, i, true
}

// internType returns the constant string of a known event type, so that
// decoding one does not allocate.
func internType(b []byte) string {
	for _, t := range wireTypes {
		if string(b) == t {
			return t
		}
	}
	return string(b)
}

var wireTypes = [...]string{
	"text_delta", "thinking_delta", "toolcall_delta", "text_start", "text_end", "thinking_start", "thinking_end",
	"toolcall_start", "toolcall_end", "start", "done", "error",
}

// scanString reads a JSON string at i: valid UTF-8, no control
// characters, and only the escapes that need no surrogate handling. The
// bytes returned are the string's, unescaped; they may alias data.
func scanString(data []byte, i int) ([]byte, int, bool) {
	if i >= len(data) || data[i] != '"' {
		return nil, 0, false
	}
	i++
	start := i
	for i < len(data) {
		c := data[i]
		switch {
		case c == '"':
			s := data[start:i]
			if !utf8.Valid(s) {
				return nil, 0, false
			}
			return s, i + 1, true
		case c == '\\':
			return scanEscaped(data, start, i)
		case c < 0x20:
			return nil, 0, false
		}
		i++
	}
	return nil, 0, false
}

// scanEscaped finishes a string that has escapes, from its first one at i.
func scanEscaped(data []byte, start, i int) ([]byte, int, bool) {
	buf := make([]byte, 0, len(data)-start)
	buf = append(buf, data[start:i]...)
	for i < len(data) {
		c := data[i]
		switch {
		case c == '"':
			if !utf8.Valid(buf) {
				return nil, 0, false
			}
			return buf, i + 1, true
		case c < 0x20:
			return nil, 0, false
		case c != '\\':
			buf = append(buf, c)
			i++
			continue
		}
		if i+1 >= len(data) {
			return nil, 0, false
		}
		switch esc := data[i+1]; esc {
		case '"', '\\', '/':
			buf = append(buf, esc)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, ok := hex4(data, i+2)
			if !ok || 0xd800 <= r && r <= 0xdfff {
				return nil, 0, false
			}
			buf = utf8.AppendRune(buf, r)
			i += 4
		default:
			return nil, 0, false
		}
		i += 2
	}
	return nil, 0, false
}

func hex4(data []byte, i int) (rune, bool) {
	if i+4 > len(data) {
		return 0, false
	}
	var r rune
	for _, c := range data[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
