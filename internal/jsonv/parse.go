package jsonv

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
	"unicode/utf8"
)

// MaxDepth is the deepest nesting of arrays and objects Parse accepts.
const MaxDepth = 10000

// SyntaxError is a JSON syntax error at a byte offset of the input.
type SyntaxError struct {
	Offset int
	Msg    string
}

// Error returns the message with its offset.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("invalid JSON at offset %d: %s", e.Offset, e.Msg)
}

// Parse parses one JSON text (RFC 8259, surrounded by optional whitespace) as
// JavaScript's JSON.parse does: numbers become doubles (a literal too large
// for a double becomes an infinity), a repeated key keeps its first position
// and its last value, and object keys are put in JavaScript order. A lone
// UTF-16 surrogate escape is kept as its WTF-8 encoding; invalid UTF-8 bytes
// become U+FFFD. Invalid JSON, or nesting deeper than MaxDepth, is a
// *SyntaxError. Parse never panics.
func Parse(data []byte) (Value, error) {
	return parse(string(data))
}

// ParseString is Parse of a string.
func ParseString(s string) (Value, error) {
	return parse(s)
}

// parsers holds idle parsers, whose scratch stacks are kept between parses
// so that parsing allocates only the values it returns.
var parsers = sync.Pool{New: func() any { return new(parser) }}

// maxScratch is the largest scratch stack (in entries) a parser keeps for
// the next parse.
const maxScratch = 1 << 12

func parse(src string) (Value, error) {
	p := parsers.Get().(*parser)
	p.src, p.pos, p.depth = src, 0, 0
	v, err := p.document()
	// The stacks are cleared as each container completes; after an error they
	// may still hold values.
	clear(p.items)
	clear(p.members)
	p.items, p.members, p.src = p.items[:0], p.members[:0], ""
	if cap(p.items) <= maxScratch && cap(p.members) <= maxScratch && cap(p.buf) <= 16*maxScratch {
		parsers.Put(p)
	}
	if err != nil {
		return Value{}, err
	}
	return v, nil
}

type parser struct {
	src     string
	pos     int
	depth   int
	items   []Value  // scratch stack of array items being parsed
	members []Member // scratch stack of object members being parsed
	buf     []byte   // scratch for strings with escapes
}

func (p *parser) document() (Value, error) {
	v, err := p.value()
	if err != nil {
		return Value{}, err
	}
	p.space()
	if p.pos != len(p.src) {
		return Value{}, p.fail("unexpected data after the value")
	}
	return v, nil
}

func (p *parser) fail(msg string) error {
	return &SyntaxError{Offset: p.pos, Msg: msg}
}

func (p *parser) space() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value() (Value, error) {
	p.space()
	if p.pos >= len(p.src) {
		return Value{}, p.fail("unexpected end of input")
	}
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, err := p.string()
		return Value{k: String, s: s}, err
	case c == 't':
		return p.literal("true", BoolValue(true))
	case c == 'f':
		return p.literal("false", BoolValue(false))
	case c == 'n':
		return p.literal("null", Value{})
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	default:
		return Value{}, p.fail(fmt.Sprintf("unexpected character %q", c))
	}
}

func (p *parser) literal(word string, v Value) (Value, error) {
	if len(p.src)-p.pos < len(word) || p.src[p.pos:p.pos+len(word)] != word {
		return Value{}, p.fail("invalid literal")
	}
	p.pos += len(word)
	return v, nil
}

// entries parses the entries of the array (end is ']') or object at p.pos
// onto the scratch stack p.items or p.members, and the commas between them,
// up to end.
func (p *parser) entries(end byte) error {
	more, err := p.open(end)
	for more {
		if end == ']' {
			err = p.item()
		} else {
			err = p.member()
		}
		if err != nil {
			return err
		}
		more, err = p.next(end)
	}
	return err
}

// open enters the array or object at p.pos and reports whether an entry
// follows; when end closes the container at once, it is left again.
func (p *parser) open(end byte) (more bool, err error) {
	p.depth++
	if p.depth > MaxDepth {
		return false, p.fail("nesting too deep")
	}
	p.pos++
	p.space()
	if p.pos < len(p.src) && p.src[p.pos] == end {
		p.pos++
		p.depth--
		return false, nil
	}
	return true, nil
}

// next reads what follows an entry of the array or object that end
// closes: a comma, after which another entry follows (more is then true),
// or end, which closes the container.
func (p *parser) next(end byte) (more bool, err error) {
	p.space()
	if p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ',':
			p.pos++
			return true, nil
		case end:
			p.pos++
			p.depth--
			return false, nil
		}
	}
	return false, p.badSeparator(end)
}

// badSeparator is the error for what stands after an entry of the array or
// object that end closes instead of a comma or end.
func (p *parser) badSeparator(end byte) error {
	if p.pos >= len(p.src) {
		return p.fail("unexpected end of input in " + containerName(end))
	}
	return p.fail("expected , or " + string(end) + " in " + containerName(end))
}

// containerName names the array or object that end closes, for errors.
func containerName(end byte) string {
	if end == ']' {
		return "an array"
	}
	return "an object"
}

// pop returns a copy of the entries of a scratch stack from base on, and
// clears them off the stack.
func pop[T any](stack *[]T, base int) []T {
	s := *stack
	out := make([]T, len(s)-base)
	copy(out, s[base:])
	clear(s[base:])
	*stack = s[:base]
	return out
}

