package codingtools

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"unicode/utf8"
)

// lineMatcher tells which lines of a buffer match a grep pattern. Lines
// are matched one at a time by re, on their text as decoded for the model
// (invalid UTF-8 read as Node reads it), without the "\n"; when the
// pattern requires one of a few literals in every match, they are
// searched for in the whole buffer first, so that only the lines holding
// one are matched.
type lineMatcher struct {
	re *regexp.Regexp
	// lits, when not empty, find the lines that may match: a line that
	// holds none of them cannot.
	lits []*literalFinder
}

// maxAlternatives is the most literals a prefilter scans for at once.
const maxAlternatives = 8

// newLineMatcher returns the matcher of re.
func newLineMatcher(re *regexp.Regexp) *lineMatcher {
	m := &lineMatcher{re: re}
	parsed, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return m
	}
	best := -1
	for _, req := range requirements(parsed.Simplify()) {
		finders, cost := req.finders()
		if best < 0 || cost < best {
			m.lits, best = finders, cost
		}
	}
	return m
}

// matchLine reports whether the line (without its "\n") matches; scratch
// holds a decoded copy of a line that is not valid UTF-8.
func (m *lineMatcher) matchLine(line []byte, scratch *[]byte) bool {
	if utf8.Valid(line) {
		return m.re.Match(line)
	}
	*scratch, _ = decodeUTF8((*scratch)[:0], line, true)
	return m.re.Match(*scratch)
}

// literal is a piece of text compared ignoring ASCII case when fold.
type literal struct {
	text []byte
	fold bool
}

// requirement is literals at least one of which every match of a pattern
// holds.
type requirement []literal

// finders returns the finders of r's literals and their cost: the sum of
// their scores, as each is a scan of its own.
func (r requirement) finders() ([]*literalFinder, int) {
	fs, cost := make([]*literalFinder, len(r)), 0
	for i, l := range r {
		fs[i] = newLiteralFinder(l.text, l.fold)
		cost += fs[i].score()
	}
	return fs, cost
}

// requirements returns what every match of re holds. Only text that
// cannot be spelled another way is taken: a case-folded piece stops at
// the letters whose fold reaches outside ASCII (k, s) and at non-ASCII
// runes, and no piece holds U+FFFD, which stands for invalid bytes in the
// decoded line. An alternation gives one requirement when each of its
// branches has one (their best literals, up to maxAlternatives); optional
// parts and classes give none.
func requirements(re *syntax.Regexp) []requirement {
	var out []requirement
	var run []byte
	runFold := false
	flush := func() {
		if len(run) > 0 {
			out = append(out, requirement{{text: run, fold: runFold}})
		}
		run = nil
	}
	for _, sub := range flattenConcat(re, nil) {
		switch sub.Op {
		case syntax.OpLiteral:
			fold := sub.Flags&syntax.FoldCase != 0
			if fold != runFold {
				flush()
				runFold = fold
			}
			for _, r := range sub.Rune {
				if !literalRune(r, fold) {
					flush()
					continue
				}
				if fold && r >= 'A' && r <= 'Z' {
					r += 'a' - 'A'
				}
				run = utf8.AppendRune(run, r)
			}
		case syntax.OpPlus:
			flush()
			out = append(out, requirements(sub.Sub[0])...)
		case syntax.OpRepeat:
			flush()
			if sub.Min >= 1 {
				out = append(out, requirements(sub.Sub[0])...)
			}
		case syntax.OpAlternate:
			flush()
			if req := alternation(sub.Sub); req != nil {
				out = append(out, req)
			}
		default:
			// An empty-width assertion, a class, an optional part: the
			// text around it is not contiguous.
			flush()
		}
	}
	flush()
	return out
}

// alternation returns the requirement of a match of one of branches: the
// cheapest requirement of each, together; nil when a branch has none or
// they hold too many literals.
func alternation(branches []*syntax.Regexp) requirement {
	var out requirement
	for _, b := range branches {
		var best requirement
		bestCost := -1
		for _, req := range requirements(b) {
			if _, cost := req.finders(); bestCost < 0 || cost < bestCost {
				best, bestCost = req, cost
			}
		}
		if best == nil || len(out)+len(best) > maxAlternatives {
			return nil
		}
		out = append(out, best...)
	}
	return out
}

// flattenConcat appends the parts of re in sequence: the items of nested
// concatenations and the contents of groups, which match in place.
func flattenConcat(re *syntax.Regexp, dst []*syntax.Regexp) []*syntax.Regexp {
	switch re.Op {
	case syntax.OpConcat:
		for _, s := range re.Sub {
			dst = flattenConcat(s, dst)
		}
		return dst
	case syntax.OpCapture:
		return flattenConcat(re.Sub[0], dst)
	}
	return append(dst, re)
}

// literalRune reports whether r can stand in a required literal: any rune
// but U+FFFD, and, folded, only ASCII runes whose case fold stays in
// ASCII.
func literalRune(r rune, fold bool) bool {
	if r == utf8.RuneError {
		return false
	}
	if !fold {
		return true
	}
	switch r {
	case 'k', 'K', 's', 'S':
		return false
	}
	return r < utf8.RuneSelf
}

