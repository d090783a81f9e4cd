package jsonscan

import (
	"bytes"
	"encoding/binary"
	"math"
	"strconv"
	"unicode/utf8"
)

// MaxDepth is the deepest nesting of arrays and objects a Scanner reads;
// deeper input fails (encoding/json refuses nesting beyond 10000).
const MaxDepth = 10000

// Scanner reads one JSON text. Its methods read the next value and, once
// the scanner has failed, do nothing and return zero values; check
// [Scanner.Failed] at the end.
type Scanner struct {
	data []byte
	pos  int
	bad  bool
	// buf holds a string being unescaped.
	buf []byte
}

// Reset makes s read data from its start.
func (s *Scanner) Reset(data []byte) {
	s.data, s.pos, s.bad = data, 0, false
}

// Failed reports whether s met input it does not read exactly as
// encoding/json does, or a value not of the kind asked for.
func (s *Scanner) Failed() bool { return s.bad }

// Fail marks s as failed: its caller met a shape it does not handle.
func (s *Scanner) Fail() { s.bad = true }

// Pos is the offset of the next byte to read.
func (s *Scanner) Pos() int { return s.pos }

// Data is the input.
func (s *Scanner) Data() []byte { return s.data }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// Peek returns the first byte of the next value, after whitespace, or 0
// at the end of the input or after a failure.
func (s *Scanner) Peek() byte {
	if s.bad {
		return 0
	}
	for s.pos < len(s.data) {
		if c := s.data[s.pos]; !isSpace(c) {
			return c
		}
		s.pos++
	}
	return 0
}

// End reports whether only whitespace is left; it fails s otherwise.
func (s *Scanner) End() bool {
	if s.Peek() != 0 || s.pos != len(s.data) {
		s.bad = true
	}
	return !s.bad
}

// Null reads a null when one is next and reports whether it did.
func (s *Scanner) Null() bool {
	if s.Peek() != 'n' {
		return false
	}
	s.literal("null")
	return !s.bad
}

func (s *Scanner) literal(word string) {
	if len(s.data)-s.pos >= len(word) && string(s.data[s.pos:s.pos+len(word)]) == word {
		s.pos += len(word)
		return
	}
	s.bad = true
}

// Bool reads true or false.
func (s *Scanner) Bool() bool {
	switch s.Peek() {
	case 't':
		s.literal("true")
		return !s.bad
	case 'f':
		s.literal("false")
	default:
		s.bad = true
	}
	return false
}

// Object starts reading an object; it fails s when the next value is
// not one. Read its members with [Scanner.Key].
func (s *Scanner) Object() bool {
	if s.Peek() != '{' {
		s.bad = true
		return false
	}
	s.pos++
	return true
}

// Array starts reading an array; it fails s when the next value is not
// one. Read its elements with [Scanner.More].
func (s *Scanner) Array() bool {
	if s.Peek() != '[' {
		s.bad = true
		return false
	}
	s.pos++
	return true
}

// Key reads the next member's key of an object begun with
// [Scanner.Object] (first is true for the first member) and the colon
// after it, and returns the key, which aliases the input; it returns
// false at the object's end. A key with an escape fails s.
func (s *Scanner) Key(first bool) ([]byte, bool) {
	c := s.Peek()
	if c == '}' {
		s.pos++
		return nil, false
	}
	if !first {
		if c != ',' {
			s.bad = true
			return nil, false
		}
		s.pos++
		c = s.Peek()
	}
	if c != '"' {
		s.bad = true
		return nil, false
	}
	start := s.pos + 1
	end, escaped := s.skipString()
	if s.bad || escaped {
		s.bad = true
		return nil, false
	}
	if s.Peek() != ':' {
		s.bad = true
		return nil, false
	}
	s.pos++
	return s.data[start : end-1], true
}

// More reports whether an array begun with [Scanner.Array] has another
// element (first is true before the first one), reading the comma or
// the closing bracket.
func (s *Scanner) More(first bool) bool {
	c := s.Peek()
	if c == ']' {
		s.pos++
		return false
	}
	if !first {
		if c != ',' {
			s.bad = true
			return false
		}
		s.pos++
	} else if c == 0 {
		s.bad = true
	}
	return !s.bad
}

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

// Raw reads any value, checking it, and returns its bytes, which alias
// the input.
func (s *Scanner) Raw() []byte {
	start := s.pos
	if s.Peek() == 0 {
		s.bad = true
		return nil
	}
	start = s.pos
	s.skip(0)
	if s.bad {
		return nil
	}
	return s.data[start:s.pos]
}

// Skip reads any value, checking it.
func (s *Scanner) Skip() { s.skip(0) }