func (p *parser) array() (Value, error) {
	base := len(p.items)
	if err := p.entries(']'); err != nil {
		return Value{}, err
	}
	return ArrayValue(pop(&p.items, base)), nil
}

func (p *parser) object() (Value, error) {
	base := len(p.members)
	if err := p.entries('}'); err != nil {
		return Value{}, err
	}
	members := dedupe(pop(&p.members, base))
	orderMembers(members)
	return objectOf(members), nil
}

// item parses one item of an array onto p.items.
func (p *parser) item() error {
	v, err := p.value()
	if err == nil {
		p.items = append(p.items, v)
	}
	return err
}

// member parses one member of an object onto p.members: a string key, a
// colon and a value.
func (p *parser) member() error {
	p.space()
	if p.pos >= len(p.src) || p.src[p.pos] != '"' {
		return p.fail("expected a string key in an object")
	}
	key, err := p.string()
	if err != nil {
		return err
	}
	p.space()
	if p.pos >= len(p.src) || p.src[p.pos] != ':' {
		return p.fail("expected : after an object key")
	}
	p.pos++
	v, err := p.value()
	if err != nil {
		return err
	}
	p.members = append(p.members, Member{Key: key, Value: v})
	return nil
}

// string parses a string literal at p.pos (an opening quote). Strings without
// escapes or invalid bytes share the input's memory.
func (p *parser) string() (string, error) {
	start := p.pos + 1
	i := start
	for i < len(p.src) {
		c := p.src[i]
		switch {
		case c == '"':
			p.pos = i + 1
			return p.src[start:i], nil
		case c == '\\' || c >= utf8.RuneSelf:
			return p.slowString(start, i)
		case c < 0x20:
			p.pos = i
			return "", p.fail("control character in a string")
		}
		i++
	}
	p.pos = i
	return "", p.fail("unterminated string")
}

func (p *parser) slowString(start, i int) (string, error) {
	b := append(p.buf[:0], p.src[start:i]...)
	for i < len(p.src) {
		c := p.src[i]
		switch {
		case c == '"':
			p.pos = i + 1
			p.buf = b
			return string(b), nil
		case c < 0x20:
			p.pos = i
			return "", p.fail("control character in a string")
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(p.src[i:])
			if r == utf8.RuneError && size == 1 {
				b = utf8.AppendRune(b, utf8.RuneError)
			} else {
				b = append(b, p.src[i:i+size]...)
			}
			i += size
		case c != '\\':
			b = append(b, c)
			i++
		default:
			var err error
			b, i, err = p.escape(b, i)
			if err != nil {
				return "", err
			}
		}
	}
	p.pos = i
	return "", p.fail("unterminated string")
}

// escape decodes the escape sequence at src[i] (a backslash) onto b.
func (p *parser) escape(b []byte, i int) ([]byte, int, error) {
	if i+1 >= len(p.src) {
		p.pos = i
		return b, i, p.fail("unterminated escape")
	}
	switch c := p.src[i+1]; {
	case unescapes[c] != 0:
		return append(b, unescapes[c]), i + 2, nil
	case c == 'u':
		r, ok := hex4(p.src, i+2)
		if !ok {
			p.pos = i
			return b, i, p.fail("invalid \\u escape")
		}
		i += 6
		if r >= 0xd800 && r < 0xdc00 && i+1 < len(p.src) && p.src[i] == '\\' && p.src[i+1] == 'u' {
			if lo, ok := hex4(p.src, i+2); ok && lo >= 0xdc00 && lo < 0xe000 {
				return utf8.AppendRune(b, (r-0xd800)<<10+(lo-0xdc00)+0x10000), i + 6, nil
			}
		}
		if r >= 0xd800 && r < 0xe000 {
			return appendSurrogate(b, r), i, nil
		}
		return utf8.AppendRune(b, r), i, nil
	default:
		p.pos = i
		return b, i, p.fail("invalid escape")
	}
}

// appendSurrogate appends the WTF-8 encoding of a lone surrogate.
func appendSurrogate(b []byte, r rune) []byte {
	return append(b, 0xe0|byte(r>>12), 0x80|byte(r>>6)&0x3f, 0x80|byte(r)&0x3f)
}

func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for j := i; j < i+4; j++ {
		c := s[j]
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

var errNumber = errors.New("invalid number")

// digits returns the end of the run of digits at s[i], and false when there
// is none.
func digits(s string, i int) (end int, ok bool) {
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i, i > start
}

func (p *parser) number() (Value, error) {
	start := p.pos
	i := p.pos
	s := p.src
	if i < len(s) && s[i] == '-' {
		i++
	}
	ok := true
	if i < len(s) && s[i] == '0' {
		i++
	} else {
		i, ok = digits(s, i) // not 0, so from 1 to 9
	}
	if ok && i < len(s) && s[i] == '.' {
		i, ok = digits(s, i+1)
	}
	if ok && i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		i, ok = digits(s, i)
	}
	if !ok {
		p.pos = i
		return Value{}, p.fail(errNumber.Error())
	}
	p.pos = i
	// The grammar is checked above, so the only error left is range, where
	// ParseFloat returns the infinity or zero JavaScript gives too.
	f, _ := strconv.ParseFloat(s[start:i], 64)
	return Value{k: Number, n: f}, nil
}
