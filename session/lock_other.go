//go:build !unix

package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// fileLock is a writer's hold on a session file where flock(2) is not
// available: the file <file>.lock, created exclusively. A writer that
// dies leaves it, and the next writer gets [ErrLocked] until it is
// removed.
type fileLock struct {
	path string
	f    *os.File
}

func lockFile(path string) (*fileLock, error) {
	lp := path + ".lock"
	f, err := os.OpenFile(lp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			g, _ := os.Open(lp)
			if g != nil {
				defer g.Close()
			}
			e := lockedError(lp, g)
			e.Detail = "remove it if no writer runs"
			return nil, e
		}
		return nil, fmt.Errorf("session: lock %s: %w", path, err)
	}
	_, _ = f.Write(newOwner())
	return &fileLock{path: lp, f: f}, nil
}

func (l *fileLock) release() error {
	err := l.f.Close()
	if rerr := os.Remove(l.path); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
		err = errors.Join(err, fmt.Errorf("session: unlock: %w", rerr))
	}
	return err
}
