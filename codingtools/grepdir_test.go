package codingtools

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// grepTree writes a tree of files for grep to search: lines drawn from
// words the tests' patterns look for, in either case, with CRLF endings, a
// byte order mark, invalid UTF-8, long lines, binary files (an early NUL,
// a late one), nested .gitignore files and, when big, a file over
// grepWholeMax, searched as a stream.
func grepTree(t *testing.T, big bool) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(7, 11))
	words := []string{"func", "NewReader", "newreader", "Close()", "(r *Reader)", "deadline", "DEADLINE",
		"exceeded", "\u212Aasse", "kasse", "caf\xc3\xa9", "\xff\xfe", "x", "", "TODO", "\t"}
	line := func() string {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteByte(' ')
		}
		if rng.IntN(50) == 0 {
			b.WriteString(strings.Repeat("long ", 150))
		}
		return b.String()
	}
	write := func(rel string, data []byte) {
		p := filepath.Join(root, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, data, 0o644))
	}
	text := func(lines int) []byte {
		var b strings.Builder
		if rng.IntN(10) == 0 {
			b.WriteString("\xef\xbb\xbf")
		}
		eol := "\n"
		if rng.IntN(5) == 0 {
			eol = "\r\n"
		}
		for i := range lines {
			b.WriteString(line())
			if i < lines-1 || rng.IntN(3) > 0 {
				b.WriteString(eol)
			}
		}
		return []byte(b.String())
	}
	for d := range 6 {
		for f := range 8 {
			ext := []string{".go", ".txt", ".md"}[rng.IntN(3)]
			write(fmt.Sprintf("dir%d/sub%d/file%d%s", d, f%3, f, ext), text(rng.IntN(60)))
		}
	}
	write(".git/HEAD", []byte("ref: refs/heads/main\n"))
	write(".gitignore", []byte("*.md\n!dir1/**/*.md\n"))
	write("dir2/.gitignore", []byte("sub1/\n"))
	write("bin/early.bin", append([]byte("func NewReader\x00"), text(20)...))
	var late []byte
	for len(late) <= binarySniff {
		late = append(late, text(200)...)
		late = append(late, '\n')
	}
	late = append(late, "func NewReader\x00 deadline\n"...)
	write("bin/late.bin", append(late, text(50)...))
	write("empty.txt", nil)
	write("nl.txt", []byte("\n\n"))
	if big {
		var b []byte
		for len(b) <= grepWholeMax+1000 {
			b = append(b, text(2000)...)
		}
		write("big/huge.txt", b)
	}
	return root
}

// referenceGrep searches dir as the line-by-line grep does: one file
// after another in walk order, each streamed by grepFile.
func referenceGrep(t *testing.T, s *toolset, dir, glob string, re *regexp.Regexp, out *grepOutput) {
	ctx := context.Background()
	w, parents := s.grepWalker(ctx, dir, glob)
	w.visit = func(e walkEntry) bool {
		if e.mode.IsRegular() {
			require.NoError(t, s.grepFile(ctx, e.abs, e.rel, re, true, out))
		}
		return !out.done
	}
	require.NoError(t, w.walk(ctx, dir, parents))
}

// outputOf is what a grepOutput gives the model.
func outputOf(o *grepOutput) string {
	return fmt.Sprintf("%q count=%d bytes=%d matches=%d hit=%v reached=%v cut=%v",
		o.lines, o.count, o.bytes, o.matches, o.limitHit, o.limitReached, o.linesTruncated)
}

// TestGrepSameAsLineByLine searches a generated tree, on the disk and in
// memory, with many patterns, contexts and limits, and compares every
// result with the line-by-line search's.
func TestGrepSameAsLineByLine(t *testing.T) {
	root := grepTree(t, false)
	const memRoot = "/mem/tree"
	backends := []struct {
		name     string
		dir      string
		fs       FS
		patterns int // how many of patterns
	}{
		{"disk", root, LocalFS{}, 100},
		{"memory", memRoot, memCorpus(t, root, memRoot), 4},
	}
	patterns := []struct {
		expr       string
		ignoreCase bool
		glob       string
	}{
		{"func NewReader", false, ""},
		{`func \(\w+ \*\w+\) Close\(\)`, false, ""},
		{`\(r \*Reader\) Close\(\)`, false, ""},
		{"deadline exceeded", true, "*.go"},
		{"kasse", true, ""},
		{"NewReader", false, "!*.txt"},
		{`caf.`, false, ""},
		{`\x{FFFD}`, false, ""},
		{`^$`, false, ""},
		{`TODO\r$`, false, ""},
		{`long`, false, "dir1/**"},
		{"nowhere at all", false, ""},
		{`x|TODO`, false, ""},
	}
	for _, b := range backends {
		s := newToolset(b.dir, &Options{FS: b.fs})
		for _, p := range patterns[:min(b.patterns, len(patterns))] {
			expr := p.expr
			if p.ignoreCase {
				expr = "(?i)" + expr
			}
			re := regexp.MustCompile(expr)
			for _, contextLines := range []int{0, 2, maxSafeInteger} {
				for _, limit := range []int{1, 7, maxSafeInteger} {
					name := fmt.Sprintf("%s %q glob=%q context=%d limit=%d", b.name, expr, p.glob, contextLines, limit)
					want := &grepOutput{limit: limit, context: contextLines}
					referenceGrep(t, s, b.dir, p.glob, re, want)
					got := &grepOutput{limit: limit, context: contextLines}
					require.NoError(t, s.grepDir(context.Background(), b.dir, p.glob, newLineMatcher(re), got))
					require.Equal(t, outputOf(want), outputOf(got), name)
				}
			}
		}
	}
}

