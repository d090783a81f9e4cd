package session

import (
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLineOverTheLimit: a line longer than MaxLineBytes is reported with
// its number and left out, without being held in memory; the lines around
// it are kept and appends go on.
func TestLineOverTheLimit(t *testing.T) {
	long := `{"type":"message","id":"big","parentId":"a1","timestamp":"2025-01-01T10:00:02.000Z","message":{"role":"user","content":"` +
		strings.Repeat("x", 20<<20) + `","timestamp":2}}` + "\n"
	path := writeFile(t, header+line1+long+line2)
	var bad []*LineError
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s, err := Open(path, &Options{MaxLineBytes: 1 << 20, OnBadLine: func(e *LineError) error { bad = append(bad, e); return nil }})
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	defer s.Close()
	require.Len(t, bad, 1)
	assert.Equal(t, 3, bad[0].Line)
	assert.ErrorIs(t, bad[0], ErrLineTooLong)
	assert.ErrorIs(t, bad[0], ErrBadLine)
	assert.Len(t, s.Entries(), 2, "the lines around it are kept")
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(8<<20), "the 20 MB line is never held")
	_, err = s.AppendMessage(user("after"))
	require.NoError(t, err)
	require.NoError(t, s.Close())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, strings.Contains(string(data), long), "the line stays in the file")

	// The default limit takes the line.
	s2, err := Open(path, &Options{ReadOnly: true})
	require.NoError(t, err)
	assert.Len(t, s2.Entries(), 4)
}

// TestLineOverTheLimitInAnOldVersion: a file that must be migrated (and
// so rewritten) with a line over the limit is refused, not rewritten
// without the line.
func TestLineOverTheLimitInAnOldVersion(t *testing.T) {
	v1 := `{"type":"session","id":"s1","timestamp":"2025-01-01T10:00:00.000Z","cwd":"/w"}` + "\n"
	msg := `{"type":"message","timestamp":"2025-01-01T10:00:01.000Z","message":{"role":"user","content":"` + strings.Repeat("x", 2<<20) + `","timestamp":1}}` + "\n"
	path := writeFile(t, v1+msg)
	_, err := Open(path, &Options{MaxLineBytes: 1 << 20})
	require.ErrorIs(t, err, ErrLineTooLong)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, v1+msg, string(data), "the file is unchanged")
}
