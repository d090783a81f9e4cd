package sse

import (
	"bytes"
	"errors"
	"io"
)

// ErrLineTooLong is returned by [Reader.Next] and [Reader.NextData] for a
// line, or an event's data, longer than the reader's limit.
var ErrLineTooLong = errors.New("sse: line too long")

// DefaultMaxLine is the line limit of a [Reader] made with a limit <= 0.
const DefaultMaxLine = 16 << 20

// bufferSize is the size of a reader's read buffer.
const bufferSize = 32 << 10

var dataPrefix = []byte("data: ")

// bom is the UTF-8 byte order mark a stream may start with.
var bom = []byte("\ufeff")

// Event is one dispatched event.
type Event struct {
	// Name is the value of the event's last "event" field, or "" when it
	// had none.
	Name string
	// Data is the event's "data" values joined with LF. It is valid until
	// the next call of the reader.
	Data []byte
}

// Reader reads an event stream. It is not safe for concurrent use.
type Reader struct {
	src   io.Reader
	max   int
	buf   []byte // read buffer; buf[start:end] is unread
	start int
	end   int
	// readErr is the error of the last read, returned once buf is used up.
	readErr error
	// skipLF says the last line ended in CR: an LF right after it belongs
	// to that line ending.
	skipLF bool
	// begun is set once a leading byte order mark was looked for.
	begun bool
	line  []byte // a line that spans reads
	err   error  // sticky: the error that ended the stream

	// The event being read by Next. lastName is the last event name read,
	// shared by the events that repeat it.
	name     string
	lastName string
	data     []byte
	hasData  bool
}

// NewReader returns a reader of r that refuses lines longer than maxLine
// bytes (DefaultMaxLine when maxLine <= 0).
func NewReader(r io.Reader, maxLine int) *Reader {
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	return &Reader{src: r, max: maxLine, buf: make([]byte, bufferSize)}
}

// Next returns the next event (see the package comment). At the end of a
// clean stream it returns io.EOF; a read error is returned as is (an event
// it cut off is dropped), and a line or an event's data over the limit
// gives [ErrLineTooLong]. After an error, Next keeps returning it.
func (r *Reader) Next() (Event, error) {
	for r.err == nil {
		line, err := r.readLine()
		if err != nil {
			r.err = err
			if err != io.EOF {
				break
			}
			if len(line) > 0 {
				r.field(line)
			}
			if ev, ok := r.dispatch(); ok {
				return ev, nil
			}
			break
		}
		if len(line) == 0 {
			if ev, ok := r.dispatch(); ok {
				return ev, nil
			}
			continue
		}
		r.field(line)
		if len(r.data) > r.max {
			r.err = ErrLineTooLong
		}
	}
	return Event{}, r.err
}

// field applies one non-blank line to the pending event.
func (r *Reader) field(line []byte) {
	if line[0] == ':' {
		return // a comment
	}
	name, value, _ := bytes.Cut(line, []byte(":"))
	value = bytes.TrimPrefix(value, []byte(" "))
	switch string(name) {
	case "event":
		if string(value) != r.lastName {
			r.lastName = string(value)
		}
		r.name = r.lastName
	case "data":
		if r.hasData {
			r.data = append(r.data, '\n')
		}
		r.data = appendDoubling(r.data, value, r.max+1)
		r.hasData = true
	}
}

// dispatch returns the pending event when it has data, and resets it.
func (r *Reader) dispatch() (Event, bool) {
	ev := Event{Name: r.name, Data: r.data}
	ok := r.hasData
	r.name, r.data, r.hasData = "", r.data[:0], false
	return ev, ok
}

// NextData returns the payload of the next "data: " line, pi's proxy
// framing (see the package comment). The payload is valid until the next
// call. Errors are those of [Reader.Next].
func (r *Reader) NextData() ([]byte, error) {
	for r.err == nil {
		line, err := r.readLine()
		if err != nil {
			r.err = err
			if err != io.EOF || len(line) == 0 {
				break
			}
		}
		if payload, ok := Payload(line); ok {
			return payload, nil
		}
	}
	return nil, r.err
}

// Payload returns the trimmed payload of line when it is a data line with
// a non-empty payload, as pi's proxy client reads it.
func Payload(line []byte) ([]byte, bool) {
	if !bytes.HasPrefix(line, dataPrefix) {
		return nil, false
	}
	payload := bytes.TrimSpace(line[len(dataPrefix):])
	return payload, len(payload) > 0
}

// readLine returns the next line without its line ending; it is valid
// until the next call. At the end of the stream it returns the
// unterminated rest with io.EOF.
func (r *Reader) readLine() ([]byte, error) {
	r.line = r.line[:0]
	if !r.begun {
		r.skipBOM()
	}
	for {
		if r.start == r.end {
			if r.readErr != nil {
				if r.readErr == io.EOF {
					return r.line, io.EOF
				}
				return nil, r.readErr
			}
			n, err := r.src.Read(r.buf)
			r.start, r.end, r.readErr = 0, n, err
			continue
		}
		chunk := r.buf[r.start:r.end]
		if r.skipLF {
			r.skipLF = false
			if chunk[0] == '\n' {
				r.start++
				continue
			}
		}
		i := bytes.IndexAny(chunk, "\r\n")
		if i < 0 {
			if len(r.line)+len(chunk) > r.max {
				return nil, ErrLineTooLong
			}
			r.line = appendDoubling(r.line, chunk, r.max)
			r.start = r.end
			continue
		}
		if len(r.line)+i > r.max {
			return nil, ErrLineTooLong
		}
		r.start += i + 1
		r.skipLF = chunk[i] == '\r'
		if len(r.line) == 0 {
			return chunk[:i], nil
		}
		r.line = appendDoubling(r.line, chunk[:i], r.max)
		return r.line, nil
	}
}

// skipBOM drops a byte order mark that starts the stream, reading until
// it has enough bytes to tell (or the source fails).
func (r *Reader) skipBOM() {
	r.begun = true
	for r.end-r.start < len(bom) && r.readErr == nil && bytes.HasPrefix(bom, r.buf[r.start:r.end]) {
		n, err := r.src.Read(r.buf[r.end:])
		r.end += n
		r.readErr = err
	}
	if bytes.HasPrefix(r.buf[r.start:r.end], bom) {
		r.start += len(bom)
	}
}

// appendDoubling appends b to dst, doubling dst's capacity (up to limit)
// when it is full, so that a long line read in pieces costs about twice
// its length in allocations, not the five times of append's growth.
func appendDoubling(dst, b []byte, limit int) []byte {
	if need := len(dst) + len(b); need > cap(dst) {
		grown := make([]byte, len(dst), max(need, min(2*cap(dst), limit)))
		copy(grown, dst)
		dst = grown
	}
	return append(dst, b...)
}

// ErrNewline is returned by [Writer.WriteData] for a payload holding a line
// break, which would split the event.
var ErrNewline = errors.New("sse: payload holds a line break")

// Writer writes events. It is not safe for concurrent use.
type Writer struct {
	w   io.Writer
	buf []byte
}

// NewWriter returns a writer of events to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// WriteData writes one event, "data: " payload "\n\n", in one Write. The
// payload must not hold '\n' or '\r' (compact JSON never does).
func (w *Writer) WriteData(payload []byte) error {
	if bytes.ContainsAny(payload, "\r\n") {
		return ErrNewline
	}
	w.buf = append(append(append(w.buf[:0], dataPrefix...), payload...), '\n', '\n')
	_, err := w.w.Write(w.buf)
	return err
}
