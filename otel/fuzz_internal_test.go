package agentotel

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzTruncate checks that a capped value is at most max bytes, its mark
// included, and a prefix of the original cut at a character boundary.
func FuzzTruncate(f *testing.F) {
	for _, seed := range []string{"", "abc", "aéb", "日本語のテキスト", "\xff\xfe"} {
		f.Add(seed, 2)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		if max < 0 {
			max = -max % 64
		}
		got := truncate(s, max)
		if len(s) <= max {
			if got != s {
				t.Fatalf("truncate(%q, %d) = %q, want it whole", s, max, got)
			}
			return
		}
		body, ok := strings.CutSuffix(got, "…")
		if len(got) > max || (!ok && max >= len("…")) || !strings.HasPrefix(s, body) {
			t.Fatalf("truncate(%q, %d) = %q", s, max, got)
		}
		if utf8.ValidString(s) && !utf8.ValidString(body) {
			t.Fatalf("truncate(%q, %d) = %q cuts a character", s, max, got)
		}
	})
}
