package limit

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTruncate(t *testing.T) {
	tests := []struct {
		name, in string
		max      int
		want     string
	}{
		{name: "short", in: "abc", max: 3, want: "abc"},
		{name: "long", in: "abcdef", max: 3, want: "abc... [truncated 3 chars]"},
		{name: "characters, not bytes", in: "ééé", max: 3, want: "ééé"},
		{name: "cut between characters", in: "éééé", max: 2, want: "éé... [truncated 2 chars]"},
		{name: "empty", in: "", max: 0, want: ""},
		{name: "to nothing", in: "ab", max: 0, want: "... [truncated 2 chars]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Truncate(tt.in, tt.max))
		})
	}
	assert.Len(t, Truncate(strings.Repeat("x", 1<<20), MaxFailureText), MaxFailureText+len("... [truncated 1032576 chars]"))
}

func TestQuote(t *testing.T) {
	assert.Equal(t, `"call_1"`, Quote("call_1"))
	assert.Equal(t, `"a\nb"`, Quote("a\nb"))
	long := strings.Repeat("x", 10<<20)
	got := Quote(long)
	assert.Equal(t, `"`+strings.Repeat("x", MaxQuoted)+`"… (10485760 bytes)`, got)
	cut := Quote(strings.Repeat("é", 100)) // 200 bytes, cut inside a character
	assert.Equal(t, `"`+strings.Repeat("é", MaxQuoted/2)+`"… (200 bytes)`, cut)
}
