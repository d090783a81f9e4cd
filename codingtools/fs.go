package codingtools

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// FS is the file system the tools read and write, as pi's per-tool
// *Operations are: implement it to run the tools against a sandbox, a
// container or a remote machine. Paths are absolute and clean, in the
// form [ResolvePath] gives. Methods are called from the goroutine running
// a tool call, or, for grep, from the goroutines it walks and reads on
// (joined before the call returns; a panic there is raised again on the
// call's goroutine); concurrently, for parallel calls and within one
// grep; ctx is the call's or one derived from it. Errors
// should wrap [fs.ErrNotExist], [fs.ErrPermission] and the like, which the
// tools report in pi's words.
type FS interface {
	// Stat describes the file at path, following symbolic links.
	Stat(ctx context.Context, path string) (fs.FileInfo, error)
	// ReadDir lists the directory at path; the entries' types do not follow
	// links. The order does not matter: the tools sort.
	ReadDir(ctx context.Context, path string) ([]fs.DirEntry, error)
	// Open opens the file at path for reading; the caller closes it.
	Open(ctx context.Context, path string) (io.ReadCloser, error)
	// WriteFile creates or replaces the file at path with data; its parent
	// exists. It must not modify data, even for a while, nor keep it after
	// it returns.
	WriteFile(ctx context.Context, path string, data []byte) error
	// MkdirAll creates the directory at path and its missing parents.
	MkdirAll(ctx context.Context, path string) error
}

// RealPather is implemented by an [FS] that can resolve symbolic links;
// [Options].Confine uses it to keep links from leading out of the working
// directory, and the edit queue to tell two names of one file apart.
type RealPather interface {
	// RealPath returns path with every link resolved; an error when path
	// does not exist.
	RealPath(ctx context.Context, path string) (string, error)
}

// LocalFS is the [FS] of the local disk. Its zero value is ready to use.
type LocalFS struct{}

var _ interface {
	FS
	RealPather
	Confiner
} = LocalFS{}

// Stat is [os.Stat].
func (LocalFS) Stat(_ context.Context, path string) (fs.FileInfo, error) { return os.Stat(path) }

// ReadDir is [os.ReadDir].
func (LocalFS) ReadDir(_ context.Context, path string) ([]fs.DirEntry, error) {
	return os.ReadDir(path)
}

// Open is [os.Open] for a regular file or a directory; any other file
// fails with [ErrSpecialFile] without blocking (a FIFO is opened
// non-blocking, then refused).
func (LocalFS) Open(_ context.Context, path string) (io.ReadCloser, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if err := checkOpened(f, false); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// WriteFile replaces the regular file at path with data, creating it with
// mode 0666 before the umask, as Node does; any other file fails with
// [ErrSpecialFile].
func (LocalFS) WriteFile(_ context.Context, path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|syscall.O_NONBLOCK, 0o666)
	if err != nil {
		return err
	}
	return writeChecked(f, data, false)
}

// MkdirAll is [os.MkdirAll] with mode 0777 before the umask.
func (LocalFS) MkdirAll(_ context.Context, path string) error { return os.MkdirAll(path, 0o777) }

// RealPath is [filepath.EvalSymlinks].
func (LocalFS) RealPath(_ context.Context, path string) (string, error) {
	return filepath.EvalSymlinks(path)
}

// errnoCodes are the Node error codes and texts pi's messages carry.
var errnoCodes = []struct {
	target error
	errno  syscall.Errno
	code   string
	text   string
}{
	{fs.ErrNotExist, syscall.ENOENT, "ENOENT", "no such file or directory"},
	{fs.ErrPermission, syscall.EACCES, "EACCES", "permission denied"},
	{nil, syscall.EISDIR, "EISDIR", "illegal operation on a directory"},
	{nil, syscall.ENOTDIR, "ENOTDIR", "not a directory"},
	{fs.ErrExist, syscall.EEXIST, "EEXIST", "file already exists"},
}

// errorCode returns the Node error code and text of err, or "" when it has
// none of the known ones.
func errorCode(err error) (code, text string) {
	var errno syscall.Errno
	hasErrno := errors.As(err, &errno)
	for _, c := range errnoCodes {
		if (hasErrno && errno == c.errno) || (c.target != nil && errors.Is(err, c.target)) {
			return c.code, c.text
		}
	}
	return "", ""
}

// nodeError is err in Node's words, "ENOENT: no such file or directory,
// access '/p'", which is what pi's model sees; other errors keep their
// text.
type nodeError struct {
	err     error
	syscall string
	path    string
}

func (e *nodeError) Error() string {
	code, text := errorCode(e.err)
	if code == "" {
		return e.err.Error()
	}
	if e.path == "" {
		return code + ": " + text + ", " + e.syscall
	}
	return code + ": " + text + ", " + e.syscall + " '" + e.path + "'"
}

func (e *nodeError) Unwrap() error { return e.err }

// errIsDir is the error of a file operation on a directory.
var errIsDir = syscall.EISDIR
