package codingtools

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadHugeSparseFile(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "huge.bin"))
	require.NoError(t, err)
	require.NoError(t, f.Truncate(1<<30)) // 1 GB of NUL bytes, sparse: no disk used
	require.NoError(t, f.Close())

	res, err := call(t, context.Background(), AllTools(dir, nil), "read", map[string]any{"path": "huge.bin"})
	require.NoError(t, err)
	assert.Equal(t, "[Line 1 is 1024.0MB, exceeds 50.0KB limit. Use bash: sed -n '1p' huge.bin | head -c 51200]", res.Text())
	d := res.Details.(ReadDetails)
	assert.Equal(t, 1<<30, d.Truncation.TotalBytes)
	assert.True(t, d.Truncation.FirstLineExceedsLimit)
}

func TestReadBinaryFile(t *testing.T) {
	dir := t.TempDir()
	data := make([]byte, 0, 4096)
	for i := range 4096 {
		data = append(data, byte(i*7))
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.bin"), data, 0o644))
	tools := AllTools(dir, nil)
	res, err := call(t, context.Background(), tools, "read", map[string]any{"path": "b.bin"})
	require.NoError(t, err)
	assert.True(t, utf8.ValidString(res.Text()))
	assert.Contains(t, res.Text(), "\uFFFD")

	res, err = call(t, context.Background(), tools, "grep", map[string]any{"pattern": "."})
	require.NoError(t, err)
	assert.Equal(t, "No matches found", res.Text(), "a binary file met by the walk is skipped")
}

func TestBashHundredMegabytes(t *testing.T) {
	dir, tmp := t.TempDir(), t.TempDir()
	res, err := call(t, context.Background(), AllTools(dir, &Options{TempDir: tmp}), "bash",
		map[string]any{"command": "head -c 100000000 /dev/zero | tr '\\0' 'a' | fold -w 99"})
	require.NoError(t, err)
	d := res.Details.(BashDetails)
	require.NotNil(t, d.Truncation)
	assert.Equal(t, 1010102, d.Truncation.TotalLines)
	assert.LessOrEqual(t, d.Truncation.OutputBytes, DefaultMaxBytes)
	info, err := os.Stat(d.FullOutputPath)
	require.NoError(t, err)
	assert.EqualValues(t, 100000000+1010101, info.Size(), "the full output is saved")
	out := res.StructuredContent.(BashOutput)
	assert.True(t, out.Truncated)
	assert.Less(t, len(out.Output), 1024*1024+100)
	assert.True(t, strings.HasSuffix(res.Text(), "Full output: "+d.FullOutputPath+"]"))
}

func TestConfine(t *testing.T) {
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret\n"), 0o644))
	dir := t.TempDir()
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "link")))
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "file-link")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ok.txt"), []byte("fine\n"), 0o644))
	tools := AllTools(dir, &Options{Confine: true})
	ctx := context.Background()

	tests := []struct {
		name string
		tool string
		args map[string]any
	}{
		{"dot-dot", "read", map[string]any{"path": "../" + filepath.Base(outside) + "/secret.txt"}},
		{"absolute", "read", map[string]any{"path": filepath.Join(outside, "secret.txt")}},
		{"symlinked directory", "read", map[string]any{"path": "link/secret.txt"}},
		{"symlinked file", "read", map[string]any{"path": "file-link"}},
		{"write through a link", "write", map[string]any{"path": "link/new.txt", "content": "x"}},
		{"write a new directory through a link", "write", map[string]any{"path": "link/a/b/new.txt", "content": "x"}},
		{"edit", "edit", map[string]any{"path": "link/secret.txt", "edits": []Edit{{OldText: "secret", NewText: "x"}}}},
		{"ls", "ls", map[string]any{"path": ".."}},
		{"grep", "grep", map[string]any{"pattern": "secret", "path": "link"}},
		{"find", "find", map[string]any{"pattern": "*", "path": "/"}},
		{"home", "read", map[string]any{"path": "~/x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := call(t, ctx, tools, tt.tool, tt.args)
			require.ErrorIs(t, err, ErrOutsideDir)
		})
	}
	_, err := os.Stat(filepath.Join(outside, "new.txt"))
	assert.ErrorIs(t, err, os.ErrNotExist, "nothing was written outside")

	res, err := call(t, ctx, tools, "read", map[string]any{"path": "./sub/../ok.txt"})
	require.NoError(t, err)
	assert.Equal(t, "fine\n", res.Text())
	_, err = call(t, ctx, tools, "write", map[string]any{"path": "new/deep/file.txt", "content": "x"})
	require.NoError(t, err, "new directories inside are fine")
}

// hugePNG is a PNG of a few bytes whose header declares 16000×16000
// pixels, a gigabyte decoded, and whose data ends early.
func hugePNG() []byte {
	var b bytes.Buffer
	chunk := func(typ string, data []byte) {
		_ = binary.Write(&b, binary.BigEndian, uint32(len(data)))
		b.WriteString(typ)
		b.Write(data)
		_ = binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(typ), data...)))
	}
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], 16000)
	binary.BigEndian.PutUint32(ihdr[4:], 16000)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	chunk("IHDR", ihdr)
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	_, _ = w.Write(make([]byte, 1000))
	_ = w.Close()
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return b.Bytes()
}

func TestReadImageDeclaringHugeSize(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "huge.png"), hugePNG(), 0o644))
	tools := AllTools(dir, nil)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := call(t, context.Background(), tools, "read", map[string]any{"path": "huge.png"})
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	assert.Equal(t, "Read image file [image/png]", res.Text(), "too large to check: sent as it is")
	allocated := after.TotalAlloc - before.TotalAlloc
	assert.Less(t, allocated, uint64(16<<20), "a 100-byte file did not allocate its declared gigabyte")
}

// edit refuses a file too large for Node's readFile with pi's error,
// before reading any of it.
func TestEditFileOver2GiB(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "huge.txt"))
	require.NoError(t, err)
	require.NoError(t, f.Truncate(3<<30)) // sparse: no disk used
	require.NoError(t, f.Close())
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = call(t, context.Background(), AllTools(dir, nil), "edit", map[string]any{"path": "huge.txt", "edits": []Edit{{OldText: "a", NewText: "b"}}})
	runtime.ReadMemStats(&after)
	require.EqualError(t, err, "File size (3221225472) is greater than 2 GiB")
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20))
}
