//go:build unix

package session

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// fileLock is a writer's hold on a session file: an exclusive flock(2)
// on the file <file>.lock, kept through an open descriptor. The kernel
// releases it when the descriptor closes, so a writer that dies in any
// way (kill -9 included) leaves no lock behind, only an unlocked file the
// next writer takes; a live writer keeps it however long it idles.
type fileLock struct {
	path string
	f    *os.File
}

// maxLockAttempts bounds the retries of a lock whose file a releasing
// writer removed between our open and our flock.
const maxLockAttempts = 64

// lockFile takes the lock of path, or fails with a [*LockedError] when a
// live writer holds it. Of any number of racing writers exactly one
// wins.
func lockFile(path string) (*fileLock, error) {
	lp := path + ".lock"
	for range maxLockAttempts {
		f, err := os.OpenFile(lp, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			if errors.Is(err, syscall.EISDIR) {
				return nil, &LockedError{Lock: lp, Detail: "a lock directory, not a lock file: it was left by another program or an older version; remove it if no writer runs"}
			}
			return nil, fmt.Errorf("session: lock %s: %w", path, err)
		}
		if err := flock(f, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			defer f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, lockedError(lp, f)
			}
			return nil, fmt.Errorf("session: lock %s: %w", path, err)
		}
		// A releasing writer removes the file while it still holds it: if
		// the path no longer names the file we locked, ours is stale.
		held, herr := f.Stat()
		named, nerr := os.Stat(lp)
		if herr != nil || nerr != nil || !os.SameFile(held, named) {
			_ = f.Close()
			continue
		}
		if err := f.Truncate(0); err == nil {
			_, _ = f.WriteAt(newOwner(), 0)
		}
		return &fileLock{path: lp, f: f}, nil
	}
	return nil, &LockedError{Lock: lp, Detail: "the lock file kept changing"}
}

// flock applies op to f's descriptor without putting it in blocking mode.
func flock(f *os.File, op int) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) {
		for {
			ferr = syscall.Flock(int(fd), op)
			if ferr != syscall.EINTR {
				return
			}
		}
	}); err != nil {
		return err
	}
	return ferr
}

// release removes the lock file, if it is still ours, and gives the lock
// up. The file is removed while it is locked, so no writer can be
// holding another lock under the same name.
func (l *fileLock) release() error {
	var err error
	held, herr := l.f.Stat()
	named, nerr := os.Stat(l.path)
	if herr == nil && nerr == nil && os.SameFile(held, named) {
		if rerr := os.Remove(l.path); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			err = fmt.Errorf("session: unlock: %w", rerr)
		}
	}
	return errors.Join(err, l.f.Close())
}
