// Package sse reads and writes the server-sent event stream of pi's proxy:
// one JSON event per "data: " line, events separated by a blank line.
//
// The reader follows pi's proxy client rather than the full SSE grammar:
// the stream is split into lines at '\n'; a line that starts with "data: "
// carries one event, its payload the rest of the line with surrounding
// white space trimmed; every other line (blank lines, comments, "event:",
// "id:", "data:" without a space) is skipped. A last line without a newline
// counts once the stream ends cleanly.
package sse

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// ErrLineTooLong is returned by [Reader.Next] for a line longer than the
// reader's limit.
var ErrLineTooLong = errors.New("sse: line too long")

// DefaultMaxLine is the line limit of a [Reader] made with a limit <= 0.
const DefaultMaxLine = 16 << 20

var dataPrefix = []byte("data: ")

// Reader reads the data lines of an event stream. It is not safe for
// concurrent use.
type Reader struct {
	br   *bufio.Reader
	max  int
	line []byte
	err  error
}

// NewReader returns a reader of r that refuses lines longer than maxLine
// bytes (DefaultMaxLine when maxLine <= 0).
func NewReader(r io.Reader, maxLine int) *Reader {
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	return &Reader{br: bufio.NewReaderSize(r, 32<<10), max: maxLine}
}

// Next returns the payload of the next data line. The payload is valid
// until the next call. At the end of a clean stream it returns io.EOF; a
// read error is returned as is (a last line cut off by it is dropped), and
// a line over the limit gives [ErrLineTooLong]. After an error, Next keeps
// returning it.
func (r *Reader) Next() ([]byte, error) {
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

// readLine returns the next line without its '\n'. At the end of the
// stream it returns the unterminated rest with io.EOF.
func (r *Reader) readLine() ([]byte, error) {
	r.line = r.line[:0]
	for {
		chunk, err := r.br.ReadSlice('\n')
		if len(r.line)+len(chunk) > r.max+1 {
			return nil, ErrLineTooLong
		}
		switch {
		case err == nil:
			if len(r.line) == 0 {
				return chunk[:len(chunk)-1], nil
			}
			r.line = append(r.line, chunk[:len(chunk)-1]...)
			return r.line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			r.line = append(r.line, chunk...)
		case err == io.EOF:
			r.line = append(r.line, chunk...)
			return r.line, io.EOF
		default:
			return nil, err
		}
	}
}

// Payload returns the trimmed payload of line when it is a data line with
// a non-empty payload.
func Payload(line []byte) ([]byte, bool) {
	if !bytes.HasPrefix(line, dataPrefix) {
		return nil, false
	}
	payload := bytes.TrimSpace(line[len(dataPrefix):])
	return payload, len(payload) > 0
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
