package session

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/pi-go/agentcore/internal/jsonv"
)

// ErrNotSession is returned for a file whose first entry is not a session
// header: pi refuses such a file, and so does this package.
var ErrNotSession = errors.New("session: not a session file")

// ErrBadLine is the error every [*LineError] wraps.
var ErrBadLine = errors.New("session: bad line")

// LineError is a line of a session file that is not an entry. pi skips
// such lines, and so does this package unless [Options.OnBadLine] says
// otherwise.
type LineError struct {
	// Line is the line's number, from 1.
	Line int
	// Torn is true for a last line without its newline that does not
	// parse: the tail of a write a crash cut short.
	Torn bool
	// Err is why it is not an entry.
	Err error
}

// Error names the line and what is wrong with it.
func (e *LineError) Error() string {
	what := "corrupt line"
	if e.Torn {
		what = "torn last line"
	}
	return fmt.Sprintf("session: %s %d: %v", what, e.Line, e.Err)
}

// Unwrap returns [ErrBadLine] and the cause.
func (e *LineError) Unwrap() []error { return []error{ErrBadLine, e.Err} }

// contents is what a session file holds, read and migrated.
type contents struct {
	header Header
	t      *tree
	// values are, for a file of version 1 or 2, its header and every line
	// pi keeps, as JSON.parse makes them: migrate turns them into t.
	values []jsonv.Value
	// migrated is true when the file was of an older version; lines are
	// then the migrated file's lines, the header first.
	migrated bool
	lines    [][]byte
	// tornTail is true when the file does not end with a newline.
	tornTail bool
	// size is the number of bytes read.
	size int64
	// tooLong counts the lines over the limit, left out.
	tooLong int
}

