package google

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"unicode"

	"github.com/pi-go/agentcore/internal/provider"
	"github.com/pi-go/agentcore/internal/sse"
)

// maxTail caps how much of a body's unterminated end is kept.
const maxTail = 64 << 10

// tailReader passes a body through, noting what follows its last event
// delimiter (a blank line: "\n\n", "\r\r" or "\r\n\r\n"), as Google's SDK
// frames events: a body whose end is not blank ends incomplete.
type tailReader struct {
	r    io.Reader
	eof  bool   // the body ended
	tail []byte // the bytes after the last delimiter, up to maxTail
	over bool   // the tail outgrew maxTail
	last []byte // the last 3 bytes read, for delimiters across reads
}

func (t *tailReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n > 0 {
		t.note(p[:n])
	}
	if err == io.EOF {
		t.eof = true
	}
	return n, err
}

// note records b, the next bytes of the body.
func (t *tailReader) note(b []byte) {
	end := delimiterEnd(t.last, b)
	switch {
	case end >= 0:
		t.tail, t.over = append(t.tail[:0], b[end:]...), false
	case !t.over:
		t.tail = append(t.tail, b...)
	}
	if len(t.tail) > maxTail {
		t.tail, t.over = t.tail[:0], true
	}
	if len(b) >= 3 {
		t.last = append(t.last[:0], b[len(b)-3:]...)
	} else {
		t.last = append(t.last, b...)
		t.last = t.last[max(0, len(t.last)-3):]
	}
}

// delimiterEnd returns the index in b just past the last event delimiter
// that ends in b (a blank line: "\n\n", "\r\r" or "\r\n\r\n", which
// may begin in prev, the bytes before b), -1 when none does.
func delimiterEnd(prev, b []byte) int {
	at := func(i int) byte {
		if i >= 0 {
			return b[i]
		}
		if k := len(prev) + i; k >= 0 {
			return prev[k]
		}
		return 0
	}
	for j := len(b) - 1; j >= 0; j = bytes.LastIndexAny(b[:j], "\r\n") {
		c := b[j]
		if c != '\n' && c != '\r' {
			continue
		}
		if p := at(j - 1); p == c || c == '\n' && p == '\r' && at(j-2) == '\n' && at(j-3) == '\r' {
			return j + 1
		}
	}
	return -1
}

// incomplete reports whether the body's end is more than white space.
func (t *tailReader) incomplete() bool {
	return t.over || strings.TrimFunc(string(t.tail), isJSSpace) != ""
}

// cutEvent reports whether the end holds a data line: an event the
// server did not finish, which the SSE reader dispatched at the end.
func (t *tailReader) cutEvent() bool {
	if t.over {
		return true
	}
	for line := range strings.Lines(strings.ReplaceAll(string(t.tail), "\r", "\n")) {
		if strings.HasPrefix(line, "data") {
			return true
		}
	}
	return false
}

// end is what the body's end reads as: io.EOF when it is blank; else
// the failure of an error object as such (a body that is one JSON error,
// not an event stream), or of [IncompleteText].
func (t *tailReader) end() error {
	if !t.incomplete() {
		return io.EOF
	}
	if !t.over {
		if f := chunkError(bytes.TrimSpace(t.tail)); f != nil {
			return f
		}
	}
	return provider.TextFailure(IncompleteText)
}

// events reads a body's events as Google's SDK frames them: once the body
// ended incomplete (its last event not followed by a blank line), the
// events left are read but one cut off at the end, then the body ends
// with the failure of its end ([tailReader.end]).
type events struct {
	r    *sse.Reader
	tail *tailReader
	// rest are the events left once the body ended incomplete; draining
	// says they were gathered.
	rest     [][]byte
	draining bool
}

// Next returns the next event.
func (e *events) Next() (sse.Event, error) {
	if !e.draining {
		ev, err := e.r.Next()
		switch {
		case errors.Is(err, io.EOF):
			return ev, e.tail.end()
		case err != nil || !e.tail.eof || !e.tail.incomplete():
			return ev, err
		}
		e.gather(ev)
	}
	if len(e.rest) == 0 {
		return sse.Event{}, e.tail.end()
	}
	data := e.rest[0]
	e.rest = e.rest[1:]
	return sse.Event{Data: data}, nil
}

// gather reads the events left after ev, the first read once the body
// ended incomplete, and drops one cut off at the end.
func (e *events) gather(ev sse.Event) {
	e.draining = true
	for {
		e.rest = append(e.rest, bytes.Clone(ev.Data))
		var err error
		if ev, err = e.r.Next(); err != nil {
			break
		}
	}
	if e.tail.cutEvent() {
		e.rest = e.rest[:len(e.rest)-1]
	}
}

// isJSSpace reports whether JavaScript's trim removes r.
func isJSSpace(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }
