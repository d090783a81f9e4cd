package bedrock

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// The limits of one event-stream message, AWS's own: a payload of at most
// 16 MiB and headers of at most 128 KiB. A message announcing more is
// refused before its bytes are read.
const (
	maxPayload = 16 << 20
	maxHeaders = 128 << 10
	// preludeLen is the size of a message's prelude (total length,
	// headers length, prelude CRC); crcLen that of its closing CRC.
	preludeLen = 12
	crcLen     = 4
	maxMessage = preludeLen + maxHeaders + maxPayload + crcLen
)

// ErrTruncated is the error of an event stream that ends in the middle
// of a message; its text is the AWS SDK's.
var ErrTruncated = errors.New("Truncated event message received.")

// errFraming is wrapped by the errors of a malformed message: a bad
// checksum, a length out of range, a header that does not parse.
var errFraming = errors.New("malformed event stream message")

// frame is one message of an AWS event stream (the
// application/vnd.amazon.eventstream framing): its string headers of
// interest and its payload. Both are valid only until the next
// [frameReader.next].
type frame struct {
	// messageType is the :message-type header ("event", "exception",
	// "error"); eventType, exceptionType, errorCode and errorMessage
	// the :event-type, :exception-type, :error-code and :error-message
	// headers, empty when absent. They alias the reader's buffer.
	messageType, eventType, exceptionType, errorCode, errorMessage []byte
	payload                                                        []byte
}

// frameReader reads the messages of an event stream one at a time,
// reusing one buffer: memory stays at the largest message read, which is
// bounded by maxMessage.
type frameReader struct {
	src *sourceReader
	r   *bufio.Reader
	buf []byte
}

func newFrameReader(r io.Reader) *frameReader {
	src := &sourceReader{r: r}
	return &frameReader{src: src, r: bufio.NewReaderSize(src, 32<<10)}
}

// sourceReader notes whether its reader ended cleanly (io.EOF), to tell a
// stream that ends inside a message from a connection that broke.
type sourceReader struct {
	r   io.Reader
	eof bool
}

func (s *sourceReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err == io.EOF {
		s.eof = true
	}
	return n, err
}

// cut is the error of a read that stopped inside a message:
// [ErrTruncated] when the stream ended there, else err, the connection's.
func (fr *frameReader) cut(err error) error {
	if fr.src.eof && (err == io.EOF || err == io.ErrUnexpectedEOF) {
		return ErrTruncated
	}
	return err
}

// next reads the next message. It returns io.EOF at the end of a stream
// that ends between messages, [ErrTruncated] for one that ends inside a
// message (a connection that breaks there gives its own error), an error wrapping errFraming for a malformed message (its
// text the AWS SDK's for a checksum mismatch), else the reader's error.
func (fr *frameReader) next() (frame, error) {
	var prelude [preludeLen]byte
	if n, err := io.ReadFull(fr.r, prelude[:]); err != nil {
		if n == 0 && err == io.EOF {
			return frame{}, io.EOF // between messages
		}
		return frame{}, fr.cut(err)
	}
	total := binary.BigEndian.Uint32(prelude[0:4])
	headersLen := binary.BigEndian.Uint32(prelude[4:8])
	want := binary.BigEndian.Uint32(prelude[8:12])
	if got := crc32.ChecksumIEEE(prelude[:8]); got != want {
		return frame{}, fmt.Errorf("%w: The prelude checksum specified in the message (%d) does not match the calculated CRC32 checksum (%d)", errFraming, want, got)
	}
	if total < preludeLen+crcLen || total > maxMessage || headersLen > maxHeaders || headersLen > total-preludeLen-crcLen {
		return frame{}, fmt.Errorf("%w: message length %d, headers length %d", errFraming, total, headersLen)
	}
	if cap(fr.buf) < int(total) {
		fr.buf = make([]byte, total)
	}
	msg := fr.buf[:total]
	copy(msg, prelude[:])
	if _, err := io.ReadFull(fr.r, msg[preludeLen:]); err != nil {
		return frame{}, fr.cut(err)
	}
	end := total - crcLen
	want = binary.BigEndian.Uint32(msg[end:])
	if got := crc32.ChecksumIEEE(msg[:end]); got != want {
		return frame{}, fmt.Errorf("%w: The message checksum (%d) did not match the expected value of %d", errFraming, got, want)
	}
	f := frame{payload: msg[preludeLen+headersLen : end]}
	if err := f.parseHeaders(msg[preludeLen : preludeLen+headersLen]); err != nil {
		return frame{}, err
	}
	return f, nil
}

// headerValueLen is the size of the fixed-size value of each header type,
// -1 for the types whose value starts with a 2-byte length (bytes,
// string).
var headerValueLen = [10]int{0: 0, 1: 0, 2: 1, 3: 2, 4: 4, 5: 8, 6: -1, 7: -1, 8: 8, 9: 16}

// parseHeaders reads the headers b of a message, keeping the string
// values of the ones the decoder reads and skipping the others.
func (f *frame) parseHeaders(b []byte) error {
	for len(b) > 0 {
		n := int(b[0])
		if len(b) < 1+n+1 {
			return fmt.Errorf("%w: header cut short", errFraming)
		}
		name := b[1 : 1+n]
		typ := b[1+n]
		b = b[2+n:]
		if int(typ) >= len(headerValueLen) {
			return fmt.Errorf("%w: header type %d", errFraming, typ)
		}
		size := headerValueLen[typ]
		start := 0
		if size < 0 {
			if len(b) < 2 {
				return fmt.Errorf("%w: header cut short", errFraming)
			}
			size, start = int(binary.BigEndian.Uint16(b)), 2
		}
		if len(b) < start+size {
			return fmt.Errorf("%w: header cut short", errFraming)
		}
		if typ == 7 {
			f.setHeader(string(name), b[start:start+size])
		}
		b = b[start+size:]
	}
	return nil
}

// setHeader keeps the string value v of the header name when the decoder
// reads it.
func (f *frame) setHeader(name string, v []byte) {
	switch name {
	case ":message-type":
		f.messageType = v
	case ":event-type":
		f.eventType = v
	case ":exception-type":
		f.exceptionType = v
	case ":error-code":
		f.errorCode = v
	case ":error-message":
		f.errorMessage = v
	}
}
