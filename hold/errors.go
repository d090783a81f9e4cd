package hold

import (
	"errors"
	"fmt"
	"strings"
)

// ErrHeld is what [*HeldError] matches: a run ended, or could not start,
// because tool calls wait for a person's decision. It is an outcome, not a
// failure: the transcript is valid and nothing was lost.
var ErrHeld = errors.New("hold: tool calls wait for a decision")

// ErrNotHeld is wrapped by [Gate.Decide]'s error for a decision naming a
// call the Gate does not hold.
var ErrNotHeld = errors.New("hold: no such held call")

// ErrDecided is wrapped by [Gate.Decide]'s error for a second decision on a
// call (in the same Decide or an earlier one, or by its deadline).
var ErrDecided = errors.New("hold: call already decided")

// ErrInvalidDecision is wrapped by the errors of a decision that cannot
// apply: a nil one, edited arguments the tool refuses, a result with nil
// content blocks, or JSON that is not a decision.
var ErrInvalidDecision = errors.New("hold: invalid decision")

// ErrInvalidState is wrapped by [Gate.Restore]'s error for a state that
// cannot be held, and by the error of a run's start or [Gate.Resolve]
// when the held calls do not match the transcript.
var ErrInvalidState = errors.New("hold: invalid state")

// HeldError is the outcome of a run that ended with calls held, or of a
// Prompt or Continue refused because calls still wait: the Agent's Prompt
// and Continue return it, errors.Is(err, ErrHeld) matches it, and
// errors.As gives the calls. The Agent's transcript holds a placeholder
// result for each of them; its State().ErrorMessage is empty.
type HeldError struct {
	// Calls are the calls waiting for a decision, in call order (copies).
	Calls []Call
}

// Error names the waiting calls.
func (e *HeldError) Error() string {
	names := make([]string, len(e.Calls))
	for i, c := range e.Calls {
		names[i] = fmt.Sprintf("%s (%s)", c.Tool, c.ID)
	}
	return fmt.Sprintf("%v: %s", ErrHeld, strings.Join(names, ", "))
}

// Is reports whether target is [ErrHeld].
func (e *HeldError) Is(target error) bool { return target == ErrHeld }
