package codingtools

import (
	"bytes"
	"context"
	"io/fs"
)

// grepWholeMax is the largest file grep reads whole into memory; a larger
// one is searched line by line as it streams in. Tests lower it.
var grepWholeMax = 4 << 20

// grepMaxHits is the most matching lines a search of a whole file keeps;
// a file with more, when more are wanted, is searched as a stream, so that
// a file of short matching lines (a hit takes 24 bytes, a line 1) cannot
// multiply the memory the buffers of the files waiting to be reported
// take.
const grepMaxHits = 1 << 14

// utf8BOM is the byte order mark ripgrep drops from a file's first line.
var utf8BOM = []byte("\xef\xbb\xbf")

// hit is a matching line of a buffer: its bounds without the "\n", and its
// number from 1.
type hit struct {
	start, end, n int
}

// fileSearch is one file searched whole: the text searched (the file less
// a byte order mark, cut before a line with a late NUL byte) and its
// matching lines.
type fileSearch struct {
	text []byte
	hits []hit
	// big says the file is to be searched as a stream: it is over
	// grepWholeMax (it was not read), or it has more than grepMaxHits
	// matching lines, more than wanted.
	big bool
}

// searchWhole reads the file at abs whole into buf and finds its matching
// lines, at most maxHits of them (more than grepMaxHits: big). An implicit file (found by walking) with a
// NUL byte in its first 64 KB is binary and gets no hits; a later NUL ends
// the search before its line, as ripgrep does. The result's text is buf's
// memory; buf is returned, grown, for reuse when there are no hits. An
// unreadable file has no hits; a read error ends the text where it
// happened. fast allows reading past the FS when it is the local disk
// (readWholeFast).
func searchWhole(ctx context.Context, fsys FS, abs string, m *lineMatcher, implicit, fast bool, maxHits int, buf []byte, scratch *[]byte) (fileSearch, []byte) {
	data, big, ok := buf[:0], false, false
	if fast {
		data, big, ok = readWholeFast(ctx, fsys, abs, data)
	}
	if !ok {
		data, big = readWhole(ctx, fsys, abs, data)
	}
	if big {
		return fileSearch{big: true}, data
	}
	text := data
	if implicit {
		if i := bytes.IndexByte(text, 0); i >= 0 {
			if i < binarySniff {
				return fileSearch{}, data
			}
			text = text[:bytes.LastIndexByte(text[:i], '\n')+1]
		}
	}
	text = bytes.TrimPrefix(text, utf8BOM)
	hits := m.findHits(text, min(maxHits, grepMaxHits+1), scratch)
	if len(hits) > grepMaxHits {
		return fileSearch{big: true}, data
	}
	return fileSearch{text: text, hits: hits}, data
}

// readWhole appends the file at abs to buf; big when it is over
// grepWholeMax (buf then holds what was read, if anything). A file that
// cannot be opened reads as empty.
func readWhole(ctx context.Context, fsys FS, abs string, buf []byte) ([]byte, bool) {
	f, err := fsys.Open(ctx, abs)
	if err != nil {
		return buf, false
	}
	defer f.Close()
	if st, ok := f.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if info, err := st.Stat(); err == nil && info.Mode().IsRegular() && info.Size() > int64(grepWholeMax) {
			return buf, true
		}
	}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if len(buf) > grepWholeMax {
			return buf, true
		}
		if err != nil { // io.EOF, or a read error: the text ends here
			return buf, false
		}
	}
}

// findHits returns the lines of text that match, at most maxHits, in
// order. With required literals, only the lines holding one are matched.
func (m *lineMatcher) findHits(text []byte, maxHits int, scratch *[]byte) []hit {
	var hits []hit
	var next []int // per literal, the offset of its next occurrence; see candidate
	if len(m.lits) > 1 {
		next = make([]int, len(m.lits))
		for i := range next {
			next[i] = -2 // not searched yet
		}
	}
	n, counted := 1, 0 // the number of the line at offset counted
	for pos := 0; pos < len(text) && len(hits) < maxHits; {
		start := pos
		if len(m.lits) > 0 {
			i := m.candidate(text, pos, next)
			if i < 0 {
				break
			}
			start = pos + bytes.LastIndexByte(text[pos:i], '\n') + 1
		}
		end := len(text)
		if i := bytes.IndexByte(text[start:], '\n'); i >= 0 {
			end = start + i
		}
		if m.matchLine(text[start:end], scratch) {
			n += bytes.Count(text[counted:start], []byte{'\n'})
			counted = start
			hits = append(hits, hit{start: start, end: end, n: n})
		}
		pos = end + 1
	}
	return hits
}

// candidate returns the offset of the first of m's literals in text at
// or after pos, or -1. With several, next keeps each one's next offset
// (-1 for none left, below pos when to be searched again), so that each
// is scanned once over text.
func (m *lineMatcher) candidate(text []byte, pos int, next []int) int {
	if len(m.lits) == 1 {
		if i := m.lits[0].index(text[pos:]); i >= 0 {
			return pos + i
		}
		return -1
	}
	best := -1
	for k, f := range m.lits {
		if next[k] == -1 {
			continue
		}
		if next[k] < pos {
			i := f.index(text[pos:])
			if i < 0 {
				next[k] = -1
				continue
			}
			next[k] = pos + i
		}
		if best < 0 || next[k] < best {
			best = next[k]
		}
	}
	return best
}

// emitHits gives out the events ripgrep prints for the hits of a file
// named name: each matching line, with out.context lines around it, each
// line once, in order.
func emitHits(out *grepOutput, name string, text []byte, hits []hit) {
	pos, n := 0, 1 // the first line not passed yet
	afterEnd := 0  // the last line of the previous hit's trailing context
	line := func() []byte {
		if i := bytes.IndexByte(text[pos:], '\n'); i >= 0 {
			return text[pos : pos+i]
		}
		return text[pos:]
	}
	context := func(until int) { // the lines before line until, as context
		for n < until && pos < len(text) && !out.done {
			l := line()
			out.event(name, n, decodeString(l), false)
			pos, n = pos+len(l)+1, n+1
		}
	}
	for _, h := range hits {
		if out.done {
			return
		}
		context(min(h.n, afterEnd+1))
		if first := h.n - out.context; n < h.n && first > n {
			// Skip to the leading context of h, walking back from it.
			b := h.start
			for k := h.n; k > first; k-- {
				b = bytes.LastIndexByte(text[:b-1], '\n') + 1
			}
			pos, n = b, first
		}
		context(h.n)
		if out.done {
			return
		}
		out.event(name, h.n, decodeString(text[h.start:h.end]), true)
		pos, n = h.end+1, h.n+1
		afterEnd = h.n + out.context
	}
	context(afterEnd + 1)
}
