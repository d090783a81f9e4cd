package temporal

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/temporal"
)

// ErrForgotten is reported by [Session.Wait] for a run that ended too long
// ago for the session to remember how: it may have failed.
var ErrForgotten = errors.New("agentcore/durable: the run's outcome is no longer kept")

// ErrUnknownRun is reported by [Session.Wait] for a number no run of the
// session has (yet).
var ErrUnknownRun = errors.New("agentcore/durable: no such run")

// The intervals between two polls of a waiting client: the first, and
// the longest, which the intervals double up to.
const (
	pollFirst = 20 * time.Millisecond
	pollMax   = 500 * time.Millisecond
	// queryTimeout bounds one query, so that a query sent while no worker
	// serves the session is sent again rather than waiting for ctx.
	queryTimeout = 10 * time.Second
	// unknownGrace is how long [Session.Wait] goes on asking for a run
	// the session does not know before it fails with [ErrUnknownRun].
	unknownGrace = 2 * time.Second
)

// poll queries the session with name and args into result until done
// reports true, waiting between two queries from pollFirst up to pollMax.
// A query that fails for a reason that may pass (no worker, a workflow
// task being retried) is sent again; ctx bounds the whole.
func (s *Session) poll(ctx context.Context, name string, result any, done func() bool, args ...any) error {
	wait := pollFirst
	for {
		err := s.query(ctx, name, result, args...)
		switch {
		case err == nil && done():
			return nil
		case err != nil && (ctx.Err() != nil || !transient(err)):
			return fmt.Errorf("agentcore/durable: session %s: %s: %w", s.id, name, err)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("agentcore/durable: session %s: %s: %w", s.id, name, ctx.Err())
		case <-t.C:
		}
		wait = min(2*wait, pollMax)
	}
}

// query asks the session's query name once, into result, a pointer.
func (s *Session) query(ctx context.Context, name string, result any, args ...any) error {
	qctx, cancel := context.WithTimeout(ctx, queryTimeout)
	defer cancel()
	v, err := s.c.QueryWorkflow(qctx, s.id, "", name, args...)
	if err != nil {
		return err
	}
	reflect.ValueOf(result).Elem().SetZero() // an answer's omitted fields are zero
	return v.Get(result)
}

// transient reports whether a query's error may pass by itself: not a
// missing session, a refused argument, a failing handler or a denial.
func transient(err error) bool {
	var (
		notFound   *serviceerror.NotFound
		invalid    *serviceerror.InvalidArgument
		denied     *serviceerror.PermissionDenied
		queryError *serviceerror.QueryFailed
		app        *temporal.ApplicationError
	)
	return !errors.As(err, &notFound) && !errors.As(err, &invalid) && !errors.As(err, &denied) &&
		!errors.As(err, &queryError) && !errors.As(err, &app)
}
