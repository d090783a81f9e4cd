package partialjson

import "unicode/utf8"

// Copy credit, in bytes of snapshot, earned by each Append and by each byte
// it reads.
const (
	creditPerAppend = 512
	creditPerByte   = 4
)

// maxPendingScalar is the longest unterminated number or literal a snapshot
// shows; a longer one shows once it ends.
const maxPendingScalar = 64

// phase is where an object or array is in its grammar.
type phase uint8

const (
	phaseKey   phase = iota // an object wants a key
	phaseColon              // an object read a key and wants a colon
	phaseValue              // a value may start
	phaseComma              // a value ended
)

// frame is one open array or object, in one byte, so that text of
// nested brackets costs a byte of stack per byte: its phase and flags.
type frame uint8

// The flags of a frame, above its phase's two bits.
const (
	frameArray frame = 4 << iota
	// frameDetached marks a container that sits in an invalid position:
	// its contents are read but not shown.
	frameDetached
	// frameHasKey says a key was read in the object ([Parser.key] is the
	// latest, for the innermost one).
	frameHasKey
	// frameNonEmpty says a member or element was written to the output.
	frameNonEmpty
)

func (f frame) array() bool       { return f&frameArray != 0 }
func (f frame) detached() bool    { return f&frameDetached != 0 }
func (f frame) hasKey() bool      { return f&frameHasKey != 0 }
func (f frame) nonEmpty() bool    { return f&frameNonEmpty != 0 }
func (f frame) phase() phase      { return phase(f & 3) }
func (f *frame) setPhase(p phase) { *f = *f&^3 | frame(p) }

// Parser is an incremental, tolerant JSON parser. The zero value is ready to
// use. A Parser is not safe for concurrent use.
type Parser struct {
	// out is the encoded value shown so far, without the closers of the
	// open containers and without a pending scalar.
	out   []byte
	stack []frame
	// key is the encoded text (quotes included) of the latest key read in
	// the innermost object: an outer object's key is written out when
	// its value starts, so one buffer serves every level.
	key []byte
	// root says whether the root value has started; done, that it ended.
	root bool
	done bool

	// The open string, if any.
	inString bool
	strKey   bool   // it is an object key, read into keyBuf
	strOut   bool   // it is a shown value, written to out
	strStart int    // where its content starts in out
	keyBuf   []byte // the key being read, encoded
	esc      []byte // an unfinished escape: `\` or `\u` and hex digits

	// The open number or literal, if any.
	inScalar  bool
	scalarOut bool // it is in a shown position
	scalar    []byte

	credit int
	dirty  bool
	snap   []byte
}

// Append reads the next piece of text. It costs time linear in len(text).
func (p *Parser) Append(text string) {
	p.credit += creditPerAppend + creditPerByte*len(text)
	i := 0
	for i < len(text) && !p.done {
		switch {
		case p.inString:
			i = p.readString(text, i)
		case p.inScalar:
			i = p.readScalar(text, i)
		default:
			p.structural(text[i])
			i++
		}
	}
}

// Snapshot returns the value of the text read so far as JSON text, or nil
// before a value has started. The returned slice is never modified
// afterwards and may be retained. While the text read since the previous
// call did not change the value, or a fresh copy is not yet paid for (see
// the package comment), it returns the previous snapshot.
func (p *Parser) Snapshot() []byte {
	if !p.dirty {
		return p.snap
	}
	cost := p.size()
	if cost > p.credit {
		return p.snap
	}
	p.credit -= cost
	p.dirty = false
	p.snap = p.build()
	return p.snap
}

// Value returns the value of the text read so far as JSON text, or nil
// before a value has started, freshly built whatever the credit. The
// returned slice is the caller's.
func (p *Parser) Value() []byte { return p.build() }

// Done reports whether the root value has ended; later text is ignored.
func (p *Parser) Done() bool { return p.done }

// Parse returns the value of text read as one piece (see [Parser.Value]).
func Parse(text string) []byte {
	var p Parser
	p.Append(text)
	return p.Value()
}

// size is an upper bound of the length of a fresh snapshot.
func (p *Parser) size() int {
	n := len(p.out) + len(p.stack) + 1
	if p.inScalar {
		n += len(p.scalar) + len(p.keyOf()) + 1
	}
	return n
}

