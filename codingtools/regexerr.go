package codingtools

import (
	"errors"
	"regexp/syntax"
	"slices"
	"strings"
)

// regexError words a pattern's parse error as ripgrep does, which is what
// pi's grep reports: the pattern, a caret under the fault, and the fault.
// Faults ripgrep words differently from Go keep Go's words.
func regexError(pattern string, err error) error {
	var se *syntax.Error
	if !errors.As(err, &se) {
		return err
	}
	at, msg := -1, string(se.Code)
	switch se.Code {
	case syntax.ErrMissingParen:
		at, msg = unclosedAt(pattern, '(', ')'), "unclosed group"
	case syntax.ErrUnexpectedParen:
		at, msg = unopenedAt(pattern), "unopened group"
	case syntax.ErrMissingBracket:
		at, msg = unclosedAt(pattern, '[', ']'), "unclosed character class"
	}
	var b strings.Builder
	b.WriteString("regex parse error:\n    " + pattern + "\n")
	if at >= 0 {
		b.WriteString("    " + strings.Repeat(" ", utf16Len(pattern[:at])) + "^\n")
	}
	b.WriteString("error: " + msg)
	return errors.New(b.String())
}

// errNewline is ripgrep's refusal of a pattern that can match a line
// break, which it searches line by line unless --multiline.
var errNewline = errors.New("the literal '\"\\n\"' is not allowed in a regex\n\n" +
	"Consider enabling multiline mode with the --multiline flag (or -U for short).\n" +
	"When multiline mode is enabled, new line characters can be matched.")

// newlineError returns errNewline when expr, which compiles, holds a line
// break ripgrep refuses: a literal "\n" (typed or escaped) or a class of
// "\n" alone. Wider classes that hold it (\s, [^a]) are allowed: ripgrep
// drops the line break from them.
func newlineError(expr string) error {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	var refused func(re *syntax.Regexp, depth int) bool
	refused = func(re *syntax.Regexp, depth int) bool {
		switch {
		case depth > 1000:
			return false
		case re.Op == syntax.OpLiteral && slices.Contains(re.Rune, '\n'):
			return true
		case re.Op == syntax.OpCharClass && len(re.Rune) == 2 && re.Rune[0] == '\n' && re.Rune[1] == '\n':
			return true
		}
		for _, sub := range re.Sub {
			if refused(sub, depth+1) {
				return true
			}
		}
		return false
	}
	if refused(re, 0) {
		return errNewline
	}
	return nil
}

// unclosedAt is the offset of the last open bracket without its close, or
// -1; escaped characters do not count.
func unclosedAt(pattern string, open, close byte) int {
	var stack []int
	for i := 0; i < len(pattern); i++ {
		switch pattern[i] {
		case '\\':
			i++
		case open:
			stack = append(stack, i)
		case close:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	if len(stack) == 0 {
		return -1
	}
	return stack[len(stack)-1]
}

// unopenedAt is the offset of the first ")" without its "(", or -1.
func unopenedAt(pattern string) int {
	depth := 0
	for i := 0; i < len(pattern); i++ {
		switch pattern[i] {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}
