package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// errNotObject is pi-ai's text for arguments that are JSON but no object.
var errNotObject = errors.New("Tool arguments must be a JSON object")

// emptyArguments is the arguments of a call whose text is empty or broken.
var emptyArguments = json.RawMessage("{}")

// parseArguments parses the complete arguments text of a tool call, the
// way pi-ai does: empty text is {}; text that is not JSON is read again
// after repairJSON; anything but an object is an error. On error the
// arguments are {} and the error text ends with the text received, so that
// validation can show the model what it sent.
func parseArguments(text string) (json.RawMessage, string) {
	if strings.TrimSpace(text) == "" {
		return emptyArguments, ""
	}
	args, err := parseObject(text)
	if err != nil {
		if repaired := repairJSON(text); repaired != text {
			args, err = parseObject(repaired)
		}
	}
	if err != nil {
		return emptyArguments, fmt.Sprintf("%s\n\nReceived arguments:\n%s", err, text)
	}
	return args, ""
}

// parseObject returns text compacted when it is one JSON object.
func parseObject(text string) (json.RawMessage, error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(text)); err != nil {
		return nil, err
	}
	if buf.Len() == 0 || buf.Bytes()[0] != '{' {
		return nil, errNotObject
	}
	return buf.Bytes(), nil
}

// repairJSON fixes what models commonly get wrong inside JSON strings: raw
// control characters are escaped, and a backslash that starts no valid
// escape is doubled, so that it stays literal text.
func repairJSON(text string) string {
	var b strings.Builder
	b.Grow(len(text) + 8)
	inString := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		if !inString {
			b.WriteByte(c)
			inString = c == '"'
			continue
		}
		switch {
		case c == '"':
			b.WriteByte(c)
			inString = false
		case c == '\\':
			switch n := escapeLength(text[i:]); {
			case n > 0:
				b.WriteString(text[i : i+n])
				i += n - 1
			default:
				b.WriteString(`\\`)
			}
		case c < 0x20:
			b.WriteString(controlEscape(c))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// escapeLength returns the length of the valid escape sequence s starts
// with (s[0] is a backslash), or 0 when it starts none.
func escapeLength(s string) int {
	if len(s) < 2 {
		return 0
	}
	switch s[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if len(s) >= 6 && isHex(s[2:6]) {
			return 6
		}
	}
	return 0
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

func controlEscape(c byte) string {
	switch c {
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	}
	return fmt.Sprintf(`\u%04x`, c)
}

// partialArguments returns the arguments an unfinished arguments text shows
// so far, the way pi-ai previews them while they stream: an unterminated
// string shows the characters read (an unterminated escape held back), an
// unterminated container the members read, a member whose key or value
// has not started is left out, an unterminated true/false/null shows once
// it is a prefix of one, and an unterminated number once its digits form a
// number. It returns nil when the text cannot be previewed (malformed, or
// not an object); the caller then keeps the previous preview.
func partialArguments(text string) json.RawMessage {
	if strings.TrimSpace(text) == "" {
		return emptyArguments
	}
	closed, ok := closePartialJSON(text)
	if !ok {
		return nil
	}
	args, err := parseObject(repairJSON(closed))
	if err != nil {
		return nil
	}
	return args
}

// jsonFrame is an open container while closing partial JSON.
type jsonFrame struct {
	object    bool
	expectKey bool
}

// closePartialJSON cuts s back to its last complete part and closes the
// containers left open. It reports false when s is malformed in a way the
// preview does not survive.
func closePartialJSON(s string) (string, bool) {
	var stack []jsonFrame
	good := -1 // s[:good] is the longest prefix ending in a complete part
	inString, isKey := false, false
	stringStart, scalar := 0, -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
				if !isKey {
					good = i + 1
				}
			}
			continue
		}
		if scalar >= 0 {
			if !isDelimiter(c) {
				continue
			}
			if !completeScalar(s[scalar:i]) {
				return "", false
			}
			scalar, good = -1, i
		}
		switch c {
		case ' ', '\t', '\n', '\r':
		case '{', '[':
			stack = append(stack, jsonFrame{object: c == '{', expectKey: c == '{'})
			good = i + 1
		case '}', ']':
			if len(stack) == 0 || stack[len(stack)-1].object != (c == '}') {
				return "", false
			}
			stack = stack[:len(stack)-1]
			good = i + 1
			if len(stack) == 0 {
				return s[:good], true
			}
		case ',', ':':
			if n := len(stack); n > 0 && stack[n-1].object {
				stack[n-1].expectKey = c == ','
			}
		case '"':
			inString, stringStart = true, i
			n := len(stack)
			isKey = n > 0 && stack[n-1].object && stack[n-1].expectKey
		default:
			scalar = i
		}
	}
	var b strings.Builder
	switch {
	case inString && !isKey:
		b.WriteString(dropPartialEscape(s, stringStart))
		b.WriteByte('"')
	case scalar >= 0:
		if v, ok := pendingScalar(s[scalar:]); ok {
			b.WriteString(s[:scalar])
			b.WriteString(v)
			break
		}
		fallthrough
	default:
		if good < 0 {
			return "", false
		}
		b.WriteString(s[:good])
	}
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i].object {
			b.WriteByte('}')
		} else {
			b.WriteByte(']')
		}
	}
	return b.String(), true
}

// dropPartialEscape returns s, whose last string (opened at s[start]) is
// unterminated, without an escape sequence cut off at its end.
func dropPartialEscape(s string, start int) string {
	for i := start + 1; i < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		rest := s[i:]
		if len(rest) < 2 || rest[1] == 'u' && len(rest) < 6 {
			return s[:i]
		}
		if rest[1] == 'u' {
			i += 5
		} else {
			i++
		}
	}
	return s
}

func isDelimiter(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', ',', ':', '{', '}', '[', ']', '"':
		return true
	}
	return false
}

var (
	jsonNumber        = regexp.MustCompile(`^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$`)
	jsonNumberNoDigit = regexp.MustCompile(`^(-?(?:0|[1-9]\d*)(?:\.\d+)?)[eE][+-]?$`)
)

// completeScalar reports whether tok is a JSON number or literal.
func completeScalar(tok string) bool {
	switch tok {
	case "true", "false", "null":
		return true
	}
	return jsonNumber.MatchString(tok)
}

// pendingScalar returns the value an unterminated number or literal shows.
func pendingScalar(tok string) (string, bool) {
	for _, lit := range []string{"true", "false", "null"} {
		if strings.HasPrefix(lit, tok) {
			return lit, true
		}
	}
	if jsonNumber.MatchString(tok) {
		return tok, true
	}
	if m := jsonNumberNoDigit.FindStringSubmatch(tok); m != nil {
		return m[1], true
	}
	return "", false
}
