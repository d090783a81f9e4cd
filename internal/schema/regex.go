package schema

import "strings"

// esSpace is the class body of ECMAScript's \s: whitespace and line terminators.
const esSpace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// translatePattern rewrites an ECMAScript pattern (as JSON Schema's pattern
// and patternProperties use, with the u flag) into Go's RE2 syntax where the
// two differ in meaning or spelling: \uXXXX and \u{X} escapes, \s and \S, the
// dot (which excludes every line terminator in ECMAScript), \cX, \0, [^] and
// []. What RE2 cannot express (lookaround, backreferences) is left as it is,
// so it fails to compile there.
func translatePattern(p string) string {
	if !strings.ContainsAny(p, `\.[`) {
		return p
	}
	var b strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			i++
			i = translateEscape(&b, p, i, inClass)
		case c == '[' && !inClass:
			switch {
			case strings.HasPrefix(p[i:], "[^]"):
				b.WriteString(`[\x{0}-\x{10ffff}]`)
				i += 2
			case strings.HasPrefix(p[i:], "[]"):
				b.WriteString(`[^\x{0}-\x{10ffff}]`)
				i++
			default:
				inClass = true
				b.WriteByte(c)
				if i+1 < len(p) && p[i+1] == '^' {
					b.WriteByte('^')
					i++
				}
			}
		case c == ']' && inClass:
			inClass = false
			b.WriteByte(c)
		case c == '.' && !inClass:
			b.WriteString(`[^\n\r\x{2028}\x{2029}]`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// translateEscape writes the escape whose letter is p[i] and returns the index
// of its last byte.
func translateEscape(b *strings.Builder, p string, i int, inClass bool) int {
	switch c := p[i]; c {
	case 'u':
		if i+1 < len(p) && p[i+1] == '{' {
			if end := strings.IndexByte(p[i:], '}'); end > 0 {
				b.WriteString(`\x{` + p[i+2:i+end] + `}`)
				return i + end
			}
		}
		if i+4 < len(p) && isHex(p[i+1:i+5]) {
			b.WriteString(`\x{` + p[i+1:i+5] + `}`)
			return i + 4
		}
		b.WriteString(`\u`)
	case 's':
		if inClass {
			b.WriteString(esSpace)
		} else {
			b.WriteString("[" + esSpace + "]")
		}
	case 'S':
		if inClass {
			b.WriteString(`\S`)
		} else {
			b.WriteString("[^" + esSpace + "]")
		}
	case 'c':
		if i+1 < len(p) && isLetter(p[i+1]) {
			b.WriteString(`\x{` + string("0123456789abcdef"[(p[i+1]%32)>>4]) + string("0123456789abcdef"[p[i+1]%16]) + `}`)
			return i + 1
		}
		b.WriteString(`\\c`)
	case '0':
		if i+1 >= len(p) || p[i+1] < '0' || p[i+1] > '9' {
			b.WriteString(`\x{0}`)
			return i
		}
		b.WriteString(`\0`)
	case '/', '-':
		if inClass && c == '-' {
			b.WriteString(`\-`)
		} else {
			b.WriteByte(c)
		}
	default:
		b.WriteByte('\\')
		b.WriteByte(c)
	}
	return i
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
