package limit

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxErrorData is how many characters of what a server sent an error text
// quotes: the data of a malformed event, an error object.
const MaxErrorData = 4000

// MaxFailureText is how many characters of a failure's text [Fail] keeps:
// whatever a server sends, a message's ErrorMessage stays small.
const MaxFailureText = 16000

// Truncate cuts s to max characters, saying how many were left off, as
// pi-ai cuts an error's text: "...... [truncated N chars]".
func Truncate(s string, max int) string {
	if len(s) <= max { // no more bytes than characters allowed
		return s
	}
	n := utf8.RuneCountInString(s)
	if n <= max {
		return s
	}
	cut, i := 0, 0
	for cut = range s {
		if i == max {
			break
		}
		i++
	}
	var b strings.Builder
	b.WriteString(s[:cut])
	fmt.Fprintf(&b, "... [truncated %d chars]", n-max)
	return b.String()
}

// MaxQuoted is how many bytes of a name or an ID taken from input (a
// tool call's ID, a tool's name, a session's ID) [Quote] keeps.
const MaxQuoted = 128

// Quote returns s quoted (%q) for an error's text, cut to its first
// [MaxQuoted] bytes (at a character boundary) and then saying how long it
// was: an error never echoes a huge ID whole.
func Quote(s string) string {
	if len(s) <= MaxQuoted {
		return fmt.Sprintf("%q", s)
	}
	cut := MaxQuoted
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%q… (%d bytes)", s[:cut], len(s))
}
