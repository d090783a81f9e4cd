package sse

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readAll calls next until it fails, and returns what it gave and the
// error.
func readAll[T any](next func() (T, error)) ([]T, error) {
	var out []T
	for {
		v, err := next()
		if err != nil {
			return out, err
		}
		out = append(out, v)
	}
}

// payloads reads every payload of r and the error that ended the stream.
func payloads(r *Reader) ([]string, error) {
	return readAll(func() (string, error) {
		p, err := r.NextData()
		return string(p), err
	})
}

// events reads every event of r and the error that ended the stream.
func events(r *Reader) ([]Event, error) {
	return readAll(func() (Event, error) {
		ev, err := r.Next()
		return Event{Name: ev.Name, Data: append([]byte{}, ev.Data...)}, err
	})
}

var lineBreak = regexp.MustCompile("\r\n|\r|\n")

// referencePayloads is how pi's proxy client reads a body, with lines split
// at any line ending: "data: " lines trimmed, the unterminated rest
// processed at the end.
func referencePayloads(body string) []string {
	var out []string
	for _, line := range lineBreak.Split(strings.TrimPrefix(body, "\ufeff"), -1) {
		if rest, ok := strings.CutPrefix(line, "data: "); ok {
			if p := strings.TrimSpace(rest); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// referenceEvents is the WHATWG event stream interpretation, written
// plainly over the whole body, with a pending event dispatched at the end.
func referenceEvents(body string) []Event {
	var out []Event
	var name string
	var data []string
	dispatch := func() {
		if data != nil {
			out = append(out, Event{Name: name, Data: []byte(strings.Join(data, "\n"))})
		}
		name, data = "", nil
	}
	for _, line := range lineBreak.Split(strings.TrimPrefix(body, "\ufeff"), -1) {
		switch {
		case line == "":
			dispatch()
		case strings.HasPrefix(line, ":"):
		default:
			field, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch field {
			case "event":
				name = value
			case "data":
				data = append(data, value)
			}
		}
	}
	dispatch()
	return out
}

// sources returns the ways a test reads body: whole, a byte at a time,
// and in pieces of three bytes (every line ending split across reads).
func sources(body string) map[string]func() io.Reader {
	return map[string]func() io.Reader{
		"whole":    func() io.Reader { return strings.NewReader(body) },
		"one byte": func() io.Reader { return iotest.OneByteReader(strings.NewReader(body)) },
		"3 bytes":  func() io.Reader { return &chunkReader{s: body, n: 3} },
	}
}

// checkReads reads body in each of the ways sources gives with read, and
// checks that it gives want, then io.EOF.
func checkReads[T any](t *testing.T, name, body string, want []T, read func(*Reader) ([]T, error)) {
	for how, src := range sources(body) {
		t.Run(name+"/"+how, func(t *testing.T) {
			got, err := read(NewReader(src(), 0))
			require.ErrorIs(t, err, io.EOF)
			assert.Equal(t, want, got)
		})
	}
}

func TestReaderNextData(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []string
	}{
		{"two events", "data: {\"a\":1}\n\ndata: {\"b\":2}\n\n", []string{`{"a":1}`, `{"b":2}`}},
		{"last event unterminated", "data: 1\n\ndata: 2", []string{"1", "2"}},
		{"crlf", "data: 1\r\n\r\ndata: 2\r\n", []string{"1", "2"}},
		{"cr", "data: 1\r\rdata: 2\r", []string{"1", "2"}},
		{"comments and fields skipped", ": ping\nevent: x\nid: 3\nretry: 5\ndata: 1\n\n", []string{"1"}},
		{"data without space skipped", "data:1\ndata: 2\n", []string{"2"}},
		{"empty payloads skipped", "data: \ndata:    \t\ndata: 3\n", []string{"3"}},
		{"payload trimmed", "data:   x  \n", []string{"x"}},
		{"every line counts", "data: 1\ndata: 2\n", []string{"1", "2"}},
		{"empty body", "", nil},
		{"leading space before data", " data: 1\n", nil},
		{"byte order mark", "\ufeffdata: 1\n", []string{"1"}},
	}
	for _, tt := range tests {
		checkReads(t, tt.name, tt.body, tt.want, payloads)
	}
}

func TestReaderNext(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []Event
	}{
		{name: "LF", body: "data: a\n\ndata: b\n\n", want: []Event{{Data: []byte("a")}, {Data: []byte("b")}}},
		{name: "CRLF", body: "data: a\r\n\r\ndata: b\r\n\r\n", want: []Event{{Data: []byte("a")}, {Data: []byte("b")}}},
		{name: "CR", body: "data: a\r\rdata: b\r\r", want: []Event{{Data: []byte("a")}, {Data: []byte("b")}}},
		{name: "multi-line data", body: "data: a\ndata:b\ndata:  c\n\n", want: []Event{{Data: []byte("a\nb\n c")}}},
		{name: "event name", body: "event: error\ndata: {}\n\n", want: []Event{{Name: "error", Data: []byte("{}")}}},
		{name: "name without data is no event", body: "event: ping\n\ndata: x\n\n", want: []Event{{Data: []byte("x")}}},
		{name: "comments and unknown fields", body: ": ping\nid: 7\nretry: 10\ndata: x\n\n: bye\n\n", want: []Event{{Data: []byte("x")}}},
		{name: "blank lines between events", body: "\n\ndata: x\n\n\n\n", want: []Event{{Data: []byte("x")}}},
		{name: "no final blank line", body: "data: a\n\ndata: b", want: []Event{{Data: []byte("a")}, {Data: []byte("b")}}},
		{name: "field without colon", body: "data\n\n", want: []Event{{Data: []byte("")}}},
		{name: "anthropic", body: "event: message_start\ndata: {\"type\":\"message_start\"}\n\nevent: ping\ndata: {}\n\n", want: []Event{
			{Name: "message_start", Data: []byte(`{"type":"message_start"}`)}, {Name: "ping", Data: []byte("{}")},
		}},
		{name: "empty", body: "", want: nil},
		{name: "byte order mark", body: "\ufeffevent: a\ndata: x\n\n", want: []Event{{Name: "a", Data: []byte("x")}}},
		{name: "byte order mark alone", body: "\ufeff", want: nil},
		{name: "only the first byte order mark", body: "\ufeff\ufeffdata: x\n\n", want: nil},
		{name: "byte order mark within", body: "data: \ufeffx\n\n", want: []Event{{Data: []byte("\ufeffx")}}},
		{name: "part of a byte order mark", body: "\xef\xbbdata: x\n\n", want: nil},
	}
	for _, tt := range tests {
		checkReads(t, tt.name, tt.body, tt.want, events)
	}
}

func TestReaderLongLines(t *testing.T) {
	long := strings.Repeat("x", 100<<10)
	got, err := payloads(NewReader(strings.NewReader("data: "+long+"\ndata: y\n"), 0))
	require.ErrorIs(t, err, io.EOF)
	assert.Equal(t, []string{long, "y"}, got)

	tests := []struct {
		name string
		body string
	}{
		{"terminated", "data: 1\n\ndata: " + long + "\n\n"},
		{"unterminated", "data: 1\n\ndata: " + long},
		{"many short data lines", "data: 1\n\n" + strings.Repeat("data: 0123456789\n", 200)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name != "many short data lines" {
				got, err := payloads(NewReader(strings.NewReader(tt.body), 1000))
				require.ErrorIs(t, err, ErrLineTooLong)
				assert.Equal(t, []string{"1"}, got)
			}
			evs, err := events(NewReader(strings.NewReader(tt.body), 1000))
			require.ErrorIs(t, err, ErrLineTooLong)
			assert.Equal(t, []Event{{Data: []byte("1")}}, evs)
		})
	}
}

