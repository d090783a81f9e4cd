package google

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDelimiterEnd(t *testing.T) {
	for _, tc := range []struct {
		name, prev, b string
		want          int
	}{
		{"none", "", "data: {}\n", -1},
		{"LF LF", "", "data: {}\n\ndata: x", 10},
		{"CR CR", "", "a\r\rb", 3},
		{"CRLF CRLF", "", "a\r\n\r\nb", 5},
		{"the last one", "", "a\n\nb\r\n\r\nc", 8},
		{"begun before", "x\r\n\r", "\ndata", 1},
		{"LF then CR", "", "a\n\rb", -1},
		{"empty", "\n", "", -1},
		{"one byte ends one", "\n", "\n", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, delimiterEnd([]byte(tc.prev), []byte(tc.b)))
		})
	}
}

// TestTailAcrossReads feeds a body a byte at a time: the end is judged as
// when it comes whole.
func TestTailAcrossReads(t *testing.T) {
	for _, tc := range []struct {
		body       string
		incomplete bool
		cut        bool
	}{
		{"data: {}\r\n\r\n", false, false},
		{"data: {}\r\n\r\ndata: {\"a\"", true, true},
		{"data: {}\n\n: comment", true, false},
		{"data: {}\n\n  \n", false, false},
	} {
		var whole, bytewise tailReader
		whole.note([]byte(tc.body))
		for i := range len(tc.body) {
			bytewise.note([]byte(tc.body[i : i+1]))
		}
		for _, r := range []*tailReader{&whole, &bytewise} {
			assert.Equal(t, tc.incomplete, r.incomplete(), "%q", tc.body)
			assert.Equal(t, tc.cut, r.cutEvent(), "%q", tc.body)
		}
	}
}
