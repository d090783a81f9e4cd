package jsonv

import (
	"unicode/utf8"
)

// AppendJSON appends v as JSON.stringify(v) writes it: no whitespace, keys in
// the value's order, strings escaped as JavaScript escapes them (only '"',
// '\\', control characters and lone surrogates), numbers in JavaScript's
// shortest form, non-finite numbers as null.
func (v Value) AppendJSON(dst []byte) []byte {
	return v.appendJSON(dst, "", "")
}

// AppendIndent appends v as JSON.stringify(v, null, indent) writes it: each
// member and item on its own line, prefixed by one indent per level, ": "
// between key and value, and empty arrays and objects as [] and {}.
func (v Value) AppendIndent(dst []byte, indent string) []byte {
	return v.appendJSON(dst, indent, "\n")
}

// JSON returns v as compact JSON text (AppendJSON).
func (v Value) JSON() string { return string(v.AppendJSON(nil)) }

// Indent returns v as JSON text indented by two spaces, as
// JSON.stringify(v, null, 2).
func (v Value) Indent() string { return string(v.AppendIndent(nil, "  ")) }

// appendJSON writes v; prefix is the newline and indentation before the
// current level's members ("" when compact).
func (v Value) appendJSON(dst []byte, indent, prefix string) []byte {
	switch v.k {
	case Null:
		return append(dst, "null"...)
	case Bool:
		if v.n != 0 {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case Number:
		if !v.IsFinite() {
			return append(dst, "null"...)
		}
		return AppendNumber(dst, v.n)
	case String:
		return AppendQuote(dst, v.s)
	default:
		// An array's items or an object's members: each after a comma and,
		// when indenting, on its own line.
		items, members := v.c.items, v.c.members
		open, end := byte('{'), byte('}')
		if v.k == Array {
			open, end = '[', ']'
		}
		n := len(items) + len(members)
		if n == 0 {
			return append(dst, open, end)
		}
		inner := nextPrefix(prefix, indent)
		dst = append(dst, open)
		for i := range n {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, inner...)
			if v.k == Array {
				dst = items[i].appendJSON(dst, indent, inner)
				continue
			}
			m := &members[i]
			dst = AppendQuote(dst, m.Key)
			dst = append(dst, ':')
			if indent != "" {
				dst = append(dst, ' ')
			}
			dst = m.Value.appendJSON(dst, indent, inner)
		}
		dst = append(dst, prefix...)
		return append(dst, end)
	}
}

func nextPrefix(prefix, indent string) string {
	if indent == "" {
		return ""
	}
	return prefix + indent
}

const hexDigits = "0123456789abcdef"

// escapes holds, for each byte JSON.stringify writes as a two-character
// escape, the letter after the backslash (0 for the others); unescapes is
// the reverse, with the \/ that only a reader meets.
var escapes, unescapes = func() (esc, unesc [256]byte) {
	for _, e := range [...][2]byte{{'"', '"'}, {'\\', '\\'}, {'\b', 'b'}, {'\f', 'f'}, {'\n', 'n'}, {'\r', 'r'}, {'\t', 't'}} {
		esc[e[0]], unesc[e[1]] = e[1], e[0]
	}
	unesc['/'] = '/'
	return esc, unesc
}()

// AppendQuote appends s as a JSON string literal the way JSON.stringify quotes
// it. Lone surrogates carried as WTF-8 are written as \udXXX escapes; other
// invalid UTF-8 bytes as \ufffd.
func AppendQuote(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
			dst = append(dst, s[start:i]...)
			if sur, ok := surrogateAt(s, i); ok {
				dst = append(dst, '\\', 'u', hexDigits[sur>>12], hexDigits[sur>>8&0xf], hexDigits[sur>>4&0xf], hexDigits[sur&0xf])
				i += 3
			} else {
				dst = append(dst, `\ufffd`...)
				i++
			}
			start = i
			continue
		}
		dst = append(dst, s[start:i]...)
		if e := escapes[c]; e != 0 {
			dst = append(dst, '\\', e)
		} else {
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// surrogateAt decodes the WTF-8 encoding of a surrogate (ED A0..BF 80..BF) at
// s[i].
func surrogateAt(s string, i int) (rune, bool) {
	if i+2 >= len(s) || s[i] != 0xed || s[i+1] < 0xa0 || s[i+1] > 0xbf || s[i+2] < 0x80 || s[i+2] > 0xbf {
		return 0, false
	}
	return 0xd000 | rune(s[i+1]&0x3f)<<6 | rune(s[i+2]&0x3f), true
}

// CodePoints returns the length of s in Unicode code points as JSON Schema
// counts them: a lone surrogate (WTF-8) and an invalid byte count one each.
func CodePoints(s string) int {
	n := 0
	for i := 0; i < len(s); n++ {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		if _, ok := surrogateAt(s, i); ok {
			i += 3
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return n
}

// Stringify re-writes JSON text as JavaScript's
// JSON.stringify(JSON.parse(text), null, indent) does: compact when indent is
// "", else one member or item per line indented by indent per level. Keys
// come out in JavaScript order (array-index keys first). Text that is not
// JSON is an error.
func Stringify(text []byte, indent string) (string, error) {
	v, err := Parse(text)
	if err != nil {
		return "", err
	}
	if indent == "" {
		return string(v.AppendJSON(make([]byte, 0, len(text)))), nil
	}
	return string(v.AppendIndent(make([]byte, 0, 2*len(text)), indent)), nil
}
