package codingtools

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/require"
)

// memFS is an FS in memory: the test backend that is not the local disk.
// Paths are absolute; the map holds them without the leading "/".
type memFS struct {
	mu sync.Mutex
	m  fstest.MapFS
}

var _ FS = (*memFS)(nil)

func key(p string) string {
	if p == "/" {
		return "."
	}
	return strings.TrimPrefix(p, "/")
}

func (f *memFS) Stat(_ context.Context, p string) (fs.FileInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return fs.Stat(f.m, key(p))
}

func (f *memFS) ReadDir(_ context.Context, p string) ([]fs.DirEntry, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return fs.ReadDir(f.m, key(p))
}

func (f *memFS) Open(_ context.Context, p string) (io.ReadCloser, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	file, ok := f.m[key(p)]
	if !ok || file.Mode.IsDir() {
		if _, err := fs.Stat(f.m, key(p)); err != nil {
			return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
		}
		return io.NopCloser(errReader{}), nil
	}
	return io.NopCloser(bytes.NewReader(bytes.Clone(file.Data))), nil
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, fmt.Errorf("read: %w", errIsDir) }

func (f *memFS) WriteFile(_ context.Context, p string, data []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.m[key(p)] = &fstest.MapFile{Data: bytes.Clone(data), Mode: 0o644, ModTime: time.Unix(0, 0)}
	return nil
}

func (f *memFS) MkdirAll(_ context.Context, p string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	var missing []string
	for d := key(p); d != "." && d != ""; d = path.Dir(d) {
		if file, ok := f.m[d]; ok {
			switch {
			case file.Mode.IsDir():
			case d == key(p):
				return &fs.PathError{Op: "mkdir", Path: p, Err: fs.ErrExist}
			default:
				return &fs.PathError{Op: "mkdir", Path: p, Err: syscall.ENOTDIR}
			}
			continue
		}
		missing = append(missing, d)
	}
	for _, d := range missing {
		f.m[d] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
	}
	return nil
}

// memCorpus loads a prepared corpus on disk into a memFS under root.
func memCorpus(t *testing.T, disk, root string) *memFS {
	t.Helper()
	m := fstest.MapFS{}
	err := filepath.WalkDir(disk, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(disk, p)
		k := key(path.Join(root, filepath.ToSlash(rel)))
		if d.IsDir() {
			m[k] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
			return nil
		}
		data, err := os.ReadFile(p)
		m[k] = &fstest.MapFile{Data: data, Mode: 0o644}
		return err
	})
	require.NoError(t, err)
	return &memFS{m: m}
}