// build returns a fresh copy of the value shown.
func (p *Parser) build() []byte {
	var pending []byte
	if p.inScalar && p.scalarOut && len(p.scalar) <= maxPendingScalar {
		pending = pendingScalar(p.scalar)
	}
	if len(p.out) == 0 && pending == nil {
		return nil
	}
	buf := make([]byte, 0, p.size())
	buf = append(buf, p.out...)
	if p.inString && p.strOut {
		buf = trimPartialRune(buf, p.strStart)
		buf = append(buf, '"')
	}
	if pending != nil {
		buf = p.appendPrefix(buf)
		buf = append(buf, pending...)
	}
	for i := len(p.stack) - 1; i >= 0; i-- {
		f := &p.stack[i]
		if f.detached() {
			continue
		}
		if f.array() {
			buf = append(buf, ']')
		} else {
			buf = append(buf, '}')
		}
	}
	return buf
}

// trimPartialRune drops an incomplete UTF-8 sequence at the end of buf,
// looking no further back than from.
func trimPartialRune(buf []byte, from int) []byte {
	for back := 1; back <= utf8.UTFMax-1 && len(buf)-back >= from; back++ {
		c := buf[len(buf)-back]
		if c < utf8.RuneSelf {
			return buf
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(buf[len(buf)-back:]) {
				return buf[:len(buf)-back]
			}
			return buf
		}
	}
	return buf
}

// top returns the innermost open container, or nil.
func (p *Parser) top() *frame {
	if len(p.stack) == 0 {
		return nil
	}
	return &p.stack[len(p.stack)-1]
}

// slot reports whether a value starting now has a place, and whether that
// place is shown.
func (p *Parser) slot() (placed, shown bool) {
	f := p.top()
	if f == nil {
		return !p.root, !p.root
	}
	if f.array() {
		return true, !f.detached()
	}
	// A missing colon is tolerated: {"a" 1} reads as {"a": 1}.
	if (f.phase() == phaseValue || f.phase() == phaseColon) && f.hasKey() {
		return true, !f.detached()
	}
	return false, false
}

// keyOf returns the key of a member starting now in the innermost object.
func (p *Parser) keyOf() []byte {
	if f := p.top(); f != nil && !f.array() {
		return p.key
	}
	return nil
}

// appendPrefix appends what precedes a value in the innermost shown
// container: a comma after earlier members, and the key.
func (p *Parser) appendPrefix(buf []byte) []byte {
	f := p.top()
	if f == nil {
		return buf
	}
	if f.nonEmpty() {
		buf = append(buf, ',')
	}
	if !f.array() {
		buf = append(buf, p.key...)
		buf = append(buf, ':')
	}
	return buf
}

// place starts a shown value: it writes its prefix and counts it.
func (p *Parser) place() {
	p.dirty = true
	if f := p.top(); f != nil {
		p.out = p.appendPrefix(p.out)
		*f |= frameNonEmpty
		return
	}
	p.root = true
}

// structural handles one byte outside strings and scalars.
func (p *Parser) structural(c byte) {
	switch c {
	case ' ', '\t', '\n', '\r':
	case '"':
		p.startString()
	case '{', '[':
		p.openContainer(c == '[')
	case '}', ']':
		p.closeContainer()
	case ':':
		if f := p.top(); f != nil && !f.array() && f.phase() == phaseColon {
			f.setPhase(phaseValue)
		}
	case ',':
		if f := p.top(); f != nil {
			if f.array() {
				f.setPhase(phaseValue)
			} else {
				f.setPhase(phaseKey)
			}
		}
	default:
		placed, shown := p.slot()
		p.inScalar = true
		p.scalarOut = placed && shown
		p.scalar = append(p.scalar[:0], c)
		if p.scalarOut {
			p.dirty = true
		}
	}
}

func (p *Parser) startString() {
	p.inString = true
	p.esc = p.esc[:0]
	// A missing comma is tolerated: {"a": 1 "b": 2} reads the second member.
	if f := p.top(); f != nil && !f.array() && (f.phase() == phaseKey || f.phase() == phaseComma) {
		p.strKey, p.strOut = true, false
		p.keyBuf = append(p.keyBuf[:0], '"')
		return
	}
	placed, shown := p.slot()
	p.strKey, p.strOut = false, placed && shown
	if p.strOut {
		p.place()
		p.out = append(p.out, '"')
		p.strStart = len(p.out)
	}
}

// emit appends encoded string text to the open string's destination.
func (p *Parser) emit(b ...byte) {
	switch {
	case p.strKey:
		p.keyBuf = append(p.keyBuf, b...)
	case p.strOut:
		p.out = append(p.out, b...)
		p.dirty = true
	}
}

// emitString appends raw string characters, escaping what JSON requires.
func (p *Parser) emitString(s string) {
	if !p.strKey && !p.strOut {
		return
	}
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		p.emitRaw(s[start:i])
		if p.strKey {
			p.keyBuf = appendEscaped(p.keyBuf, c)
		} else {
			p.out = appendEscaped(p.out, c)
		}
		start = i + 1
	}
	p.emitRaw(s[start:])
}

