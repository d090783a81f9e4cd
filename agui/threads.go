package agui

import (
	"fmt"
	"net/http"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/session"
)

// thread returns the request's thread, locked, making it (made) when the
// handler does not hold it. A thread that is running answers 409; a new
// thread at MaxThreads with none idle to drop, 503. A request a new
// thread could not run is refused before NewAgent is called.
func (h *Handler) thread(r *http.Request, in *RunInput, msgs []wireMessage) (t *thread, made bool, err error) {
	h.mu.Lock()
	expired := h.expire(time.Now())
	t = h.threads[in.ThreadID]
	if t != nil {
		err = h.take(t)
	}
	h.mu.Unlock()
	h.dropped(r, expired)
	if err != nil {
		return nil, false, err
	}
	if t != nil {
		if t, err = h.reopen(t); t != nil || err != nil {
			return t, false, err
		}
	}
	if len(in.Resume) == 0 { // a resume may find the thread restored
		if err := adoptable(msgs); err != nil {
			return nil, false, err
		}
	}
	if h.opts.NewAgent == nil {
		return nil, false, ErrNoAgent
	}
	var opts agentcore.Options
	err = h.guard("NewAgent", func() (err error) {
		opts, err = h.opts.NewAgent(r.Context(), in)
		return err
	})
	if err != nil {
		return nil, false, err
	}
	var (
		tf     *threadFile
		sctx   session.Context
		stored stored
	)
	if h.sessions != nil {
		tf = h.sessions.file(in.ThreadID)
		if err := tf.open(); err != nil {
			return nil, false, err
		}
		opts, sctx, stored = tf.restore(opts)
	}
	t = newThread(opts)
	t.id = in.ThreadID
	if tf != nil {
		if err := tf.adopt(t, sctx, stored); err != nil {
			_ = tf.close()
			return nil, false, err
		}
	}
	t.mu.Lock()
	h.mu.Lock()
	var full []*thread
	switch {
	case h.threads[in.ThreadID] != nil: // another request made it meanwhile, and runs it
		err = busy(in.ThreadID)
	default:
		full, err = h.makeRoom()
		if err == nil {
			h.threads[in.ThreadID] = t
		}
	}
	h.mu.Unlock()
	h.dropped(r, full)
	if err != nil {
		if tf != nil {
			_ = tf.close()
		}
		return nil, false, err
	}
	return t, true, nil
}

// reopen opens the session file of a held thread t, locked for a request;
// when another handler served the thread since, t is dropped and reopen
// returns nil, for the request to make the thread again from its file.
func (h *Handler) reopen(t *thread) (*thread, error) {
	if t.file == nil {
		return t, nil
	}
	if err := t.file.open(); err != nil {
		h.release(t)
		return nil, err
	}
	if !t.file.changed() {
		return t, nil
	}
	_ = t.file.close()
	h.mu.Lock()
	h.remove(t)
	h.mu.Unlock()
	t.mu.Unlock()
	return nil, nil
}

// busy is the error of a request for a running thread.
func busy(threadID string) error {
	return &HTTPError{Status: http.StatusConflict, Message: fmt.Sprintf("thread %q is running: wait for its run to finish", threadID)}
}

// take locks a held thread for a request and takes it off the idle list;
// h.mu is held.
func (h *Handler) take(t *thread) error {
	if !t.mu.TryLock() {
		return busy(t.id)
	}
	if t.elem != nil {
		h.idle.Remove(t.elem)
		t.elem = nil
	}
	return nil
}

// release puts back a thread a request took: idle since now, when the
// handler still holds it.
func (h *Handler) release(t *thread) {
	if t.file != nil {
		_ = t.file.close()
	}
	h.mu.Lock()
	if h.threads[t.id] == t {
		t.used = time.Now()
		t.elem = h.idle.PushBack(t)
	}
	h.mu.Unlock()
	t.mu.Unlock()
}

// remove drops t from the handler; h.mu is held.
func (h *Handler) remove(t *thread) {
	if h.threads[t.id] == t {
		delete(h.threads, t.id)
		if h.sessions != nil {
			h.sessions.forget(t.id)
		}
	}
	if t.elem != nil {
		h.idle.Remove(t.elem)
		t.elem = nil
	}
}

// expire drops the threads idle longer than IdleTimeout and returns them;
// h.mu is held.
func (h *Handler) expire(now time.Time) []*thread {
	if h.opts.IdleTimeout < 0 {
		return nil
	}
	var out []*thread
	for e := h.idle.Front(); e != nil; e = h.idle.Front() {
		t := e.Value.(*thread)
		if now.Sub(t.used) < h.opts.IdleTimeout {
			break
		}
		h.remove(t)
		out = append(out, t)
	}
	return out
}

// makeRoom drops idle threads, the least recently used first, until a new
// one fits within MaxThreads, and returns them; h.mu is held. With no
// idle thread to drop it fails with 503.
func (h *Handler) makeRoom() ([]*thread, error) {
	if h.opts.MaxThreads < 0 {
		return nil, nil
	}
	var out []*thread
	for len(h.threads) >= h.opts.MaxThreads {
		e := h.idle.Front()
		if e == nil {
			return out, &HTTPError{Status: http.StatusServiceUnavailable, Message: fmt.Sprintf("the server holds %d running threads, its limit: retry later", len(h.threads))}
		}
		t := e.Value.(*thread)
		h.remove(t)
		out = append(out, t)
	}
	return out, nil
}

// dropped tells OnDrop of the threads the handler dropped, for the
// request r.
func (h *Handler) dropped(r *http.Request, ts []*thread) {
	if h.opts.OnDrop == nil {
		return
	}
	for _, t := range ts {
		if err := h.guard("OnDrop", func() error { h.opts.OnDrop(t.id); return nil }); err != nil {
			h.report(r, err)
		}
	}
}
