package provider

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/pi-go/agentcore"
)

// Budget is the content one response may still build. A decoder takes the
// size of every piece of content (text, thinking, a signature, a tool
// call's ID, name or arguments) before adding it; once a piece does not
// fit, the response must end with [Budget.Err]. Make one with
// [NewBudget]; a nil *Budget has no cap.
type Budget struct {
	left, max int64
	over      bool
}

// NewBudget returns the budget of a response capped at max bytes of
// content: zero means [agentcore.DefaultMaxResponseBytes], a negative max
// no cap.
func NewBudget(max int64) *Budget {
	switch {
	case max == 0:
		max = agentcore.DefaultMaxResponseBytes
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
// [agentcore.ErrResponseTooLarge] the response ends with.
func (b *Budget) Err() error {
	if b == nil || !b.over {
		return nil
	}
	return fmt.Errorf("%w: more than %d bytes of content", agentcore.ErrResponseTooLarge, b.max)
}

// IsLimit reports whether err is the error of one of a response's limits:
// it wraps [agentcore.ErrResponseTooLarge] or
// [agentcore.ErrStreamIdleTimeout].
func IsLimit(err error) bool {
	return errors.Is(err, agentcore.ErrResponseTooLarge) || errors.Is(err, agentcore.ErrStreamIdleTimeout)
}

// LimitFailure is the failure of a response ended by one of its limits
// (see [IsLimit]): err's text, err its cause.
func LimitFailure(err error) *Failure {
	return &Failure{Text: err.Error(), Err: err}
}

// durationOption is the duration an option d stands for: zero means def,
// a negative d none (0).
func durationOption(d, def time.Duration) time.Duration {
	switch {
	case d == 0:
		return def
	case d < 0:
		return 0
	}
	return d
}

// idleBody is a streaming body that fails with
// [agentcore.ErrStreamIdleTimeout] when a Read waits longer than d for
// the server: the timer runs only while a Read is blocked, so a consumer
// slow between reads does not count, and it cancels the attempt's
// context, which ends the blocked Read.
type idleBody struct {
	io.ReadCloser
	ctx   context.Context // the attempt's
	timer *time.Timer
	d     time.Duration
}

// watchIdle returns body failing reads that wait longer than d (none when
// d is 0) by cancelling ctx, the attempt's, with cancel.
func watchIdle(body io.ReadCloser, ctx context.Context, cancel context.CancelCauseFunc, d time.Duration) io.ReadCloser {
	if d <= 0 {
		return body
	}
	err := fmt.Errorf("%w: no data from the server for %s", agentcore.ErrStreamIdleTimeout, d)
	timer := time.AfterFunc(d, func() { cancel(err) })
	timer.Stop()
	return &idleBody{ReadCloser: body, ctx: ctx, timer: timer, d: d}
}

func (b *idleBody) Read(p []byte) (int, error) {
	b.timer.Reset(b.d)
	n, err := b.ReadCloser.Read(p)
	b.timer.Stop()
	if err != nil {
		if cause := context.Cause(b.ctx); errors.Is(cause, agentcore.ErrStreamIdleTimeout) {
			err = cause
		}
	}
	return n, err
}

func (b *idleBody) Close() error {
	b.timer.Stop()
	return b.ReadCloser.Close()
}
