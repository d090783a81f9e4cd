package sse

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// payloads reads every payload of r and the error that ended the stream.
func payloads(r *Reader) ([]string, error) {
	var out []string
	for {
		p, err := r.Next()
		if err != nil {
			return out, err
		}
		out = append(out, string(p))
	}
}

// reference is how pi's proxy client splits a body: lines at '\n', the
// unterminated rest processed at the end, "data: " lines trimmed.
func reference(body string) []string {
	var out []string
	for _, line := range strings.Split(body, "\n") {
		if rest, ok := strings.CutPrefix(line, "data: "); ok {
			if p := strings.TrimSpace(rest); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

func TestReader(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []string
	}{
		{"two events", "data: {\"a\":1}\n\ndata: {\"b\":2}\n\n", []string{`{"a":1}`, `{"b":2}`}},
		{"last event unterminated", "data: 1\n\ndata: 2", []string{"1", "2"}},
		{"crlf", "data: 1\r\n\r\ndata: 2\r\n", []string{"1", "2"}},
		{"comments and fields skipped", ": ping\nevent: x\nid: 3\nretry: 5\ndata: 1\n\n", []string{"1"}},
		{"data without space skipped", "data:1\ndata: 2\n", []string{"2"}},
		{"empty payloads skipped", "data: \ndata:    \t\ndata: 3\n", []string{"3"}},
		{"payload trimmed", "data:   x  \n", []string{"x"}},
		{"every line counts", "data: 1\ndata: 2\n", []string{"1", "2"}},
		{"empty body", "", nil},
		{"leading space before data", " data: 1\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, split := range []bool{false, true} {
				var src io.Reader = strings.NewReader(tt.body)
				if split {
					src = iotest.OneByteReader(src)
				}
				got, err := payloads(NewReader(src, 0))
				if err != io.EOF {
					t.Fatalf("err = %v, want io.EOF", err)
				}
				if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
					t.Fatalf("got %q, want %q", got, tt.want)
				}
			}
		})
	}
}

func TestReaderLongLines(t *testing.T) {
	long := strings.Repeat("x", 100<<10)
	got, err := payloads(NewReader(strings.NewReader("data: "+long+"\ndata: y\n"), 0))
	if err != io.EOF || len(got) != 2 || got[0] != long || got[1] != "y" {
		t.Fatalf("long line: %d payloads, err %v", len(got), err)
	}
	got, err = payloads(NewReader(strings.NewReader("data: 1\ndata: "+long+"\n"), 1000))
	if !errors.Is(err, ErrLineTooLong) || len(got) != 1 {
		t.Fatalf("over the limit: %q, %v", got, err)
	}
	if _, again := NewReader(strings.NewReader(""), 0).Next(); again != io.EOF {
		t.Fatalf("empty: %v", again)
	}
}

func TestReaderReadError(t *testing.T) {
	boom := errors.New("boom")
	src := io.MultiReader(strings.NewReader("data: 1\ndata: {\"cut"), iotest.ErrReader(boom))
	r := NewReader(src, 0)
	got, err := payloads(r)
	if !errors.Is(err, boom) || len(got) != 1 || got[0] != "1" {
		t.Fatalf("got %q, %v: want the complete line, then the error", got, err)
	}
	if _, err := r.Next(); !errors.Is(err, boom) {
		t.Fatalf("error not sticky: %v", err)
	}
}

func TestWriter(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for _, p := range []string{`{"type":"start"}`, `{"type":"done"}`} {
		if err := w.WriteData([]byte(p)); err != nil {
			t.Fatal(err)
		}
	}
	if want := "data: {\"type\":\"start\"}\n\ndata: {\"type\":\"done\"}\n\n"; buf.String() != want {
		t.Fatalf("wrote %q", buf.String())
	}
	if err := w.WriteData([]byte("a\nb")); !errors.Is(err, ErrNewline) {
		t.Fatalf("newline: %v", err)
	}
	got, _ := payloads(NewReader(&buf, 0))
	if len(got) != 2 {
		t.Fatalf("round trip: %q", got)
	}
}

func FuzzReader(f *testing.F) {
	f.Add("data: {\"type\":\"start\"}\n\ndata: x", uint8(3))
	f.Add("data: 1\r\n: c\ndata:2\n", uint8(1))
	f.Fuzz(func(t *testing.T, body string, chunk uint8) {
		src := io.Reader(strings.NewReader(body))
		if chunk > 0 {
			src = &chunkReader{s: body, n: int(chunk)}
		}
		got, err := payloads(NewReader(src, 0))
		if err != io.EOF {
			t.Fatalf("err = %v", err)
		}
		want := reference(body)
		if len(got) != len(want) {
			t.Fatalf("got %q, want %q", got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("payload %d: got %q, want %q", i, got[i], want[i])
			}
		}
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