// TestReaderLongLineMemory checks that a line far over the limit is
// refused after reading about the limit, not the whole line.
func TestReaderLongLineMemory(t *testing.T) {
	src := &countingReader{r: io.MultiReader(strings.NewReader("data: "), infinite{})}
	_, err := NewReader(src, 1<<20).NextData()
	require.ErrorIs(t, err, ErrLineTooLong)
	assert.Less(t, src.n, int64(1<<20+2*bufferSize))
}

type infinite struct{}

func (infinite) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func TestReaderReadError(t *testing.T) {
	boom := errors.New("boom")
	src := io.MultiReader(strings.NewReader("data: 1\ndata: {\"cut"), iotest.ErrReader(boom))
	r := NewReader(src, 0)
	got, err := payloads(r)
	require.ErrorIs(t, err, boom)
	assert.Equal(t, []string{"1"}, got, "the complete line, then the error")
	_, err = r.NextData()
	assert.ErrorIs(t, err, boom, "the error is sticky")

	r = NewReader(io.MultiReader(strings.NewReader("data: a\n\ndata: b"), iotest.ErrReader(boom)), 0)
	evs, err := events(r)
	require.ErrorIs(t, err, boom)
	assert.Equal(t, []Event{{Data: []byte("a")}}, evs, "the cut-off event is dropped")
}

func TestWriter(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for _, p := range []string{`{"type":"start"}`, `{"type":"done"}`} {
		require.NoError(t, w.WriteData([]byte(p)))
	}
	assert.Equal(t, "data: {\"type\":\"start\"}\n\ndata: {\"type\":\"done\"}\n\n", buf.String())
	assert.ErrorIs(t, w.WriteData([]byte("a\nb")), ErrNewline)
	got, _ := payloads(NewReader(bytes.NewReader(buf.Bytes()), 0))
	assert.Equal(t, []string{`{"type":"start"}`, `{"type":"done"}`}, got)
	evs, _ := events(NewReader(&buf, 0))
	assert.Len(t, evs, 2)
}

func FuzzReader(f *testing.F) {
	f.Add("data: {\"type\":\"start\"}\n\ndata: x", uint8(3))
	f.Add("data: 1\r\n: c\ndata:2\n", uint8(1))
	f.Add("event: a\rdata: 1\r\ndata\r\r\n", uint8(2))
	f.Add("\ufeffdata: 1\n\n", uint8(1))
	f.Fuzz(func(t *testing.T, body string, chunk uint8) {
		src := func() io.Reader {
			if chunk > 0 {
				return &chunkReader{s: body, n: int(chunk)}
			}
			return strings.NewReader(body)
		}
		got, err := payloads(NewReader(src(), 0))
		require.ErrorIs(t, err, io.EOF)
		want := referencePayloads(body)
		if len(want) == 0 {
			want = nil
		}
		require.Equal(t, want, got)

		evs, err := events(NewReader(src(), 0))
		require.ErrorIs(t, err, io.EOF)
		require.Equal(t, referenceEvents(body), evs)
	})
}

// chunkReader returns s n bytes at a time.
type chunkReader struct {
	s string
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if c.s == "" {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), c.n)], c.s)
	c.s = c.s[k:]
	return k, nil
}
