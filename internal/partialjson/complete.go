package partialjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ErrNotObject is pi-ai's text for tool arguments that are JSON but no
// object.
var ErrNotObject = errors.New("Tool arguments must be a JSON object")

// emptyObject is the arguments of a call whose text is empty or broken.
var emptyObject = json.RawMessage("{}")

// Arguments parses the complete arguments text of a finished tool call as
// pi-ai's parseToolCallArguments does: blank text is {}; text that is no
// JSON is read again after [Repair]; anything but an object is an error.
// On error the arguments are {} and errText (pi-ai's wording, its parser's
// words aside) ends with the text received, so that validation can show
// the model what it sent. The result is compact JSON owned by the caller.
func Arguments(text string) (args json.RawMessage, errText string) {
	if strings.TrimSpace(text) == "" {
		return emptyObject, ""
	}
	args, err := compactObject(text)
	if err != nil {
		if repaired := Repair(text); repaired != text {
			args, err = compactObject(repaired)
		}
	}
	if err != nil {
		return emptyObject, fmt.Sprintf("%s\n\nReceived arguments:\n%s", err, text)
	}
	return args, ""
}

// compactObject returns text compacted when it is one JSON object.
func compactObject(text string) (json.RawMessage, error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(text)); err != nil {
		return nil, err
	}
	if buf.Len() == 0 || buf.Bytes()[0] != '{' {
		return nil, ErrNotObject
	}
	return buf.Bytes(), nil
}

// Repair fixes what models commonly get wrong inside JSON strings, as
// pi-ai's repairJson does: raw control characters are escaped, and a
// backslash that starts no valid escape is doubled so that it stays
// literal text. Text outside strings is kept as it is.
func Repair(text string) string {
	var b strings.Builder
	b.Grow(len(text) + 8)
	inString := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case !inString:
			b.WriteByte(c)
			inString = c == '"'
		case c == '"':
			b.WriteByte(c)
			inString = false
		case c == '\\':
			if n := validEscape(text[i:]); n > 0 {
				b.WriteString(text[i : i+n])
				i += n - 1
			} else {
				b.WriteString(`\\`)
			}
		case c < 0x20:
			b.Write(appendEscaped(nil, c))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// validEscape returns the length of the valid JSON escape s starts with,
// or 0.
func validEscape(s string) int {
	if len(s) < 2 {
		return 0
	}
	if _, ok := simpleEscape(s[1]); ok {
		return 2
	}
	if s[1] == 'u' && len(s) >= 6 && isHex(s[2]) && isHex(s[3]) && isHex(s[4]) && isHex(s[5]) {
		return 6
	}
	return 0
}
