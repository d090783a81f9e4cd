package session

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeLarge writes a version 3 session of about mb megabytes: a model
// change, messages of about 8 KB alternating user and assistant, a branch
// left half-way, and near the end a compaction keeping its last messages.
// It returns the file's path and size.
func writeLarge(t testing.TB, mb int) (string, int64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "big.jsonl")
	f, err := os.Create(path)
	require.NoError(t, err)
	w := bufio.NewWriterSize(f, 1<<20)
	filler := strings.Repeat("lorem ipsum dolor sit amet ", 300) // ~8 KB
	n := mb * (1 << 20) / (len(filler) + 300)
	ts := func(i int) string { return fmt.Sprintf("2025-01-01T10:%02d:%02d.%03dZ", i/60000%60, i/1000%60, i%1000) }
	fmt.Fprint(w, `{"type":"session","version":3,"id":"big","timestamp":"2025-01-01T10:00:00.000Z","cwd":"/w"}`+"\n")
	fmt.Fprintf(w, `{"type":"model_change","id":"m0","parentId":null,"timestamp":%q,"provider":"p","modelId":"first"}`+"\n", ts(0))
	parent := "m0"
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("e%07d", i)
		switch {
		case i == n-8:
			fmt.Fprintf(w, `{"type":"compaction","id":%q,"parentId":%q,"timestamp":%q,"summary":"all before","firstKeptEntryId":"e%07d","tokensBefore":%d}`+"\n",
				id, parent, ts(i), n-12, i*2000)
		case i%2 == 1:
			fmt.Fprintf(w, `{"type":"message","id":%q,"parentId":%q,"timestamp":%q,"message":{"role":"user","content":"%d %s","timestamp":%d}}`+"\n",
				id, parent, ts(i), i, filler, i)
		default:
			fmt.Fprintf(w, `{"type":"message","id":%q,"parentId":%q,"timestamp":%q,"message":{"role":"assistant","content":[{"type":"text","text":"%d %s"}],"api":"a","provider":"p","model":"m%d","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":%d}}`+"\n",
				id, parent, ts(i), i, filler, i%3, i)
		}
		if i == n/2 { // a branch left: its entry follows the one before
			fmt.Fprintf(w, `{"type":"message","id":"left","parentId":%q,"timestamp":%q,"message":{"role":"user","content":"left","timestamp":%d}}`+"\n",
				parent, ts(i), i)
		}
		parent = id
	}
	require.NoError(t, w.Flush())
	info, err := f.Stat()
	require.NoError(t, err)
	require.NoError(t, f.Close())
	return path, info.Size()
}

// readEager decodes every entry of a file written by writeLarge, as the
// reference the lazy session must equal.
func readEager(t testing.TB, path string) []Entry {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []Entry
	for _, line := range bytes.Split(data, []byte("\n"))[1:] {
		if len(line) == 0 {
			continue
		}
		e, _, err := decodeEntry(line, nil)
		require.NoError(t, err)
		out = append(out, e)
	}
	return out
}

func heapAlloc() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestOpenLargeSessionLazily checks the memory contract: after Open the
// heap holds a small fraction of the file, a context reads back only the
// entries after the branch's latest compaction, and what it builds equals
// the context of the fully decoded file. SESSION_LAZY_MB sets the file's
// size (8 MB by default; 200 makes the case of the issue).
func TestOpenLargeSessionLazily(t *testing.T) {
	mb := 8
	if v := os.Getenv("SESSION_LAZY_MB"); v != "" {
		var err error
		mb, err = strconv.Atoi(v)
		require.NoError(t, err)
	}
	path, size := writeLarge(t, mb)

	before := heapAlloc()
	s, err := Open(path, &Options{ReadOnly: true})
	require.NoError(t, err)
	defer s.Close()
	grown := int64(heapAlloc()) - int64(before)
	t.Logf("file %d bytes, %d entries; heap after Open +%d bytes (%.1f%% of the file)",
		size, len(s.t.slots), grown, 100*float64(grown)/float64(size))
	assert.Less(t, grown, size/10, "the heap after Open holds a small fraction of the file")

	ctx := s.Context()
	read := 0
	for _, sl := range s.t.slots {
		if sl.n > 0 && sl.entry != nil {
			read++
		}
	}
	assert.Equal(t, 13, read, "a context reads back the compaction and the entries it keeps")
	require.NotNil(t, ctx.Model)

	eager := readEager(t, path)
	leaf := s.Leaf()
	assert.Equal(t, BuildContext(eager, leaf), ctx)
	assert.Equal(t, newTree(eager).path(leaf), s.Path(""))
	assert.Equal(t, eager, s.Entries(), "every entry reads back, through the bounded cache")
	assert.LessOrEqual(t, s.t.src.used, cacheBytes, "the cache keeps its bound")
	assert.NoError(t, s.Err())
}

func TestLazyReadsAfterClose(t *testing.T) {
	path := writeFile(t, header+line1+line2)
	s, err := Open(path, nil)
	require.NoError(t, err)
	want := readEager(t, path)
	require.NoError(t, s.Close())
	assert.Equal(t, want, s.Entries(), "a closed session reads its file again")
	assert.Equal(t, BuildContext(want, "a2"), s.Context())
	assert.NoError(t, s.Err())
}

func TestLazyFileChanged(t *testing.T) {
	tests := []struct {
		name   string
		change func(path string) error
	}{
		{"truncated", func(path string) error { return os.Truncate(path, int64(len(header))) }},
		{"rewritten", func(path string) error {
			return os.WriteFile(path, []byte(header+strings.ReplaceAll(line1+line2, `"a`, `"b`)), 0o644)
		}},
		{"removed after close", os.Remove},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, header+line1+line2)
			s, err := Open(path, &Options{ReadOnly: true})
			require.NoError(t, err)
			require.NoError(t, s.Close()) // reads then open the file anew
			require.NoError(t, tt.change(path))

			assert.Empty(t, s.Context().Messages, "an entry not read back is no message")
			e, ok := s.Entry("a2").(*UnknownEntry)
			require.True(t, ok, "got %T", s.Entry("a2"))
			assert.Equal(t, "message", e.TypeName)
			assert.Equal(t, "a1", e.ParentID)
			assert.ErrorIs(t, s.Err(), ErrChanged)
			assert.Len(t, s.Path(""), 2, "the tree is whole")
		})
	}
}