func (p *Parser) emitRaw(s string) {
	if s == "" {
		return
	}
	if p.strKey {
		p.keyBuf = append(p.keyBuf, s...)
		return
	}
	p.out = append(p.out, s...)
	p.dirty = true
}

// readString reads string characters from i until the string or the text
// ends, and returns the next index.
func (p *Parser) readString(text string, i int) int {
	run := i
	for ; i < len(text); i++ {
		c := text[i]
		if len(p.esc) > 0 {
			if p.continueEscape(c) {
				run = i + 1
				continue
			}
			// Not part of the escape: read it as a normal character.
			run = i
		}
		switch c {
		case '"':
			p.emitString(text[run:i])
			p.endString()
			return i + 1
		case '\\':
			p.emitString(text[run:i])
			p.esc = append(p.esc[:0], '\\')
			run = i + 1
		}
	}
	p.emitString(text[run:])
	return i
}

// continueEscape continues the open escape with c, and reports whether c
// was part of it.
func (p *Parser) continueEscape(c byte) bool {
	if len(p.esc) == 1 {
		if dec, ok := simpleEscape(c); ok {
			p.esc = p.esc[:0]
			p.emit('\\', dec)
			return true
		}
		if c == 'u' {
			p.esc = append(p.esc, 'u')
			return true
		}
		// An invalid escape: the backslash stays as text.
		p.esc = p.esc[:0]
		p.emit('\\', '\\')
		return false
	}
	if isHex(c) {
		p.esc = append(p.esc, c)
		if len(p.esc) == 6 {
			p.emit(p.esc...)
			p.esc = p.esc[:0]
		}
		return true
	}
	// \u without four hex digits: it stays as text.
	p.emit('\\', '\\')
	p.emit(p.esc[1:]...)
	p.esc = p.esc[:0]
	return false
}

func (p *Parser) endString() {
	p.inString = false
	f := p.top()
	if p.strKey {
		p.strKey = false
		p.keyBuf = append(p.keyBuf, '"')
		if f != nil {
			p.key = append(p.key[:0], p.keyBuf...)
			*f |= frameHasKey
			f.setPhase(phaseColon)
		}
		return
	}
	if p.strOut {
		p.out = append(p.out, '"')
		p.dirty = true
		p.strOut = false
	}
	p.valueEnded(f)
}

// readScalar reads number or literal bytes from i up to the next delimiter,
// and returns the delimiter's index.
func (p *Parser) readScalar(text string, i int) int {
	end := i
	for end < len(text) && !isDelimiter(text[end]) {
		end++
	}
	if end > i {
		p.scalar = append(p.scalar, text[i:end]...)
		if p.scalarOut {
			p.dirty = true
		}
	}
	if end < len(text) {
		p.endScalar()
	}
	return end
}

func (p *Parser) endScalar() {
	p.inScalar = false
	if p.scalarOut {
		if v := scalarValue(p.scalar); v != nil {
			p.place()
			p.out = append(p.out, v...)
		}
	}
	p.scalarOut = false
	p.valueEnded(p.top())
}

func (p *Parser) openContainer(array bool) {
	placed, shown := p.slot()
	f := frame(phaseKey)
	if array {
		f = frameArray | frame(phaseValue)
	}
	if !(placed && shown) {
		f |= frameDetached
	}
	if !f.detached() {
		p.place()
		if array {
			p.out = append(p.out, '[')
		} else {
			p.out = append(p.out, '{')
		}
	}
	p.stack = append(p.stack, f)
	p.dirty = true
}

func (p *Parser) closeContainer() {
	f := p.top()
	if f == nil {
		return // a stray closer
	}
	if !f.detached() {
		if f.array() {
			p.out = append(p.out, ']')
		} else {
			p.out = append(p.out, '}')
		}
	}
	p.stack = p.stack[:len(p.stack)-1]
	p.dirty = true
	p.valueEnded(p.top())
}

// valueEnded records that a value in f (the root when f is nil) ended.
func (p *Parser) valueEnded(f *frame) {
	if f == nil {
		if p.root {
			p.done = true
		}
		return
	}
	f.setPhase(phaseComma)
}

func isDelimiter(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', ',', ':', '{', '}', '[', ']', '"':
		return true
	}
	return false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// simpleEscape returns the character written after a backslash in the
// encoded form of the one-character escape \c.
func simpleEscape(c byte) (byte, bool) {
	switch c {
	case '"', '\\', 'b', 'f', 'n', 'r', 't':
		return c, true
	case '/':
		return '/', true
	}
	return 0, false
}

// appendEscaped appends the encoded form of a character JSON strings must
// escape.
func appendEscaped(dst []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	const hex = "0123456789abcdef"
	return append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
}