// TestGrepBigFileSameAsLineByLine compares the search of a tree holding
// a file too big to read whole, searched as a stream in its turn.
func TestGrepBigFileSameAsLineByLine(t *testing.T) {
	defer func(max int) { grepWholeMax = max }(grepWholeMax)
	grepWholeMax = 256 << 10
	root := grepTree(t, true)
	s := newToolset(root, nil)
	for _, expr := range []string{"func NewReader", "(?i)deadline exceeded"} {
		re := regexp.MustCompile(expr)
		for _, limit := range []int{100, maxSafeInteger} {
			want := &grepOutput{limit: limit, context: 1}
			referenceGrep(t, s, root, "", re, want)
			got := &grepOutput{limit: limit, context: 1}
			require.NoError(t, s.grepDir(context.Background(), root, "", newLineMatcher(re), got))
			require.Equal(t, outputOf(want), outputOf(got), "%s limit %d", expr, limit)
		}
	}
}

// TestGrepOneFileSameAsLineByLine compares the search of one named file
// (never binary) with the line-by-line search.
func TestGrepOneFileSameAsLineByLine(t *testing.T) {
	root := grepTree(t, false)
	s := newToolset(root, nil)
	for _, file := range []string{"bin/late.bin", "bin/early.bin", "dir0/sub0/file0.go", "nl.txt", "empty.txt"} {
		for _, expr := range []string{"NewReader", "deadline", `^`, `(?i)KASSE`} {
			re := regexp.MustCompile(expr)
			abs := filepath.Join(root, file)
			want := &grepOutput{limit: 100, context: 2}
			require.NoError(t, s.grepFile(context.Background(), abs, filepath.Base(abs), re, false, want))
			got := &grepOutput{limit: 100, context: 2}
			require.NoError(t, s.grepOne(context.Background(), abs, newLineMatcher(re), got))
			require.Equal(t, outputOf(want), outputOf(got), "%s %s", file, expr)
		}
	}
}

// countingFS counts the files opened and runs onOpen before each.
type countingFS struct {
	FS
	opens  atomic.Int64
	onOpen func(n int64)
}

func (c *countingFS) Open(ctx context.Context, p string) (io.ReadCloser, error) {
	n := c.opens.Add(1)
	if c.onOpen != nil {
		c.onOpen(n)
	}
	return c.FS.Open(ctx, p)
}

