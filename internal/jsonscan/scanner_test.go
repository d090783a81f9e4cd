package jsonscan

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzString checks String against encoding/json: a string it takes
// decodes to the same, and it refuses none of the plain ones.
func FuzzString(f *testing.F) {
	for _, s := range []string{`"abc"`, `"a\"b\\c\/\b\f\n\r\t"`, `"\u00e9\ud83d\ude00"`, `"\ud800"`, `"é№😀"`,
		`"0123456789abcdefghijklmnopqrstuvwxyz\"0123456789"`, "\"\x7f\x01\"", "\"\xff\"", `"\x"`, `"abc`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var s Scanner
		s.Reset(data)
		got := s.String()
		var want string
		err := json.Unmarshal(data, &want)
		if !s.Failed() && s.End() {
			require.NoError(t, err, "%q", data)
			require.Equal(t, want, got, "%q", data)
		}
		s.Reset(data)
		s.Skip()
		if !s.Failed() && s.End() {
			require.True(t, json.Valid(data), "%q", data)
		}
	})
}

func TestSpan(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"a":"}\"}"} x`, `{"a":"}\"}"}`},
		{`[1,["\\"],{}]`, `[1,["\\"],{}]`},
		{`{"a":"\\\"}"}`, `{"a":"\\\"}"}`},
	} {
		var s Scanner
		s.Reset([]byte(tt.in))
		assert.Equal(t, tt.want, string(s.Span()), tt.in)
		assert.False(t, s.Failed())
	}
	for _, bad := range []string{`{"a":"}`, `"x"`, `{[}`} {
		var s Scanner
		s.Reset([]byte(bad))
		s.Span()
		assert.True(t, s.Failed(), bad)
	}
}

func TestInt64(t *testing.T) {
	for lit, want := range map[string]int64{"1.5": 1, "-1.5": -1, "12345678901234567890": 1<<63 - 1, "1e400": 1<<63 - 1,
		"-1e21": -1 << 63, " 7 ": 7, "0": 0, "-0.0": 0} {
		got, ok := Int64([]byte(lit))
		assert.True(t, ok, lit)
		assert.Equal(t, want, got, lit)
	}
	for _, bad := range []string{`"1"`, "01", "1.", "-", "", "1 2", "NaN"} {
		_, ok := Int64([]byte(bad))
		assert.False(t, ok, bad)
	}
}
