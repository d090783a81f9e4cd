package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// ErrLocked is returned when another writer holds a session file's lock.
var ErrLocked = errors.New("session: locked by another writer")

// fileLock is a writer's hold on a session file: the directory
// <file>.lock, the lock file proper-lockfile makes (pi's lock for its
// settings and credentials). Making a directory is atomic, so of two
// writers one gets it and the other [ErrLocked].
type fileLock struct {
	dir string
}

// lockFile takes the lock of path. A lock left by a writer that has not
// touched it for stale (its directory's modification time) is taken
// over; zero stale never takes one over.
func lockFile(path string, stale time.Duration, now func() time.Time) (*fileLock, error) {
	dir := path + ".lock"
	for attempt := 0; ; attempt++ {
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			return &fileLock{dir: dir}, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("session: lock %s: %w", path, err)
		}
		if stale <= 0 || attempt > 0 {
			return nil, fmt.Errorf("%w: %s", ErrLocked, dir)
		}
		info, serr := os.Stat(dir)
		if serr != nil || now().Sub(info.ModTime()) < stale {
			return nil, fmt.Errorf("%w: %s", ErrLocked, dir)
		}
		if rerr := os.Remove(dir); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w: %s: %v", ErrLocked, dir, rerr)
		}
	}
}

// touch marks the lock as in use now.
func (l *fileLock) touch(now time.Time) { _ = os.Chtimes(l.dir, now, now) }

// release gives the lock up.
func (l *fileLock) release() error {
	if err := os.Remove(l.dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("session: unlock: %w", err)
	}
	return nil
}
