package codingtools

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bigFile writes a file of about size bytes of 100-byte lines, with a
// first line to edit.
func bigFile(t testing.TB, dir string, size int) string {
	t.Helper()
	p := filepath.Join(dir, "big.txt")
	line := strings.Repeat("x", 99) + "\n"
	require.NoError(t, os.WriteFile(p, []byte("start here\n"+strings.Repeat(line, size/100)+"end\n"), 0o644))
	return p
}

func TestEditLargeFileMemory(t *testing.T) {
	const size = 20 << 20
	dir := t.TempDir()
	bigFile(t, dir, size)
	tools := AllTools(dir, nil)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := call(t, context.Background(), tools, "edit", map[string]any{"path": "big.txt", "edits": []Edit{{OldText: "start here", NewText: "begin"}}})
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	// The old text and the new: no copies of either, no normalized text.
	allocated := after.TotalAlloc - before.TotalAlloc
	assert.Less(t, allocated, uint64(2.2*size), "allocated %d bytes for a %d-byte file", allocated, size)
}

func BenchmarkEditLargeFile(b *testing.B) {
	dir := b.TempDir()
	bigFile(b, dir, 20<<20)
	tools := AllTools(dir, nil)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		from, to := "start here", "begin"
		if i%2 == 1 {
			from, to = to, from
		}
		if _, err := call(b, context.Background(), tools, "edit", map[string]any{"path": "big.txt", "edits": []Edit{{OldText: from, NewText: to}}}); err != nil {
			b.Fatal(err)
		}
	}
}

func FuzzFuzzyNormal(f *testing.F) {
	for _, s := range []string{"", "a", "a \n", "a\n", "\n\n", "x\u00a0", "\u2019", "a\t\nb", "a\n ", "\u3000\n", "é\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		assert.Equal(t, normalizeForFuzzyMatch(s) == s, fuzzyNormal(s), "%q", s)
	})
}