func TestGrepCancelled(t *testing.T) {
	root := grepTree(t, false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fsys := &countingFS{FS: memCorpus(t, root, "/m"), onOpen: func(n int64) {
		if n == 10 {
			cancel()
		}
	}}
	tool, ok := Tool("grep", "/m", &Options{FS: fsys})
	require.True(t, ok)
	_, err := tool.Execute(ctx, "id", []byte(`{"pattern":"nowhere at all"}`), nil)
	require.ErrorIs(t, err, errAborted)
	// The walk stopped: after the tenth open, at most one more per worker
	// (each had checked the context before it ended) and one by the
	// walker (a .gitignore file), whatever the number of cores.
	assert.LessOrEqual(t, fsys.opens.Load(), int64(11+grepWorkers()))

	_, err = tool.Execute(ctx, "id", []byte(`{"pattern":"x"}`), nil)
	require.ErrorIs(t, err, errAborted, "a call on an ended context")
}

// TestGrepStopsAtTheLimit checks that a search past its limit stops
// walking: the workers read only a window of files ahead.
func TestGrepStopsAtTheLimit(t *testing.T) {
	root := grepTree(t, false)
	fsys := &countingFS{FS: memCorpus(t, root, "/m")}
	tool, _ := Tool("grep", "/m", &Options{FS: fsys})
	res, err := tool.Execute(context.Background(), "id", []byte(`{"pattern":"x","limit":1}`), nil)
	require.NoError(t, err)
	assert.Contains(t, res.Text(), "1 matches limit reached")
	assert.Less(t, fsys.opens.Load(), int64(8*grepWorkers()+16))
}

// TestGrepPanicReachesCaller checks that a panic of the FS in one of the
// search's goroutines reaches the goroutine that called grep, where the
// agent turns it into the call's error, once every goroutine is joined;
// it must not end the process.
func TestGrepPanicReachesCaller(t *testing.T) {
	root := grepTree(t, false)
	for _, at := range []int64{1, 5, 30} {
		fsys := &countingFS{FS: memCorpus(t, root, "/m"), onOpen: func(n int64) {
			if n == at {
				panic("boom")
			}
		}}
		s := newToolset("/m", &Options{FS: fsys})
		re := regexp.MustCompile("x")
		assert.PanicsWithValue(t, "boom", func() {
			_ = s.grepDir(context.Background(), "/m", "", newLineMatcher(re), &grepOutput{limit: maxSafeInteger})
		}, "panic at open %d", at)
	}
}

// reopenPanicFS panics at the second open of a path: the stream of a big
// file, which the reporting goroutine opens.
type reopenPanicFS struct {
	FS
	mu   sync.Mutex
	seen map[string]bool
}

func (r *reopenPanicFS) Open(ctx context.Context, p string) (io.ReadCloser, error) {
	r.mu.Lock()
	again := r.seen[p]
	r.seen[p] = true
	r.mu.Unlock()
	if again {
		panic("boom")
	}
	return r.FS.Open(ctx, p)
}

func TestGrepPanicInStreamReachesCaller(t *testing.T) {
	defer func(max int) { grepWholeMax = max }(grepWholeMax)
	grepWholeMax = 64
	root := grepTree(t, false)
	fsys := &reopenPanicFS{FS: memCorpus(t, root, "/m"), seen: map[string]bool{}}
	s := newToolset("/m", &Options{FS: fsys})
	re := regexp.MustCompile("x")
	assert.PanicsWithValue(t, "boom", func() {
		_ = s.grepDir(context.Background(), "/m", "", newLineMatcher(re), &grepOutput{limit: maxSafeInteger})
	})
}

// TestGrepHitsBounded checks that a file whose every line matches, searched
// with a limit above grepMaxHits, keeps at most grepMaxHits hits in memory
// (a hit takes 24 bytes for a line of 1, and several files wait to be
// reported): it is streamed instead, with the same result.
func TestGrepHitsBounded(t *testing.T) {
	dir := t.TempDir()
	data := []byte(strings.Repeat("\n", 3*grepMaxHits))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "nl.txt"), data, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "few.txt"), []byte("a\n\nb\n"), 0o644))
	m := newLineMatcher(regexp.MustCompile(`^`))
	var scratch []byte
	res, _ := searchWhole(context.Background(), LocalFS{}, filepath.Join(dir, "nl.txt"), m, true, true, maxSafeInteger, nil, &scratch)
	assert.LessOrEqual(t, len(res.hits), grepMaxHits)
	assert.True(t, res.big, "streamed instead")
	res, _ = searchWhole(context.Background(), LocalFS{}, filepath.Join(dir, "nl.txt"), m, true, true, 10, nil, &scratch)
	assert.Len(t, res.hits, 10, "a search with a limit below the bound keeps it")

	s := newToolset(dir, nil)
	for _, limit := range []int{5, maxSafeInteger} {
		want := &grepOutput{limit: limit, context: 1}
		referenceGrep(t, s, dir, "", m.re, want)
		got := &grepOutput{limit: limit, context: 1}
		require.NoError(t, s.grepDir(context.Background(), dir, "", m, got))
		require.Equal(t, outputOf(want), outputOf(got))
		want = &grepOutput{limit: limit, context: 1}
		require.NoError(t, s.grepFile(context.Background(), filepath.Join(dir, "nl.txt"), "nl.txt", m.re, false, want))
		got = &grepOutput{limit: limit, context: 1}
		require.NoError(t, s.grepOne(context.Background(), filepath.Join(dir, "nl.txt"), m, got))
		require.Equal(t, outputOf(want), outputOf(got))
	}
}

// BenchmarkGrepStreamContext times the streamed search of a file of
// short lines with no match, with a small and a large context: the lines
// held for the leading context cost the same whatever their number.
func BenchmarkGrepStreamContext(b *testing.B) {
	dir := b.TempDir()
	p := filepath.Join(dir, "lines.txt")
	require.NoError(b, os.WriteFile(p, bytes.Repeat([]byte("x\n"), 200_000), 0o644))
	s := newToolset(dir, nil)
	re := regexp.MustCompile("y")
	for _, contextLines := range []int{10, 10_000} {
		b.Run(fmt.Sprint("context=", contextLines), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				out := &grepOutput{limit: 100, context: contextLines}
				require.NoError(b, s.grepFile(context.Background(), p, "lines.txt", re, true, out))
			}
		})
	}
}
