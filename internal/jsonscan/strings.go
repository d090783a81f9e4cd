package jsonscan

import (
	"encoding/binary"
	"unicode/utf8"
)

// strSafe marks the bytes a string holds as they are: not a quote, a
// backslash, a control character or the start of a multi-byte sequence.
var strSafe = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// skipString reads a string whose opening quote is at s.pos, checking it,
// and returns the offset after its closing quote and whether it has an
// escape.
func (s *Scanner) skipString() (end int, escaped bool) {
	d := s.data
	i := s.pos + 1
	for {
		i = safeRun(d, i)
		if i >= len(d) {
			s.bad = true
			return 0, false
		}
		switch c := d[i]; {
		case c == '"':
			s.pos = i + 1
			return i + 1, escaped
		case c == '\\':
			escaped = true
			n := escapeLen(d[i:])
			if n == 0 {
				s.bad = true
				return 0, false
			}
			i += n
		case c < 0x20:
			s.bad = true
			return 0, false
		default:
			r, n := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && n == 1 {
				s.bad = true
				return 0, false
			}
			i += n
		}
	}
}

// escapeLen returns the length of the escape at the start of d, or 0 for
// an escape this package does not take: an invalid one, or a \u escape of
// a surrogate not followed by its pair's.
func escapeLen(d []byte) int {
	if len(d) < 2 {
		return 0
	}
	switch d[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		r := hex4(d[2:])
		if r < 0 {
			return 0
		}
		if r < 0xD800 || r > 0xDFFF {
			return 6
		}
		if r >= 0xDC00 || len(d) < 12 || d[6] != '\\' || d[7] != 'u' {
			return 0
		}
		if r2 := hex4(d[8:]); r2 < 0xDC00 || r2 > 0xDFFF {
			return 0
		}
		return 12
	}
	return 0
}

// hex4 reads four hex digits, or returns -1.
func hex4(d []byte) rune {
	if len(d) < 4 {
		return -1
	}
	var r rune
	for _, c := range d[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// String reads a string value.
func (s *Scanner) String() string {
	if s.Peek() != '"' {
		s.bad = true
		return ""
	}
	d := s.data
	start := s.pos + 1
	i := start
	for {
		i = safeRun(d, i)
		if i >= len(d) {
			s.bad = true
			return ""
		}
		switch c := d[i]; {
		case c == '"':
			s.pos = i + 1
			return string(d[start:i])
		case c == '\\':
			return s.unescape(start, i)
		case c < 0x20:
			s.bad = true
			return ""
		default:
			r, n := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && n == 1 {
				s.bad = true
				return ""
			}
			i += n
		}
	}
}

// unescape reads the rest of a string begun at start whose first escape
// is at i, unescaping it into s.buf.
func (s *Scanner) unescape(start, i int) string {
	d := s.data
	buf := append(s.buf[:0], d[start:i]...)
	defer func() { s.buf = buf }()
	for {
		j := safeRun(d, i)
		buf = append(buf, d[i:j]...)
		i = j
		if i >= len(d) {
			s.bad = true
			return ""
		}
		switch c := d[i]; {
		case c == '"':
			s.pos = i + 1
			return string(buf)
		case c == '\\':
			n := escapeLen(d[i:])
			if n == 0 {
				s.bad = true
				return ""
			}
			buf = appendEscape(buf, d[i:i+n])
			i += n
		case c < 0x20:
			s.bad = true
			return ""
		default:
			r, n := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && n == 1 {
				s.bad = true
				return ""
			}
			buf = append(buf, d[i:i+n]...)
			i += n
		}
	}
}

// appendEscape appends the character of esc, an escape escapeLen took.
func appendEscape(buf, esc []byte) []byte {
	switch c := esc[1]; c {
	case 'b':
		return append(buf, '\b')
	case 'f':
		return append(buf, '\f')
	case 'n':
		return append(buf, '\n')
	case 'r':
		return append(buf, '\r')
	case 't':
		return append(buf, '\t')
	case 'u':
		r := hex4(esc[2:])
		if len(esc) == 12 {
			r = (r-0xD800)<<10 | (hex4(esc[8:]) - 0xDC00) + 0x10000
		}
		return utf8.AppendRune(buf, r)
	default: // '"', '\\', '/'
		return append(buf, c)
	}
}

// The SWAR masks of safeRun.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// safeRun returns the offset of the first byte from i on that strSafe
// does not mark, or len(d).
func safeRun(d []byte, i int) int {
	for ; i+8 <= len(d); i += 8 {
		w := binary.LittleEndian.Uint64(d[i:])
		q := w ^ (ones * '"')
		b := w ^ (ones * '\\')
		// A byte below 0x20, a quote, a backslash, or a high bit.
		if (w-ones*0x20)&^w&highs|(q-ones)&^q&highs|(b-ones)&^b&highs|w&highs != 0 {
			break
		}
	}
	for i < len(d) && strSafe[d[i]] {
		i++
	}
	return i
}
