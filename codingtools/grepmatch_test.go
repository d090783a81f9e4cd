package codingtools

import (
	"bytes"
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRequiredLiterals(t *testing.T) {
	tests := []struct {
		expr string
		want []string // the chosen literal, "" for none; "i:" marks a folded one
	}{
		{`func NewReader`, []string{"func NewReader"}},
		{`func \(\w+ \*\w+\) Close\(\)`, []string{"func (", " *", ") Close()"}},
		{`(?i)deadline exceeded`, []string{"i:deadline exceeded"}},
		{`(?i)Kasse`, []string{"i:a", "i:e"}}, // k and s fold to non-ASCII runes
		{`(?i)é`, nil},
		{`ab{2,3}c`, []string{"abb", "c"}},
		{`^abc$`, []string{"abc"}},
		{`a(bc)+d`, []string{"a", "bc", "d"}},
		{`x(?:bc)*d`, []string{"x", "d"}},
		{`foo|bar`, []string{"foo|bar"}},
		{`TODO|FIXME|XXX`, []string{"TODO|FIXME|XXX"}},
		{`(?i)(todo|fixme):`, []string{"i:todo|i:fixme", "i::"}},
		{`foo|b*`, nil},
		{`a|b|c|d|e|f|g|h|i`, nil},
		{`(foo|bar)+x`, []string{"foo|bar", "x"}},
		{`a\x{FFFD}b`, []string{"a", "b"}},
		{`café`, []string{"café"}},
		{`(?i:ab)cd`, []string{"i:ab", "cd"}},
		{``, nil},
		{`\d+`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			m := newLineMatcher(regexp.MustCompile(tt.expr))
			var got []string
			for _, req := range requirements(mustSimplify(t, tt.expr)) {
				var alts []string
				for _, l := range req {
					s := string(l.text)
					if l.fold {
						s = "i:" + s
					}
					alts = append(alts, s)
				}
				got = append(got, strings.Join(alts, "|"))
			}
			assert.Equal(t, tt.want, got)
			assert.Equal(t, len(tt.want) > 0, len(m.lits) > 0)
		})
	}
}

func TestLiteralChoice(t *testing.T) {
	m := newLineMatcher(regexp.MustCompile(`func \(\w+ \*\w+\) Close\(\)`))
	require.Len(t, m.lits, 1)
	assert.Equal(t, ") Close()", string(m.lits[0].needle), "the piece with the rarest byte")
}

// plainHits is findHits without a prefilter: every line matched.
func plainHits(m *lineMatcher, text []byte) []hit {
	plain := &lineMatcher{re: m.re}
	var scratch []byte
	return plain.findHits(text, 1<<30, &scratch)
}

// checkPrefilter fails when the prefilter of expr loses a line of text
// that a plain scan matches.
func checkPrefilter(t *testing.T, expr string, text []byte) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return
	}
	m := newLineMatcher(re)
	var scratch []byte
	got := m.findHits(text, 1<<30, &scratch)
	assert.Equal(t, plainHits(m, text), got, "pattern %q on %q", expr, text)
}

func TestPrefilterKeepsEveryMatch(t *testing.T) {
	texts := []string{
		"deadline exceeded\nDEADLINE EXCEEDED\nDeadLine Exceeded\r\nno\n",
		"Kasse\n\u212Aasse\nka\u017Fse\nKASSE\nkasse", // Kelvin sign and long s fold to k and s
		"a\xffb\na\xef\xbf\xbdb\na\xe2\x82b\nab\n",    // invalid UTF-8 reads as U+FFFD
		"caf\xc3\xa9\nCAF\xc3\x89\ncafe\n",
		"x\n\n\nfunc (r *Reader) Close() error {\n",
		"no newline at the end",
		"",
		"\n",
	}
	exprs := []string{
		`deadline exceeded`, `(?i)deadline exceeded`, `(?i)kasse`, `(?i)KASSE`, `(?i)k`, `(?i)ss`,
		`a\x{FFFD}b`, `a.b`, `^a.b$`, `(?i)café`, `café`, `(?i)CAF`, `func \(\w+ \*\w+\) Close\(\)`,
		`^$`, ``, `\r$`, `e$`, `(?i)at the END`, `end\n`, `exceeded|Kasse|cafe`, `(?i)(ka|DEAD)line|\x{FFFD}`,
		`(?i)(deadline|close)\(?`, `a\x{FFFD}b|no`,
	}
	for _, e := range exprs {
		for _, text := range texts {
			checkPrefilter(t, e, []byte(text))
		}
	}
}

func FuzzPrefilter(f *testing.F) {
	f.Add("deadline", "DeadLine exceeded\nx\n", true)
	f.Add("kasse", "\u212Aasse\n", true)
	f.Add(`a.b`, "a\xffb\n", false)
	f.Add(`\x{FFFD}`, "\xe2\x82\n", false)
	f.Add(`(?i)ſ`, "S\ns\n", false)
	f.Add(`todo|FIXME|x+y`, "a todo\nFIXME\nxy\nXY\n", true)
	f.Fuzz(func(t *testing.T, pattern, text string, ignoreCase bool) {
		if ignoreCase {
			pattern = "(?i)" + pattern
		}
		checkPrefilter(t, pattern, []byte(text))
	})
}

// TestLiteralFinderIndex checks the rare-byte search against a plain one
// on random texts over a small alphabet, where candidates abound.
func TestLiteralFinderIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "abAB c\nC"
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return b
	}
	for range 5000 {
		needle, hay := random(1+rng.IntN(4)), random(rng.IntN(60))
		fold := rng.IntN(2) == 0
		want := bytes.Index(hay, needle)
		if fold {
			needle = bytes.ToLower(needle)
			want = bytes.Index(bytes.ToLower(hay), needle)
		}
		got := newLiteralFinder(needle, fold).index(hay)
		require.Equal(t, want, got, "needle %q in %q, fold %v", needle, hay, fold)
	}
}

func TestByteFreq(t *testing.T) {
	assert.Less(t, byteFreq('Z'), byteFreq('e'))
	assert.Less(t, byteFreq(0), byteFreq(0xC3))
	assert.Less(t, byteFreq('~'), byteFreq(0xC3))
	for i := 1; i < len(byteFreqs); i++ {
		assert.LessOrEqual(t, byteFreqs[i], byteFreqs[i-1], "byteFreqs follow commonBytes' order")
	}
	// A folded letter counts both cases: "deadline exceeded" is scanned
	// for d and D, not for its space.
	f := newLiteralFinder([]byte("deadline exceeded"), true)
	assert.Equal(t, []byte{'d', 'D'}, []byte{f.b1, f.b2})
}

func mustSimplify(t *testing.T, expr string) *syntax.Regexp {
	re, err := syntax.Parse(expr, syntax.Perl)
	require.NoError(t, err)
	return re.Simplify()
}
