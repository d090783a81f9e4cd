package session

// LockPath takes the lock a writer of the session file at path takes
// ([Open], [Session.Close]): the exclusive lock on the file <path>.lock,
// with the same guarantees (see the package doc's Safety section). Of
// callers racing for one path exactly one gets the lock; the others get
// a [*LockedError] ([ErrLocked]). The directory of path must exist.
//
// It lets a program hold a lock of its own beside its session files, for
// a name it makes from something else than a file, such as a
// conversation whose file may not exist yet. unlock gives the lock up
// and removes the lock file while it is still this lock's; it is to be
// called once.
func LockPath(path string) (unlock func() error, err error) {
	l, err := lockFile(path)
	if err != nil {
		return nil, err
	}
	return l.release, nil
}
