package jsonscan

import (
	"bytes"
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
