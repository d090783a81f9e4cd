package openai

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

func TestSSEReader(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []sseEvent
	}{
		{name: "LF", body: "data: a\n\ndata: b\n\n", want: []sseEvent{{data: "a"}, {data: "b"}}},
		{name: "CRLF", body: "data: a\r\n\r\ndata: b\r\n\r\n", want: []sseEvent{{data: "a"}, {data: "b"}}},
		{name: "CR", body: "data: a\r\rdata: b\r\r", want: []sseEvent{{data: "a"}, {data: "b"}}},
		{name: "multi-line data", body: "data: a\ndata:b\ndata:  c\n\n", want: []sseEvent{{data: "a\nb\n c"}}},
		{name: "event name", body: "event: error\ndata: {}\n\n", want: []sseEvent{{name: "error", data: "{}"}}},
		{name: "comments and unknown fields", body: ": ping\nid: 7\nretry: 10\ndata: x\n\n: bye\n\n", want: []sseEvent{{data: "x"}}},
		{name: "blank lines between events", body: "\n\ndata: x\n\n\n\n", want: []sseEvent{{data: "x"}}},
		{name: "no final blank line", body: "data: a\n\ndata: b", want: []sseEvent{{data: "a"}, {data: "b"}}},
		{name: "field without colon", body: "data\n\n", want: []sseEvent{{data: ""}}},
		{name: "empty", body: "", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// One byte per read: every line ending is split across reads.
			for _, r := range []io.Reader{strings.NewReader(tt.body), iotest.OneByteReader(strings.NewReader(tt.body))} {
				var got []sseEvent
				sr := newSSEReader(r)
				for {
					ev, err := sr.next()
					if errors.Is(err, io.EOF) {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, ev)
				}
				if !reflect.DeepEqual(got, tt.want) {
					t.Errorf("events %q, want %q", got, tt.want)
				}
			}
		})
	}
}

func TestSSEReaderReadError(t *testing.T) {
	boom := errors.New("boom")
	sr := newSSEReader(io.MultiReader(strings.NewReader("data: a\n\ndata: b"), iotest.ErrReader(boom)))
	if ev, err := sr.next(); err != nil || ev.data != "a" {
		t.Fatalf("first event %q, %v", ev.data, err)
	}
	if _, err := sr.next(); !errors.Is(err, boom) {
		t.Fatalf("error %v, want %v", err, boom)
	}
}
