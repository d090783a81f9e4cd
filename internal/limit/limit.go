// Package limit holds the rules every reader of a server's response in
// this repository applies to what the server sends, whatever protocol it
// speaks (the providers' APIs, the proxy's events): a cap on the content a
// response may build, a timeout on a stream that stalls, token counts
// clamped to their range and quoted text cut to a size. It imports nothing
// of the module, so the root package (the proxy) and the providers share
// it; the root re-exports its sentinels and defaults.
package limit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"
)

// DefaultMaxResponseBytes is the content a response may build when its
// cap option is zero.
const DefaultMaxResponseBytes = 16 << 20

// ErrResponseTooLarge is the error of a response that built more content
// than its cap allows.
var ErrResponseTooLarge = errors.New("Response too large")

// DefaultStreamIdleTimeout is how long a streaming response may send
// nothing when its idle option is zero.
const DefaultStreamIdleTimeout = 10 * time.Minute

// ErrStreamIdleTimeout is the error of a streaming response that sent
// nothing for its idle timeout.
var ErrStreamIdleTimeout = errors.New("Stream idle timeout")

// Budget is the content one response may still build. A reader takes the
// size of every piece of content (text, thinking, a signature, a tool
// call's ID, name or arguments) before adding it; once a piece does not
// fit, the response must end with [Budget.Err]. Make one with
// [NewBudget]; a nil *Budget has no cap.
type Budget struct {
	left, max int64
	over      bool
}

// NewBudget returns the budget of a response capped at max bytes of
// content: zero means [DefaultMaxResponseBytes], a negative max no cap.
func NewBudget(max int64) *Budget {
	switch {
	case max == 0:
		max = DefaultMaxResponseBytes
	case max < 0:
		max = -1
	}
	return &Budget{left: max, max: max}
}

// Take spends n bytes and reports whether they fit; when they do not, it
// spends nothing, the piece must not be added, and every later Take fails.
func (b *Budget) Take(n int) bool {
	switch {
	case b == nil || b.max < 0:
		return true
	case b.over || int64(n) > b.left:
		b.over = true
		return false
	}
	b.left -= int64(n)
	return true
}

// Err is nil while the content fits, else the error wrapping
// [ErrResponseTooLarge] the response ends with.
func (b *Budget) Err() error {
	if b == nil || !b.over {
		return nil
	}
	return fmt.Errorf("%w: more than %d bytes of content", ErrResponseTooLarge, b.max)
}

// Is reports whether err is the error of one of a response's limits: it
// wraps [ErrResponseTooLarge] or [ErrStreamIdleTimeout].
func Is(err error) bool {
	return errors.Is(err, ErrResponseTooLarge) || errors.Is(err, ErrStreamIdleTimeout)
}

// Duration is the duration an option d stands for: zero means def, a
// negative d none (0).
func Duration(d, def time.Duration) time.Duration {
	switch {
	case d == 0:
		return def
	case d < 0:
		return 0
	}
	return d
}

// IdleError is the error of a stream whose server sent nothing for d: it
// wraps [ErrStreamIdleTimeout], its text "Stream idle timeout: no data
// from the server for D".
func IdleError(d time.Duration) error {
	return fmt.Errorf("%w: no data from the server for %s", ErrStreamIdleTimeout, d)
}

// WatchHeaders starts the idle timeout of a request waiting for its
// response's headers, the first wait of a stream for its server: past d
// (none when d is 0 or less) it cancels the request's context through
// cancel with [IdleError]'s error as the cause. Call the returned stop
// once the headers arrived or the request failed; from then on the body
// is watched by [WatchIdle]. The same d bounds both waits, so a server
// that stalls before its headers ends as one that stalls mid-body.
func WatchHeaders(cancel context.CancelCauseFunc, d time.Duration) (stop func()) {
	if d <= 0 {
		return func() {}
	}
	timer := time.AfterFunc(d, func() { cancel(IdleError(d)) })
	return func() { timer.Stop() }
}

// idleBody is a streaming body that fails with [ErrStreamIdleTimeout]
// when a Read waits longer than d for the server: the timer runs only
// while a Read is blocked, so a consumer slow between reads does not
// count, and it cancels the attempt's context, which ends the blocked
// Read.
type idleBody struct {
	io.ReadCloser
	ctx   context.Context // the attempt's
	timer *time.Timer
	d     time.Duration
}

// WatchIdle returns body failing reads that wait longer than d (none when
// d is 0 or less) by cancelling ctx, the context the body's request was
// sent with, through cancel; the failed Read returns the cause, which
// wraps [ErrStreamIdleTimeout].
func WatchIdle(ctx context.Context, cancel context.CancelCauseFunc, body io.ReadCloser, d time.Duration) io.ReadCloser {
	if d <= 0 {
		return body
	}
	err := IdleError(d)
	timer := time.AfterFunc(d, func() { cancel(err) })
	timer.Stop()
	return &idleBody{ReadCloser: body, ctx: ctx, timer: timer, d: d}
}

func (b *idleBody) Read(p []byte) (int, error) {
	b.timer.Reset(b.d)
	n, err := b.ReadCloser.Read(p)
	b.timer.Stop()
	if err != nil {
		if cause := context.Cause(b.ctx); errors.Is(cause, ErrStreamIdleTimeout) {
			err = cause
		}
	}
	return n, err
}

func (b *idleBody) Close() error {
	b.timer.Stop()
	return b.ReadCloser.Close()
}
