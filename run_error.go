package agentcore

import (
	"context"
	"errors"
)

// RunError is the error of a run that started and failed: its last
// assistant message has stopReason "error" or "aborted". [Agent.Prompt],
// [Agent.PromptMessages], [Agent.Continue] and [LoopRun.Wait] return one;
// the failure is in the transcript too, as in the reference.
//
// A caller tells "could not start" from "ran and failed" with errors.As:
// the refusals ([ErrBusy], [ErrNoStreamFn], [ErrNoMessages], ...) are not
// RunErrors, and a refused call changed nothing.
//
// For an aborted run the error unwraps to the run's ctx error:
// [context.Canceled] after [Agent.Abort] or a cancelled ctx,
// [context.DeadlineExceeded] when the ctx's deadline passed. A provider's
// failure unwraps to the message's Err (a [*ProviderError] from this
// module's providers), reachable with errors.As.
type RunError struct {
	// Message is the run's last assistant message; its ErrorMessage is
	// what the transcript says. For a run ended by a failing hook or
	// listener it is the Agent's failure message.
	Message *AssistantMessage
	// Err is the cause: the failing hook's or listener's error, else the
	// message's Err, else an error holding its ErrorMessage. Nil for an
	// abort with no other cause.
	Err error

	ctxErr error // the run's ctx error, for an aborted run
}

// newRunError describes the failed message msg of a run whose ctx is ctx;
// cause, when not nil, is what ended the run.
func newRunError(ctx context.Context, msg *AssistantMessage, cause error) *RunError {
	e := &RunError{Message: msg, Err: cause}
	if e.Err == nil {
		e.Err = msg.Err
	}
	if e.Err == nil && msg.ErrorMessage != "" && msg.StopReason == StopError {
		e.Err = errors.New(msg.ErrorMessage)
	}
	if msg.StopReason == StopAborted {
		e.ctxErr = ctx.Err()
		if e.ctxErr == nil {
			e.ctxErr = context.Canceled
		}
	}
	return e
}

// Error says how the run ended and why, in the transcript's words.
func (e *RunError) Error() string {
	what := "agentcore: run failed"
	if e.Message != nil && e.Message.StopReason == StopAborted {
		what = "agentcore: run aborted"
	}
	switch {
	case e.Message != nil && e.Message.ErrorMessage != "":
		return what + ": " + e.Message.ErrorMessage
	case e.Err != nil:
		return what + ": " + e.Err.Error()
	}
	return what
}

// Unwrap returns the cause and, for an aborted run, the ctx error.
func (e *RunError) Unwrap() []error {
	var errs []error
	for _, err := range []error{e.Err, e.ctxErr} {
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}