// literalFinder finds a literal in a buffer by its rarest byte: a fast
// scan for that byte (both cases when folded), then a comparison around
// it.
type literalFinder struct {
	needle []byte // lower case when fold
	fold   bool
	at     int  // index in needle of the byte scanned for
	b1, b2 byte // the byte and, folded, its upper case; equal otherwise
	freq   int  // how common b1 and b2 are (byteFreq)
}

func newLiteralFinder(needle []byte, fold bool) *literalFinder {
	f := &literalFinder{needle: needle, fold: fold, freq: -1}
	for i, c := range needle {
		c2 := c
		if fold && c >= 'a' && c <= 'z' {
			c2 = c - ('a' - 'A')
		}
		r := byteFreq(c)
		if c2 != c {
			r += byteFreq(c2)
		}
		if f.freq < 0 || r < f.freq {
			f.at, f.b1, f.b2, f.freq = i, c, c2, r
		}
	}
	return f
}

// score is what scanning for f is guessed to cost, lower is better: the
// stops at its scanned byte, times a penalty for a needle under 4 bytes,
// many of whose occurrences are in lines the pattern then does not match.
func (f *literalFinder) score() int { return f.freq * (5 - min(len(f.needle), 4)) }

// index returns the offset of the first occurrence of the needle in hay,
// or -1.
func (f *literalFinder) index(hay []byte) int {
	n, at := len(f.needle), f.at
	if n == 0 {
		return 0
	}
	from := at // the scanned byte's earliest possible offset
	if !f.fold || f.b1 == f.b2 {
		for from < len(hay) {
			i := bytes.IndexByte(hay[from:], f.b1)
			if i < 0 {
				return -1
			}
			start := from + i - at
			if start+n > len(hay) {
				return -1
			}
			if f.equal(hay[start : start+n]) {
				return start
			}
			from += i + 1
		}
		return -1
	}
	// Folded letter: the next occurrence of either case.
	next1, next2 := indexFrom(hay, from, f.b1), indexFrom(hay, from, f.b2)
	for {
		p := next1
		if p < 0 || next2 >= 0 && next2 < p {
			p = next2
		}
		if p < 0 {
			return -1
		}
		start := p - at
		if start+n > len(hay) {
			return -1
		}
		if f.equal(hay[start : start+n]) {
			return start
		}
		if p == next1 {
			next1 = indexFrom(hay, p+1, f.b1)
		} else {
			next2 = indexFrom(hay, p+1, f.b2)
		}
	}
}

// indexFrom is the offset of the first c in hay at or after from, or -1.
func indexFrom(hay []byte, from int, c byte) int {
	if from >= len(hay) {
		return -1
	}
	if i := bytes.IndexByte(hay[from:], c); i >= 0 {
		return from + i
	}
	return -1
}

// equal reports whether s (as long as the needle) is the needle.
func (f *literalFinder) equal(s []byte) bool {
	if !f.fold {
		return bytes.Equal(s, f.needle)
	}
	for i, c := range s {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != f.needle[i] {
			return false
		}
	}
	return true
}

// commonBytes are the printable ASCII bytes, CR, LF and tab, the most
// common first, and byteFreqs how many of each there are in 100,000 bytes,
// as counted in the .go files of Go's source tree: a guess, for source
// code, of which byte of a literal is rarest.
const commonBytes = " et\t0rn\naiso,xlcfudp.1/():mg2\"=hb_S4{}3TyE6Av\\8RICOP5Dk9wMFNL7XBV[]U*G-H!&W+z<%Y;|Kq'>jQ`ZJ#^$?@~\r"

var byteFreqs = [len(commonBytes)]int{
	14695, 5016, 4130, 4097, 3474, 3413, 3240, 3159, 2981, 2845, 2672, 2521, 2417, 2345, 1828, 1770,
	1652, 1559, 1519, 1289, 1288, 1238, 1165, 1146, 1145, 1100, 1037, 977, 961, 941, 906, 878, 780,
	761, 731, 729, 706, 704, 699, 678, 676, 663, 662, 653, 649, 578, 559, 559, 538, 531, 498, 444,
	412, 411, 404, 386, 373, 373, 371, 355, 350, 349, 332, 284, 279, 261, 261, 208, 202, 187, 184,
	164, 132, 115, 115, 105, 99, 98, 95, 92, 91, 86, 77, 72, 71, 65, 61, 54, 50, 32, 18, 14, 7, 6,
	6, 4, 4, 1,
}

// byteFreq is how many times c is guessed to occur in 100,000 bytes:
// byteFreqs for the bytes of commonBytes, a middling guess for the bytes
// of non-ASCII text (rare in Go's tree, common in other languages' text),
// 1 for control bytes.
func byteFreq(c byte) int {
	if i := bytes.IndexByte([]byte(commonBytes), c); i >= 0 {
		return byteFreqs[i]
	}
	if c >= utf8.RuneSelf {
		return 100
	}
	return 1
}
