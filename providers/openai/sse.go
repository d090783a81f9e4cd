package openai

import (
	"bufio"
	"bytes"
	"io"
	"strings"
)

// maxSSELine bounds one line of the event stream. A chat completion chunk
// is small; a line this long means the body is not an event stream.
const maxSSELine = 16 << 20

// sseEvent is one server-sent event: its "event" field (empty when none)
// and its "data" lines joined by newlines.
type sseEvent struct {
	name string
	data string
}

// sseReader reads server-sent events as the WHATWG specification frames
// them: lines end in LF, CRLF or CR; a blank line dispatches the fields
// read since the last one; lines starting with a colon are comments; one
// space after a field's colon is dropped. Only the event and data fields
// are kept. A pending event at the end of the body is dispatched, as
// servers sometimes omit the final blank line.
type sseReader struct {
	lines *bufio.Scanner
	name  string
	data  []string
	has   bool
}

func newSSEReader(r io.Reader) *sseReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxSSELine)
	sc.Split(splitSSELines)
	return &sseReader{lines: sc}
}

// next returns the next event, or io.EOF after the last one. Any other
// error is the body's read error (or bufio.ErrTooLong).
func (r *sseReader) next() (sseEvent, error) {
	for r.lines.Scan() {
		line := r.lines.Text()
		if line == "" {
			if ev, ok := r.dispatch(); ok {
				return ev, nil
			}
			continue
		}
		if strings.HasPrefix(line, ":") {
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "event":
			r.name, r.has = value, true
		case "data":
			r.data, r.has = append(r.data, value), true
		}
	}
	if err := r.lines.Err(); err != nil {
		return sseEvent{}, err
	}
	if ev, ok := r.dispatch(); ok {
		return ev, nil
	}
	return sseEvent{}, io.EOF
}

// dispatch returns the event collected so far, if any, and resets.
func (r *sseReader) dispatch() (sseEvent, bool) {
	if !r.has {
		return sseEvent{}, false
	}
	ev := sseEvent{name: r.name, data: strings.Join(r.data, "\n")}
	r.name, r.data, r.has = "", r.data[:0], false
	return ev, true
}

// splitSSELines is a bufio.SplitFunc for lines ending in LF, CRLF or CR.
func splitSSELines(data []byte, atEOF bool) (advance int, token []byte, err error) {
	i := bytes.IndexAny(data, "\r\n")
	switch {
	case i < 0:
		if atEOF && len(data) > 0 {
			return len(data), data, nil
		}
		return 0, nil, nil
	case data[i] == '\n':
		return i + 1, data[:i], nil
	case i+1 < len(data):
		if data[i+1] == '\n' {
			return i + 2, data[:i], nil
		}
		return i + 1, data[:i], nil
	case atEOF:
		return i + 1, data[:i], nil
	}
	// A CR at the end of the buffer: wait to see whether LF follows.
	return 0, nil, nil
}
