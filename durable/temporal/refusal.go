package temporal

import (
	"errors"

	"github.com/pi-go/agentcore"
	"go.temporal.io/sdk/temporal"
)

// refusals are the sentinel errors a session refuses an update with, by
// the type of the ApplicationError that carries them to the client.
var refusals = map[string]error{
	"ErrBusy":                  agentcore.ErrBusy,
	"ErrNoMessages":            agentcore.ErrNoMessages,
	"ErrContinueFromAssistant": agentcore.ErrContinueFromAssistant,
}

// refuse is the workflow's refusal with sentinel's meaning; sentinel is
// one of refusals.
func refuse(sentinel error) error {
	for typ, s := range refusals {
		if s == sentinel {
			return temporal.NewApplicationError(sentinel.Error(), typ)
		}
	}
	return temporal.NewApplicationError(sentinel.Error(), "")
}

// refusal returns the sentinel a client's update error carries, or nil.
func refusal(err error) error {
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		return refusals[app.Type()]
	}
	return nil
}
