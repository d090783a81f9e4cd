package partialjson

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// golden is testdata/golden.json, written by testdata/oracle.mjs from the
// reference parser.
type golden struct {
	Name      string    `json:"name"`
	Chunks    []string  `json:"chunks"`
	Snapshots []*string `json:"snapshots"`
}

func loadGolden(t testing.TB) []golden {
	data, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []golden
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

// sameValue reports whether two JSON texts (nil for no value) decode to
// equal values.
func sameValue(t *testing.T, got []byte, want *string) bool {
	t.Helper()
	if want == nil || got == nil {
		return want == nil && got == nil
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("output %q is not JSON: %v", got, err)
	}
	if err := json.Unmarshal([]byte(*want), &w); err != nil {
		t.Fatalf("golden %q is not JSON: %v", *want, err)
	}
	return reflect.DeepEqual(g, w)
}

func TestGolden(t *testing.T) {
	for _, c := range loadGolden(t) {
		t.Run(c.Name, func(t *testing.T) {
			var p Parser
			for i, chunk := range c.Chunks {
				p.Append(chunk)
				value, snap := p.Value(), p.Snapshot()
				if !bytes.Equal(value, snap) {
					t.Fatalf("after piece %d: Snapshot %q lags Value %q on a small document", i, snap, value)
				}
				if !sameValue(t, value, c.Snapshots[i]) {
					w := "<none>"
					if c.Snapshots[i] != nil {
						w = *c.Snapshots[i]
					}
					t.Fatalf("after piece %d (%q):\n got %s\nwant %s", i, strings.Join(c.Chunks[:i+1], ""), value, w)
				}
			}
		})
	}
}

func TestGoldenWholeText(t *testing.T) {
	for _, c := range loadGolden(t) {
		t.Run(c.Name, func(t *testing.T) {
			got := Parse(strings.Join(c.Chunks, ""))
			if !sameValue(t, got, c.Snapshots[len(c.Snapshots)-1]) {
				t.Fatalf("got %s, want %s", got, *c.Snapshots[len(c.Snapshots)-1])
			}
		})
	}
}

func TestSnapshotStable(t *testing.T) {
	var p Parser
	p.Append(`{"a": "x`)
	first := p.Snapshot()
	kept := bytes.Clone(first)
	p.Append(`yz", "b": [1, 2`)
	second := p.Snapshot()
	if !bytes.Equal(first, kept) {
		t.Fatalf("an earlier snapshot changed: %q, was %q", first, kept)
	}
	if string(second) != `{"a":"xyz","b":[1,2]}` {
		t.Fatalf("second snapshot %q", second)
	}
	p.Append(" ") // ends the number: a fresh snapshot of the same value
	third := p.Snapshot()
	p.Append("  \n")
	if fourth := p.Snapshot(); &third[0] != &fourth[0] {
		t.Fatalf("whitespace made a new snapshot")
	}
}

func TestSnapshotCostIsLinear(t *testing.T) {
	doc, err := json.Marshal(map[string]any{"path": "big.txt", "content": strings.Repeat("line of text\n", 20000)})
	if err != nil {
		t.Fatal(err)
	}
	var p Parser
	var prev []byte
	built, appends, fresh := 0, 0, 0
	for i := 0; i < len(doc); i += 7 {
		p.Append(string(doc[i:min(i+7, len(doc))]))
		appends++
		if s := p.Snapshot(); len(s) > 0 && (len(prev) == 0 || &s[0] != &prev[0]) {
			built += len(s)
			fresh++
			prev = s
		}
	}
	budget := creditPerAppend*appends + creditPerByte*len(doc)
	if built > budget {
		t.Fatalf("snapshots copied %d bytes, budget %d", built, budget)
	}
	if fresh < 100 {
		t.Fatalf("only %d fresh snapshots of %d appends", fresh, appends)
	}
	var got, want any
	_ = json.Unmarshal(p.Value(), &got)
	_ = json.Unmarshal(doc, &want)
	if !reflect.DeepEqual(got, want) {
		t.Fatal("final value differs from the document")
	}
}

func TestPartialRuneHeldBack(t *testing.T) {
	var p Parser
	p.Append("\"h\xc3")
	if got := string(p.Value()); got != `"h"` {
		t.Fatalf("got %q", got)
	}
	p.Append("\xa9\"")
	if got := string(p.Value()); got != "\"h\u00e9\"" {
		t.Fatalf("got %q", got)
	}
}

// checkInput asserts the parser's invariants on text: every output is valid
// JSON, and the value after the whole text does not depend on how the text
// was cut.
func checkInput(t *testing.T, text string, cuts []int) {
	whole := Parse(text)
	if whole != nil && !json.Valid(whole) {
		t.Fatalf("Parse(%q) = %q: not JSON", text, whole)
	}
	var p Parser
	last := 0
	for _, c := range cuts {
		if c < last || c > len(text) {
			continue
		}
		p.Append(text[last:c])
		last = c
		if v := p.Snapshot(); v != nil && !json.Valid(v) {
			t.Fatalf("snapshot of %q = %q: not JSON", text[:c], v)
		}
	}
	p.Append(text[last:])
	if got := p.Value(); !bytes.Equal(got, whole) {
		t.Fatalf("text %q cut at %v: %q, whole %q", text, cuts, got, whole)
	}
	// A complete document reads as itself (encoding/json rejects numbers
	// beyond float64, which we write as null: those are skipped). A space
	// ends a root number, which shows only up to 64 digits while pending.
	var want any
	if utf8.ValidString(text) && json.Unmarshal([]byte(text), &want) == nil {
		whole = Parse(text + " ")
		var got any
		if err := json.Unmarshal(whole, &got); err != nil {
			t.Fatalf("Parse(%q) = %q: %v", text, whole, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Parse(%q) = %q, want the document's value", text, whole)
		}
	}
}

func TestInvariants(t *testing.T) {
	tests := []struct {
		name string
		text string
	}{
		{"empty", ""},
		{"object", `{"a": [1, {"b": "c\"d"}], "e": null}`},
		{"escapes", `"\u00e9\ud83d\ude00\n\\"`},
		{"garbage", `}{]["a\`},
		{"nested unclosed", `[[[[{"a":[{"b":`},
		{"control", "\"\x00\x1f\x7f\""},
		{"invalid utf8", "{\"a\":\"\xff\xfe\"}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i := 0; i <= len(tt.text); i++ {
				checkInput(t, tt.text, []int{i})
			}
			every := make([]int, len(tt.text))
			for i := range every {
				every[i] = i
			}
			checkInput(t, tt.text, every)
		})
	}
}

func FuzzParser(f *testing.F) {
	for _, c := range loadGolden(f) {
		f.Add(strings.Join(c.Chunks, ""), uint16(3), uint16(11))
	}
	f.Add(`{"a":"\u12`, uint16(1), uint16(5))
	f.Fuzz(func(t *testing.T, text string, a, b uint16) {
		cuts := []int{}
		if len(text) > 0 {
			x, y := int(a)%(len(text)+1), int(b)%(len(text)+1)
			cuts = append(cuts, min(x, y), max(x, y))
		}
		checkInput(t, text, cuts)
	})
}

func BenchmarkAppendSnapshot(b *testing.B) {
	doc, _ := json.Marshal(map[string]any{"path": "src/main.go", "old": strings.Repeat("func main() {}\n", 40), "new": strings.Repeat("x := 1\n", 60), "limit": 20})
	b.ReportAllocs()
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		var p Parser
		for i := 0; i < len(doc); i += 12 {
			p.Append(string(doc[i:min(i+12, len(doc))]))
			_ = p.Snapshot()
		}
	}
}
