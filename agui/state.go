package agui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// ErrNoRun is the error of [SetState], [PatchState] and [Input] called
// with a ctx that is not a run's a [Handler] serves.
var ErrNoRun = errors.New("agui: not in a run served by an agui.Handler")

// ErrBadState is the error of a state or patch that is not what
// [SetState] or [PatchState] takes.
var ErrBadState = errors.New("agui: bad state")

// Input returns the request of the run ctx belongs to: ctx is a ctx the
// run passes to its hooks and tools. The input is the handler's,
// read-only.
func Input(ctx context.Context) (*RunInput, error) {
	r := relayFrom(ctx)
	if r == nil {
		return nil, ErrNoRun
	}
	return r.in, nil
}

// SetState sends the client of the run ctx belongs to a STATE_SNAPSHOT:
// state, any JSON value, replaces the client's state. It may be called
// from any goroutine of the run (a tool's, a hook's). It reports
// [ErrNoRun] outside a run, an error wrapping [ErrBadState] for invalid
// JSON, and the write's error when the client is gone.
func SetState(ctx context.Context, state json.RawMessage) error {
	r := relayFrom(ctx)
	if r == nil {
		return ErrNoRun
	}
	if !json.Valid(state) {
		return fmt.Errorf("%w: the state is not JSON", ErrBadState)
	}
	return r.out.write(stateSnapshot{evStateSnapshot, state})
}

// PatchState sends the client of the run ctx belongs to a STATE_DELTA:
// patch, a JSON Patch (RFC 6902) array, changes the client's state. The
// handler forwards it without applying it; like [SetState] otherwise.
func PatchState(ctx context.Context, patch json.RawMessage) error {
	r := relayFrom(ctx)
	if r == nil {
		return ErrNoRun
	}
	var ops []json.RawMessage
	if err := json.Unmarshal(patch, &ops); err != nil {
		return fmt.Errorf("%w: a patch is a JSON array of operations", ErrBadState)
	}
	return r.out.write(stateDelta{evStateDelta, patch})
}