func (s *Scanner) skip(depth int) {
	switch c := s.Peek(); c {
	case '"':
		s.skipString()
	case '{':
		if depth >= MaxDepth {
			s.bad = true
			return
		}
		s.pos++
		for first := true; ; first = false {
			if _, ok := s.Key(first); !ok {
				return
			}
			s.skip(depth + 1)
		}
	case '[':
		if depth >= MaxDepth {
			s.bad = true
			return
		}
		s.pos++
		for first := true; s.More(first); first = false {
			s.skip(depth + 1)
		}
	case 't':
		s.literal("true")
	case 'f':
		s.literal("false")
	case 'n':
		s.literal("null")
	default:
		s.number()
	}
}

// number reads a number and returns its bytes and whether it is an
// integer literal (no fraction, no exponent).
func (s *Scanner) number() ([]byte, bool) {
	d := s.data
	start, i := s.pos, s.pos
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && '1' <= d[i] && d[i] <= '9':
		for i++; i < len(d) && '0' <= d[i] && d[i] <= '9'; i++ {
		}
	default:
		s.bad = true
		return nil, false
	}
	integer := true
	if i < len(d) && d[i] == '.' {
		integer = false
		i++
		j := i
		for ; i < len(d) && '0' <= d[i] && d[i] <= '9'; i++ {
		}
		if i == j {
			s.bad = true
			return nil, false
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		integer = false
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := i
		for ; i < len(d) && '0' <= d[i] && d[i] <= '9'; i++ {
		}
		if i == j {
			s.bad = true
			return nil, false
		}
	}
	s.pos = i
	return d[start:i], integer
}

// Float reads a number as a float64; one out of its range fails s, as
// encoding/json refuses it.
func (s *Scanner) Float() float64 {
	if c := s.Peek(); c != '-' && (c < '0' || c > '9') {
		s.bad = true
		return 0
	}
	lit, _ := s.number()
	if s.bad {
		return 0
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil {
		s.bad = true
		return 0
	}
	return f
}

// Int reads a number as [Int64] does.
func (s *Scanner) Int() int64 {
	if c := s.Peek(); c != '-' && (c < '0' || c > '9') {
		s.bad = true
		return 0
	}
	lit, integer := s.number()
	if s.bad {
		return 0
	}
	if integer && len(lit) <= 18 {
		var n int64
		neg := lit[0] == '-'
		if neg {
			lit = lit[1:]
		}
		for _, c := range lit {
			n = n*10 + int64(c-'0')
		}
		if neg {
			n = -n
		}
		return n
	}
	n, _ := Int64(lit)
	return n
}

// Int64 converts the JSON number lit to an int64 as a JavaScript number
// fits one: a fraction is truncated toward zero and a value beyond the
// int64 range is saturated to math.MaxInt64 or math.MinInt64 (so 1.5 is
// 1, 12345678901234567890 and 1e21 are math.MaxInt64). It reports false
// for lit that is not a JSON number.
func Int64(lit []byte) (int64, bool) {
	lit = bytes.Trim(lit, " \t\r\n")
	var s Scanner
	s.Reset(lit)
	if c := s.Peek(); c != '-' && (c < '0' || c > '9') {
		return 0, false
	}
	if _, integer := s.number(); s.bad || !s.End() {
		return 0, false
	} else if integer {
		if n, err := strconv.ParseInt(string(lit), 10, 64); err == nil {
			return n, true
		}
	}
	f, _ := strconv.ParseFloat(string(lit), 64) // ±Inf out of range
	switch {
	case f >= 0x1p63:
		return math.MaxInt64, true
	case f <= -0x1p63:
		return math.MinInt64, true
	}
	return int64(f), true
}

// Span returns the bytes of the next value, an object or an array, found
// by matching its brackets outside strings but not checked otherwise:
// the caller must decode them with a checking decoder. It fails s for a
// value of another kind or brackets that do not close.
func (s *Scanner) Span() []byte {
	c := s.Peek()
	if c != '{' && c != '[' {
		s.bad = true
		return nil
	}
	d := s.data
	start, depth := s.pos, 0
	for i := start; i < len(d); i++ {
		switch d[i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				s.pos = i + 1
				return d[start:s.pos]
			}
		case '"':
			for {
				j := bytes.IndexByte(d[i+1:], '"')
				if j < 0 {
					s.bad = true
					return nil
				}
				i += 1 + j
				k := i - 1
				for k > start && d[k] == '\\' {
					k--
				}
				if (i-1-k)%2 == 0 { // not escaped
					break
				}
			}
		}
	}
	s.bad = true
	return nil
}
