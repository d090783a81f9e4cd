//go:build unix

package codingtools

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadWholeFast(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	for _, size := range []int{0, 1, 64*1024 - 1, 64 * 1024, 64*1024 + 1, grepWholeMax} {
		p := filepath.Join(dir, "f")
		data := bytes.Repeat([]byte("abcdefg\n"), size/8+1)[:size]
		require.NoError(t, os.WriteFile(p, data, 0o644))
		got, big, ok := readWholeFast(ctx, LocalFS{}, p, make([]byte, 0, 16))
		require.True(t, ok)
		assert.False(t, big)
		assert.Equal(t, data, got, "size %d", size)
	}
	big := filepath.Join(dir, "big")
	require.NoError(t, os.WriteFile(big, make([]byte, grepWholeMax+1), 0o644))
	_, isBig, ok := readWholeFast(ctx, LocalFS{}, big, nil)
	assert.True(t, ok && isBig)

	// A FIFO swapped in for a walked file neither blocks nor is read; a
	// link there is not followed.
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	got, _, ok := readWholeFast(ctx, LocalFS{}, fifo, nil)
	assert.True(t, ok)
	assert.Empty(t, got)
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(big, link))
	got, isBig, _ = readWholeFast(ctx, LocalFS{}, link, nil)
	assert.False(t, isBig)
	assert.Empty(t, got)

	// Another FS is read through its own Open.
	_, _, ok = readWholeFast(ctx, &memFS{}, "/x", nil)
	assert.False(t, ok)
}