// readContents reads a session file line by line, holding one line at a
// time besides the tree. Every entry is decoded, so that a line that is
// not one is found now, but in a version 3 file only the tree fields and
// the line's place are kept of those [onDisk] leaves there: src reads
// them back. A file of version 1 or 2 is kept whole, as values for
// [contents.migrate]. onBad is told of every line that is not an entry;
// its error stops the read.
func readContents(r io.Reader, src *source, maxLine int, onBad func(*LineError) error) (*contents, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	c := &contents{}
	var headerFound bool
	var raw []*slot
	// Once the header says version 3, every line is an entry, decoded
	// ahead on other goroutines: the rest of decodeLine runs here, in
	// file order.
	var ahead *readAhead
	defer func() {
		if ahead != nil {
			ahead.stop()
		}
	}()
	take := func(l pendingLine, pre *decoded) error {
		bad := c.decodeLine(l.line, src, l.off, l.n, &headerFound, &raw, pre)
		if bad == nil {
			return nil
		}
		if errors.Is(bad, ErrNotSession) {
			return fmt.Errorf("%w: line %d is not a header", ErrNotSession, l.num)
		}
		lerr := &LineError{Line: l.num, Torn: l.last && c.tornTail, Err: bad}
		if onBad != nil {
			return onBad(lerr)
		}
		return nil
	}
	takeAll := func(batches []*batch) error {
		for _, b := range batches {
			for i, l := range b.lines {
				if err := take(l, &b.out[i]); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for n := 1; ; n++ {
		line, long, err := readBoundedLine(br, maxLine)
		off := c.size
		c.size += int64(len(line)) + long
		if err != nil && err != io.EOF {
			return nil, err
		}
		last := err == io.EOF
		if last && len(line)+int(min(long, 1)) > 0 {
			c.tornTail = true
		}
		if long > 0 {
			// Reported in its place among the lines decoded ahead.
			if ahead != nil {
				if err := takeAll(ahead.flush()); err != nil {
					return nil, err
				}
			}
			c.tooLong++
			lerr := &LineError{Line: n, Torn: last, Err: fmt.Errorf("%w: %d bytes", ErrLineTooLong, long)}
			if onBad != nil {
				if err := onBad(lerr); err != nil {
					return nil, err
				}
			}
		}
		// A blank line is skipped, as pi skips it (its trim() takes
		// Unicode spaces too); any other is parsed as JSON.parse parses
		// it, which takes only JSON's spaces around the value.
		if len(bytes.TrimSpace(line)) > 0 {
			trimmed := trimJSONSpace(line)
			l := pendingLine{line: trimmed, num: n, off: off, n: len(line), last: last}
			if ahead != nil {
				if err := takeAll(ahead.add(l)); err != nil {
					return nil, err
				}
			} else if err := take(l, nil); err != nil {
				return nil, err
			}
			if ahead == nil && headerFound && c.values == nil {
				reg := src.reg
				ahead = newReadAhead(func(line []byte) decoded {
					e, b, err := decodeEntry(line, reg)
					return decoded{e, b, err}
				})
			}
		}
		if last {
			break
		}
	}
	if ahead != nil {
		if err := takeAll(ahead.flush()); err != nil {
			return nil, err
		}
	}
	if !headerFound {
		if c.size == 0 {
			return nil, io.EOF
		}
		return nil, ErrNotSession
	}
	if c.values != nil {
		return c, nil
	}
	c.t = newTree(nil)
	for _, sl := range raw {
		if sl.entry == nil {
			c.t.src = src
		}
		c.t.addSlot(sl)
	}
	return c, nil
}

// trimJSONSpace is b without the spaces JSON allows around a value:
// space, tab, carriage return and line feed. A Unicode space (U+00A0,
// U+2028) or a form feed there makes the line no JSON, as in pi.
func trimJSONSpace(b []byte) []byte {
	return bytes.Trim(b, " \t\r\n")
}

// decodeHeader reads the first line pi keeps, which must be a session
// header: an object of type "session" with a string ID.
func decodeHeader(line []byte) (Header, error) {
	v, err := jsonv.Parse(line)
	if err != nil {
		return Header{}, err
	}
	if !truthy(v) {
		return Header{}, errFalsy
	}
	id, ok := v.Get("id")
	if !isType(v, "session") || !ok || id.Kind() != jsonv.String {
		return Header{}, ErrNotSession
	}
	str := func(key string) string {
		m, _ := v.Get(key)
		return m.Str()
	}
	h := Header{ID: id.Str(), Timestamp: str("timestamp"), Cwd: str("cwd"), ParentSession: str("parentSession"), raw: v}
	if ver := headerVersion(v); !math.IsNaN(ver) && !math.IsInf(ver, 0) {
		h.Version = int(ver)
	}
	return h, nil
}

// decodeLine decodes the header or an entry into c; it returns why the
// line is not one.
// pre, when not nil, is the line's entry decoded ahead.
func (c *contents) decodeLine(line []byte, src *source, off int64, n int, headerFound *bool, raw *[]*slot, pre *decoded) error {
	if !*headerFound {
		h, err := decodeHeader(line)
		if err != nil {
			return err
		}
		c.header = h
		*headerFound = true
		if headerVersion(h.raw) < CurrentVersion || math.IsNaN(headerVersion(h.raw)) {
			c.values = []jsonv.Value{h.raw}
		}
		return nil
	}
	if c.values != nil {
		v, err := jsonv.Parse(line)
		if err != nil {
			return err
		}
		if !truthy(v) {
			return errFalsy
		}
		c.values = append(c.values, v)
		return nil
	}
	if pre == nil {
		e, b, err := decodeEntry(line, src.reg)
		pre = &decoded{e, b, err}
	}
	e, b, err := pre.e, pre.b, pre.err
	if err != nil {
		return err
	}
	if e.Type() == "session" {
		return nil // a second header: pi keeps it out of the tree
	}
	sl := &slot{base: *e.Base(), typ: e.Type(), off: off, n: n, noID: b.noID, noParent: b.noParent}
	sl.role, sl.model = summarize(e)
	if onDisk(e.Type()) {
		sl.model = src.intern(sl.model)
	} else {
		sl.entry, sl.raw, sl.n = e, bytes.Clone(line), 0
	}
	*raw = append(*raw, sl)
	return nil
}

// ErrLineTooLong is the cause of the [*LineError] of a line longer than
// the limit ([Options.MaxLineBytes]): the line is read through without
// being held, and left out of the session as a corrupt line is.
var ErrLineTooLong = errors.New("session: line too long")

// DefaultMaxLineBytes is the longest line [Open] reads when
// [Options.MaxLineBytes] is zero.
const DefaultMaxLineBytes = 64 << 20

// readBoundedLine reads one line and its newline. A line longer than max bytes
// is read through in pieces and not kept: line is then nil and long its
// length.
func readBoundedLine(br *bufio.Reader, max int) (line []byte, long int64, err error) {
	for {
		frag, err := br.ReadSlice('\n')
		switch {
		case long > 0:
			long += int64(len(frag))
		case len(line)+len(frag) > max:
			long = int64(len(line) + len(frag))
			line = nil
		default:
			line = append(line, frag...)
		}
		if err != bufio.ErrBufferFull {
			return line, long, err
		}
	}
}
