package temporal

import (
	"errors"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/hold"
	"go.temporal.io/sdk/temporal"
)

// ErrUnknownTool is reported by [Session.SetTools] for a name that is not
// one of the workers' [Options.Tools]; the selection is then unchanged.
var ErrUnknownTool = errors.New("agentcore/durable: no tool of that name on the session's workers")

// ErrInvalidSetting is reported by the setters of a [Session] for a value
// the session cannot take (an unknown thinking level or mode, a tool
// selected twice, an unknown queue); nothing is then changed.
var ErrInvalidSetting = errors.New("agentcore/durable: invalid setting")

// refusals are the sentinel errors a session refuses an update with, by
// the type of the ApplicationError that carries them to the client.
var refusals = map[string]error{
	"ErrBusy":                  agentcore.ErrBusy,
	"ErrNoMessages":            agentcore.ErrNoMessages,
	"ErrContinueFromAssistant": agentcore.ErrContinueFromAssistant,
	"ErrUnknownTool":           ErrUnknownTool,
	"ErrInvalidSetting":        ErrInvalidSetting,
	"ErrTooLarge":              ErrTooLarge,
	"ErrHeld":                  hold.ErrHeld,
	"ErrNotHeld":               hold.ErrNotHeld,
	"ErrDecided":               hold.ErrDecided,
	"ErrInvalidDecision":       hold.ErrInvalidDecision,
}

// refuse is the workflow's refusal with sentinel's meaning; sentinel is
// one of refusals.
func refuse(sentinel error) error {
	return refuseWith(sentinel, "")
}

// refuseWith is refuse with a detail appended to the sentinel's text.
func refuseWith(sentinel error, detail string) error {
	msg := sentinel.Error()
	if detail != "" {
		msg += ": " + detail
	}
	return temporal.NewApplicationError(msg, refusalTypes[sentinel])
}

// refusalTypes are the types of refusals by sentinel: a lookup, since
// workflow code must not range over a map (its order is random).
var refusalTypes = func() map[error]string {
	m := make(map[error]string, len(refusals))
	for typ, s := range refusals {
		m[s] = typ
	}
	return m
}()

// refusedError is a refusal on the client: the workflow's text, wrapping
// its sentinel.
type refusedError struct {
	text     string
	sentinel error
}

func (e *refusedError) Error() string { return e.text }
func (e *refusedError) Unwrap() error { return e.sentinel }

// refusal returns the refusal a client's update error carries, wrapping
// its sentinel, or nil.
func refusal(err error) error {
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		if s := refusals[app.Type()]; s != nil {
			return &refusedError{text: app.Message(), sentinel: s}
		}
	}
	return nil
}
