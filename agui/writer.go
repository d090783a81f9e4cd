package agui

import (
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/pi-go/agentcore/internal/sse"
)

// eventWriter writes the events of one answer as server-sent events and
// flushes each. It is safe for concurrent use: a run's listener and its
// tools (through [SetState]) write to it.
type eventWriter struct {
	mu     sync.Mutex
	sse    *sse.Writer
	rc     *http.ResponseController
	idle   time.Duration // the per-write deadline; negative for none
	broken error         // the write that failed; nothing is written after it
	cancel func()        // stops the run when a write fails
}

// startAnswer writes the headers of an event stream and flushes them.
func startAnswer(w http.ResponseWriter, idle time.Duration, cancel func()) (*eventWriter, error) {
	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("Cache-Control", "no-cache")
	hdr.Set("X-Accel-Buffering", "no")
	out := &eventWriter{sse: sse.NewWriter(w), rc: http.NewResponseController(w), idle: idle, cancel: cancel}
	out.deadline()
	w.WriteHeader(http.StatusOK)
	return out, out.flush()
}

// write sends one event; after a failed write it does nothing and
// reports that write's error.
func (o *eventWriter) write(ev any) error {
	data, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.broken != nil {
		return o.broken
	}
	o.deadline()
	if err := o.sse.WriteData(data); err != nil {
		return o.fail(err)
	}
	if err := o.flush(); err != nil {
		return o.fail(err)
	}
	return nil
}

// fail records a failed write and stops the run: its client is gone.
func (o *eventWriter) fail(err error) error {
	o.broken = err
	o.cancel()
	return err
}

// failure returns the write that failed, if one did.
func (o *eventWriter) failure() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.broken
}

func (o *eventWriter) deadline() {
	if o.idle > 0 {
		_ = o.rc.SetWriteDeadline(time.Now().Add(o.idle))
	}
}

func (o *eventWriter) flush() error {
	if err := o.rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	return nil
}

// writeError answers before streaming with status and {"error": text}.
func writeError(w http.ResponseWriter, status int, text string) {
	body, _ := json.Marshal(struct {
		Error string `json:"error"`
	}{text})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}
