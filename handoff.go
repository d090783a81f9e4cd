package agentcore

import "sync"

// handoff is an unbounded queue from any number of goroutines to one
// reader: put never blocks, so a producer never waits for the reader.
type handoff[T any] struct {
	mu    sync.Mutex
	items []T
	// ready holds a token when items may have been put since the last take;
	// the reader waits on it.
	ready chan struct{}
}

func newHandoff[T any]() *handoff[T] {
	return &handoff[T]{ready: make(chan struct{}, 1)}
}

// put appends v and wakes the reader.
func (q *handoff[T]) put(v T) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

// take removes and returns everything put so far, oldest first.
func (q *handoff[T]) take() []T {
	q.mu.Lock()
	defer q.mu.Unlock()
	items := q.items
	q.items = nil
	return items
}
