package agentcore

import (
	"context"
	"errors"
	"fmt"
	"net/http"
)

// proxyRelay forwards the events of one stream to a proxy answer. It runs
// on the request's goroutine.
type proxyRelay struct {
	h        *ProxyHandler
	r        *http.Request
	out      *proxyEventWriter
	cancel   context.CancelFunc // stops the stream function
	last     *AssistantMessage  // the latest partial message
	writeErr error              // the write that failed, if one did
}

// relay writes the events of stream until the final one, the end of the
// stream, or a failed write (which cancels the stream function's ctx: the
// client is gone).
func (rl *proxyRelay) relay(stream AssistantStream) error {
	if stream == nil {
		return errors.New("stream function returned no stream")
	}
	for ev := range stream {
		if isNilEvent(ev) {
			continue // skipped, as the loop skips it
		}
		if p := ev.partial(); p != nil {
			rl.last = p
		}
		final, err := rl.out.write(rl.hidePanic(ev))
		if err != nil {
			rl.writeErr = err
			rl.cancel()
			return nil
		}
		if final {
			return nil
		}
	}
	return nil
}

// hidePanic returns ev, or, for the error event of a panic inside the
// stream, a copy whose text is [ProxyInternalErrorText], after telling
// OnError the detail.
func (rl *proxyRelay) hidePanic(ev AssistantEvent) AssistantEvent {
	e, ok := ev.(*ErrorEvent)
	if !ok || e.Message == nil || !errors.Is(e.Message.Err, ErrStreamPanic) {
		return ev
	}
	rl.h.report(rl.r, fmt.Errorf("%w in the stream function: %w", ErrProxyPanic, e.Message.Err))
	hidden := e.Message.Clone()
	hidden.ErrorMessage = ProxyInternalErrorText
	return &ErrorEvent{Reason: e.Reason, Message: hidden}
}

// finish reports what went wrong (err is the stream function's error or
// panic) and, when the answer is still open and the client there, ends it
// with an error event, so the client does not report a dropped connection.
func (rl *proxyRelay) finish(err error, model Model) {
	if rl.writeErr != nil {
		rl.h.report(rl.r, fmt.Errorf("proxy: writing the answer: %w", rl.writeErr))
	}
	if err != nil && errors.Is(err, ErrProxyPanic) {
		rl.h.report(rl.r, err)
		err = errors.New(ProxyInternalErrorText)
	}
	if rl.out.ended || rl.out.broken || rl.r.Context().Err() != nil {
		return
	}
	cause := ErrStreamIncomplete
	if err != nil {
		cause = err
	}
	msg := failedMessage(rl.last, model, cause)
	if _, err := rl.out.write(&ErrorEvent{Reason: StopError, Message: msg}); err != nil {
		rl.h.report(rl.r, fmt.Errorf("proxy: writing the answer: %w", err))
	}
}
