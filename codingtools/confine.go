package codingtools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
)

// Confiner is implemented by an [FS] that can hold [Options].Confine
// itself, resolving every path beneath a directory with no window between
// a check and its use. [LocalFS] implements it with [os.Root].
type Confiner interface {
	// Confine returns an FS whose methods fail with an error wrapping
	// [ErrOutsideDir] for any path that is not below dir, or whose
	// resolution (a "..", a symbolic link, a link swapped during the call)
	// would leave dir. Its paths are absolute and clean, as [FS]'s.
	Confine(dir string) FS
}

// ErrSpecialFile is the error of opening a FIFO, a socket or a device
// with [LocalFS]: the tools read and write regular files only, so a FIFO
// with no writer cannot block a call and /dev/zero cannot feed one
// forever.
var ErrSpecialFile = errors.New("codingtools: not a regular file")

// ErrHardLink is the error of opening, under [Options].Confine, a regular
// file with more than one hard link: its other names may be outside the
// directory, and nothing on the file says where. It wraps
// [ErrOutsideDir].
var ErrHardLink = fmt.Errorf("%w: the file has more than one hard link", ErrOutsideDir)

// Confine returns the FS of the local disk confined to dir with
// [os.Root]: each path is opened one component at a time relative to the
// directory (openat with O_NOFOLLOW, links read and resolved by hand), so
// a dangling link, a link swapped between a check and the open, or one
// created during a call cannot lead outside. Links inside dir are
// followed; absolute links are refused even when they point inside. A
// regular file with more than one hard link is refused ([ErrHardLink]).
// The directory is opened at the first call and stays open.
func (LocalFS) Confine(dir string) FS { return &rootFS{dir: absDir(dir)} }

// rootFS is LocalFS confined to dir.
type rootFS struct {
	dir  string
	mu   sync.Mutex
	root *os.Root
}

var _ interface {
	FS
	RealPather
} = (*rootFS)(nil)

// open returns the root, opening it the first time it can.
func (r *rootFS) open() (*os.Root, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.root == nil {
		root, err := os.OpenRoot(r.dir)
		if err != nil {
			return nil, err
		}
		r.root = root
	}
	return r.root, nil
}

// rel returns the root and path relative to it, or ErrOutsideDir.
func (r *rootFS) rel(path string) (*os.Root, string, error) {
	if !within(r.dir, path) {
		return nil, "", fmt.Errorf("%w: %s", ErrOutsideDir, path)
	}
	root, err := r.open()
	if err != nil {
		return nil, "", err
	}
	rel, err := filepath.Rel(r.dir, path)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %s", ErrOutsideDir, path)
	}
	return root, rel, nil
}

// escaped turns os.Root's refusal into ErrOutsideDir.
func escaped(err error, path string) error {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if e.Error() == "path escapes from parent" {
			return fmt.Errorf("%w: %s", ErrOutsideDir, path)
		}
	}
	return err
}

func (r *rootFS) Stat(_ context.Context, path string) (fs.FileInfo, error) {
	root, rel, err := r.rel(path)
	if err != nil {
		return nil, err
	}
	info, err := root.Stat(rel)
	return info, escaped(err, path)
}

func (r *rootFS) ReadDir(_ context.Context, path string) ([]fs.DirEntry, error) {
	root, rel, err := r.rel(path)
	if err != nil {
		return nil, err
	}
	f, err := root.Open(rel)
	if err != nil {
		return nil, escaped(err, path)
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	return entries, nil
}

func (r *rootFS) Open(_ context.Context, path string) (io.ReadCloser, error) {
	root, rel, err := r.rel(path)
	if err != nil {
		return nil, err
	}
	f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, escaped(err, path)
	}
	if err := checkOpened(f, true); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func (r *rootFS) WriteFile(_ context.Context, path string, data []byte) error {
	root, rel, err := r.rel(path)
	if err != nil {
		return err
	}
	// Not O_TRUNC: the file is checked before anything of it changes.
	f, err := root.OpenFile(rel, os.O_WRONLY|os.O_CREATE|syscall.O_NONBLOCK, 0o666)
	if err != nil {
		return escaped(err, path)
	}
	return writeChecked(f, data, true)
}

func (r *rootFS) MkdirAll(_ context.Context, path string) error {
	root, rel, err := r.rel(path)
	if err != nil {
		return err
	}
	return escaped(root.MkdirAll(rel, 0o777), path)
}

// RealPath is [filepath.EvalSymlinks]; it only keys the edit queue, the
// confinement does not depend on it.
func (r *rootFS) RealPath(_ context.Context, path string) (string, error) {
	return filepath.EvalSymlinks(path)
}

// checkOpened refuses an opened file that is not a regular file or a
// directory, and, when confined, a regular file with several links.
func checkOpened(f *os.File, confined bool) error {
	info, err := f.Stat()
	if err != nil {
		return err
	}
	mode := info.Mode()
	if !mode.IsRegular() && !mode.IsDir() {
		return fmt.Errorf("%w: %s", ErrSpecialFile, f.Name())
	}
	if confined && mode.IsRegular() {
		if st, ok := info.Sys().(*syscall.Stat_t); ok && st.Nlink > 1 {
			return fmt.Errorf("%w: %s", ErrHardLink, f.Name())
		}
	}
	return nil
}

// writeChecked replaces the content of f, opened for writing without
// O_TRUNC, once checkOpened accepts it, and closes f.
func writeChecked(f *os.File, data []byte, confined bool) error {
	if err := checkOpened(f, confined); err != nil {
		f.Close()
		return err
	}
	if err := f.Truncate(0); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// aboveFS is the FS of the .git and .gitignore look-ups of a confined
// tool set: below dir it is the confined FS, above dir the unconfined one,
// since ripgrep and fd obey the ignore files of the directories above a
// search. Those files decide what is skipped; they are never shown.
type aboveFS struct {
	dir          string
	below, above FS
}

func (a *aboveFS) pick(path string) FS {
	if within(a.dir, path) {
		return a.below
	}
	return a.above
}

func (a *aboveFS) Stat(ctx context.Context, path string) (fs.FileInfo, error) {
	return a.pick(path).Stat(ctx, path)
}

func (a *aboveFS) ReadDir(ctx context.Context, path string) ([]fs.DirEntry, error) {
	return a.pick(path).ReadDir(ctx, path)
}

func (a *aboveFS) Open(ctx context.Context, path string) (io.ReadCloser, error) {
	return a.pick(path).Open(ctx, path)
}

func (a *aboveFS) WriteFile(context.Context, string, []byte) error { return errors.ErrUnsupported }

func (a *aboveFS) MkdirAll(context.Context, string) error { return errors.ErrUnsupported }
