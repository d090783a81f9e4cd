package session

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Lines decode independently: Open decodes a version 3 file's entry lines,
// and a context reads back its entries, on several goroutines, each call
// joining the goroutines it started before it returns. A registry's
// decoders ([Options.Registry]) are called from them.

// maxWorkers bounds the goroutines decoding lines at once.
const maxWorkers = 8

// workers is how many goroutines decode lines at once: one per processor
// Go may use, at most maxWorkers.
func workers() int { return min(runtime.GOMAXPROCS(0), maxWorkers) }

// forEach calls fn(i) for each i in [0, n): on the calling goroutine when
// n or workers() is below 2, else on up to workers() goroutines. A panic
// of fn is raised again on the calling goroutine once all have returned.
func forEach(n int, fn func(i int)) {
	w := min(workers(), n)
	if w < 2 {
		for i := range n {
			fn(i)
		}
		return
	}
	var (
		next   atomic.Int64
		wg     sync.WaitGroup
		once   sync.Once
		thrown any
	)
	for range w {
		wg.Go(func() {
			defer func() {
				if p := recover(); p != nil {
					once.Do(func() { thrown = p })
				}
			}()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				fn(i)
			}
		})
	}
	wg.Wait()
	if thrown != nil {
		panic(thrown)
	}
}

// decoded is an entry line decoded ahead of its turn by a readAhead.
type decoded struct {
	e   Entry
	b   lineBase
	err error
}

// readAhead decodes the entry lines of a file on up to workers()
// goroutines while its owner reads on, and hands them back in file order.
// Lines go in batches of batchLines or batchBytes, and at most
// 2*workers() batches are in flight: the lines held are bounded whatever
// the file's size.
type readAhead struct {
	decode func(line []byte) decoded
	work   chan *batch
	wg     sync.WaitGroup
	queue  []*batch // submitted, in file order
	cur    *batch   // being filled
	// thrown is the first panic of a decode, raised again by the owner.
	thrown atomic.Pointer[any]
}

const (
	batchLines = 64
	batchBytes = 1 << 20
)

// pendingLine is a line read and its place in the file.
type pendingLine struct {
	line []byte // trimmed, not empty
	num  int    // from 1
	off  int64
	n    int // with its newline and spaces
	last bool
}

type batch struct {
	lines []pendingLine
	bytes int
	out   []decoded
	done  chan struct{}
}

// newReadAhead starts the goroutines; stop joins them.
func newReadAhead(decode func(line []byte) decoded) *readAhead {
	r := &readAhead{decode: decode, work: make(chan *batch)}
	for range workers() {
		work := r.work
		r.wg.Go(func() { r.run(work) })
	}
	return r
}

func (r *readAhead) run(work <-chan *batch) {
	for b := range work {
		func() {
			defer close(b.done)
			defer func() {
				if p := recover(); p != nil {
					r.thrown.CompareAndSwap(nil, &p)
				}
			}()
			b.out = make([]decoded, len(b.lines))
			for i, l := range b.lines {
				b.out[i] = r.decode(l.line)
			}
		}()
	}
}

// add queues a line; it returns the batches decoded by now that the owner
// must take, in file order, when too many are in flight.
func (r *readAhead) add(l pendingLine) []*batch {
	if r.cur == nil {
		r.cur = &batch{done: make(chan struct{})}
	}
	r.cur.lines = append(r.cur.lines, l)
	r.cur.bytes += len(l.line)
	if len(r.cur.lines) < batchLines && r.cur.bytes < batchBytes {
		return nil
	}
	r.submit()
	if len(r.queue) <= 2*workers() {
		return nil
	}
	b := r.queue[0]
	r.queue = r.queue[1:]
	r.wait(b)
	return []*batch{b}
}

func (r *readAhead) submit() {
	if r.cur == nil {
		return
	}
	r.work <- r.cur
	r.queue = append(r.queue, r.cur)
	r.cur = nil
}

func (r *readAhead) wait(b *batch) {
	<-b.done
	if p := r.thrown.Load(); p != nil {
		r.stop()
		panic(*p)
	}
}

// flush returns every batch not taken yet, decoded, in file order.
func (r *readAhead) flush() []*batch {
	r.submit()
	out := r.queue
	r.queue = nil
	for _, b := range out {
		r.wait(b)
	}
	return out
}

// stop joins the goroutines; batches not taken are dropped.
func (r *readAhead) stop() {
	if r.work != nil {
		close(r.work)
		r.work = nil
	}
	r.wg.Wait()
}
