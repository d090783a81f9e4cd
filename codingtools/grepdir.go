package codingtools

import (
	"context"
	"runtime"
	"strings"
	"sync"
)

// grepBufs holds the buffers files are read into, reused across files and
// calls.
var grepBufs = sync.Pool{New: func() any { b := make([]byte, 0, 64*1024); return &b }}

// grepJob is one file of a directory search: searched by any worker,
// reported in walk order.
type grepJob struct {
	abs, rel string
	res      fileSearch
	buf      *[]byte // holds res.text; back to grepBufs once reported
	done     chan struct{}
}

// grepWalker returns the walker of a search of dir and the .gitignore
// files that apply above it: the glob decides before the .gitignore files,
// which apply inside a git repository only. Its visit is left to set.
func (s *toolset) grepWalker(ctx context.Context, dir, glob string) (*walker, ignoreStack) {
	useIgnore := repoRoot(ctx, s.ancestors, dir) != ""
	w := &walker{fs: s.fs, useIgnore: useIgnore}
	if glob != "" {
		glob = stripDotSlash(glob)
		rules := parseIgnore(dir, strings.NewReader(glob))
		whitelist := !strings.HasPrefix(glob, "!")
		w.override = func(e walkEntry) int {
			switch rules.match(e.abs, e.isDir) {
			case 1:
				return -1
			case -1:
				return 1
			}
			if whitelist && !e.isDir {
				return 1
			}
			return 0
		}
	}
	var parents ignoreStack
	if useIgnore {
		parents = parentIgnores(ctx, s.ancestors, dir, true)
	}
	return w, parents
}

// grepWorkers is how many files a directory search reads and searches at
// once: one per core the process may use.
func grepWorkers() int { return max(1, runtime.GOMAXPROCS(0)) }

// grepDir searches the files below dir as ripgrep does with --hidden and
// --sort=path: .gitignore files obeyed inside a git repository, the glob
// deciding before them, binary files skipped. One goroutine walks the
// tree, grepWorkers goroutines read and search its files, and this one
// reports them to out in walk order, holding at most a few files per
// worker ahead; all are joined before it returns, and the search stops
// when out is done or ctx ends.
func (s *toolset) grepDir(ctx context.Context, dir, glob string, m *lineMatcher, out *grepOutput) error {
	w, parents := s.grepWalker(ctx, dir, glob)

	inner, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }() // joined even when this goroutine panics
	workers := grepWorkers()
	jobs := make(chan *grepJob)
	order := make(chan *grepJob, min(4*workers, 64))
	maxHits := out.limit + 1 // a file's hits past these can only end the search
	// A panic of the FS in a goroutine of the search ends the search and
	// is raised again on this goroutine once all are joined, as it would
	// be if the search ran here.
	var panicOnce sync.Once
	var panicked any
	guard := func(f func()) func() {
		return func() {
			defer func() {
				if v := recover(); v != nil {
					panicOnce.Do(func() { panicked = v })
					cancel()
				}
			}()
			f()
		}
	}
	for range workers {
		wg.Go(guard(func() {
			var scratch []byte
			for j := range jobs {
				if inner.Err() == nil {
					bp := grepBufs.Get().(*[]byte)
					j.res, *bp = searchWhole(inner, s.fs, j.abs, m, true, !s.opts.Confine, maxHits, *bp, &scratch)
					if len(j.res.hits) > 0 {
						j.buf = bp
					} else {
						grepBufs.Put(bp)
					}
				}
				close(j.done)
			}
		}))
	}
	wg.Go(guard(func() {
		defer close(order)
		defer close(jobs)
		w.visit = func(e walkEntry) bool {
			if !e.mode.IsRegular() {
				return true
			}
			j := &grepJob{abs: e.abs, rel: e.rel, done: make(chan struct{})}
			select {
			case order <- j:
			case <-inner.Done():
				return false
			}
			select {
			case jobs <- j:
				return true
			case <-inner.Done():
				return false
			}
		}
		_ = w.walk(inner, dir, parents) // its only error is inner's end
	}))

	var err error
	for j := range order {
		if err != nil || out.done {
			continue // drain: the walker ends once inner is cancelled
		}
		select {
		case <-j.done:
		case <-inner.Done():
			err = errAborted
			cancel()
			continue
		}
		switch {
		case j.res.big:
			err = s.grepFile(inner, j.abs, j.rel, m.re, true, out)
		case len(j.res.hits) > 0:
			emitHits(out, j.rel, j.res.text, j.res.hits)
		}
		if j.buf != nil {
			grepBufs.Put(j.buf)
			j.buf = nil
		}
		if out.limitReached {
			// Past the limit, the file's trailing context is out: any later
			// event would only end the search.
			out.done = true
		}
		if err != nil || out.done {
			cancel()
		}
	}
	wg.Wait()
	if panicked != nil {
		panic(panicked)
	}
	if ctx.Err() != nil {
		return errAborted
	}
	return err
}
