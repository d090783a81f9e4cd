package agentotel

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"go.opentelemetry.io/otel/attribute"
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

// FuzzJSONOrText checks that a content value is a map or slice only when
// the text is one JSON object or array within the cap, and otherwise the
// capped text.
func FuzzJSONOrText(f *testing.F) {
	for _, seed := range []string{"", "{}", `{"a":[1,2.5,"x",null,true]}`, "[1] [2]", `"s"`, "plain text", `{"a":`, "1e999"} {
		f.Add(seed, 16)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		if max < 0 {
			max = -max % 64
		}
		in := &Instrumentation{maxBytes: max}
		v := in.jsonOrText(s)
		switch v.Type() {
		case attribute.MAP, attribute.SLICE:
			if len(s) > max || !json.Valid([]byte(s)) {
				t.Fatalf("jsonOrText(%q, %d) is structured", s, max)
			}
		case attribute.STRING:
			if v.AsString() != truncate(s, max) {
				t.Fatalf("jsonOrText(%q, %d) = %q, want the capped text", s, max, v.AsString())
			}
		default:
			t.Fatalf("jsonOrText(%q, %d) is a %s", s, max, v.Type())
		}
	})
}
