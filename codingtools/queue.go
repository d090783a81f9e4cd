package codingtools

import (
	"context"
	"sync"
)

// mutations serializes the writes and edits of one file, across every
// tool set of the process, as pi's file mutation queue does; different
// files go on in parallel.
var mutations = &mutationQueue{locks: map[string]*fileLock{}}

type mutationQueue struct {
	mu    sync.Mutex
	locks map[string]*fileLock
}

// fileLock is a lock with waiters counted, so that it is dropped from the
// map when nobody holds or waits for it.
type fileLock struct {
	ch    chan struct{} // holds a token while the lock is held
	users int
}

// do runs fn holding the lock of key; it gives up waiting when ctx ends.
func (q *mutationQueue) do(ctx context.Context, key string, fn func() error) error {
	q.mu.Lock()
	l := q.locks[key]
	if l == nil {
		l = &fileLock{ch: make(chan struct{}, 1)}
		q.locks[key] = l
	}
	l.users++
	q.mu.Unlock()
	defer func() {
		q.mu.Lock()
		if l.users--; l.users == 0 {
			delete(q.locks, key)
		}
		q.mu.Unlock()
	}()
	select {
	case l.ch <- struct{}{}:
	case <-ctx.Done():
		return errAborted
	}
	defer func() { <-l.ch }()
	return fn()
}

// mutationKey is the queue key of abs: its real path when the FS resolves
// links, so two names of one file share a queue.
func (s *toolset) mutationKey(ctx context.Context, abs string) string {
	if rp, ok := s.fs.(RealPather); ok {
		if real, err := rp.RealPath(ctx, abs); err == nil {
			return real
		}
	}
	return abs
}
