package temporal

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"

	"go.temporal.io/sdk/workflow"
)

// SignalControl is the name of the signal carrying a [Control] request,
// and QueryControl of the query telling whether one was applied.
const (
	SignalControl = "control"
	QueryControl  = "control"
)

// ControlKind is what a [Control] request asks.
type ControlKind string

// The kinds of control requests.
const (
	ControlSteer    ControlKind = "steer"
	ControlFollowUp ControlKind = "followUp"
	ControlAbort    ControlKind = "abort"
)

// Control is a request to steer, follow up or abort, sent as a signal
// ([Session.Send]): the server records it whether or not a worker is
// running, and the session applies it once per Key.
type Control struct {
	// Key identifies the request: a request sent again with the same key
	// is applied once. Empty keys are refused by [Session.Send].
	Key  string      `json:"key"`
	Kind ControlKind `json:"kind"`
	// Messages are the steering or follow-up messages; none for an
	// abort.
	Messages Messages `json:"messages,omitempty"`
}

// ErrRecorded is wrapped by the error of a [Session.Send] (and so of
// [Session.Steer], [Session.FollowUp] and [Session.Abort]) whose request
// the server recorded and the session had not applied when ctx ended (no
// worker was running, say): it will be applied once a worker runs the
// session. Sending it again with the same key applies it once. An error
// without it means the request was not recorded.
var ErrRecorded = errors.New("agentcore/durable: request recorded, not applied yet")

// keptKeys is how many applied requests' keys a session remembers.
const keptKeys = 512

// controlStatus is the answer of the control query.
type controlStatus struct {
	Applied bool `json:"applied,omitempty"`
	// Refused is the reason the request was not applied ("" for none):
	// the text of a refusal of the [refusals] type RefusedType.
	Refused     string `json:"refused,omitempty"`
	RefusedType string `json:"refusedType,omitempty"`
}

// registerControl starts the workflow goroutine applying control
// requests, and installs the control query.
func (ss *session) registerControl(ctx workflow.Context) error {
	ch := workflow.GetSignalChannel(ctx, SignalControl)
	workflow.Go(ctx, func(ctx workflow.Context) {
		for {
			var c Control
			if !ch.Receive(ctx, &c) {
				return
			}
			ss.control(c)
		}
	})
	return workflow.SetQueryHandler(ctx, QueryControl, func(key string) (controlStatus, error) {
		i := slices.IndexFunc(ss.st.Keys, func(k appliedKey) bool { return k.Key == key })
		if i < 0 {
			return controlStatus{}, nil
		}
		k := ss.st.Keys[i]
		return controlStatus{Applied: true, Refused: k.Refused, RefusedType: k.RefusedType}, nil
	})
}

// drainControl applies the control requests received and not yet applied,
// before the workflow continues as new.
func (ss *session) drainControl(ctx workflow.Context) {
	ch := workflow.GetSignalChannel(ctx, SignalControl)
	for {
		var c Control
		if !ch.ReceiveAsync(&c) {
			return
		}
		ss.control(c)
	}
}

// appliedKey is a control request applied, or refused.
type appliedKey struct {
	Key         string `json:"key"`
	Refused     string `json:"refused,omitempty"`
	RefusedType string `json:"refusedType,omitempty"`
}

// control applies c unless its key was applied already.
func (ss *session) control(c Control) {
	if slices.ContainsFunc(ss.st.Keys, func(k appliedKey) bool { return k.Key == c.Key }) {
		return
	}
	done := appliedKey{Key: c.Key}
	var err error
	switch c.Kind {
	case ControlSteer:
		if err = ss.room(2 * encodedSize(c.Messages)); err == nil {
			ss.st.Steering = append(ss.st.Steering, c.Messages...)
		}
	case ControlFollowUp:
		if err = ss.room(2 * encodedSize(c.Messages)); err == nil {
			ss.st.FollowUp = append(ss.st.FollowUp, c.Messages...)
		}
	case ControlAbort:
		ss.abort()
	default:
		err = refuseWith(ErrInvalidSetting, fmt.Sprintf("control kind %q", c.Kind))
	}
	if r := refusal(err); r != nil {
		done.Refused, done.RefusedType = r.Error(), refusalTypes[errors.Unwrap(r)]
	}
	ss.st.Keys = append(ss.st.Keys, done)
	if n := len(ss.st.Keys); n > keptKeys {
		ss.st.Keys = slices.Clone(ss.st.Keys[n-keptKeys:])
	}
}

// abort aborts the active run, if any.
func (ss *session) abort() {
	if ss.st.Run == nil {
		return
	}
	ss.st.Run.Aborted = true
	if ss.cancelWork != nil {
		ss.cancelWork()
	}
}

// Send sends c to the session as a signal and waits until the session has
// applied it. The server records the signal whether or not a worker is
// running: an error wrapping [ErrRecorded] means it was recorded and will
// be applied, once; any other error that it was not (send it again, with
// the same key). A steering or follow-up request the session cannot keep
// is refused with an error wrapping [ErrTooLarge].
func (s *Session) Send(ctx context.Context, c Control) error {
	if c.Key == "" {
		return fmt.Errorf("agentcore/durable: session %s: %s: %w", s.id, c.Kind, errNoKey)
	}
	if err := s.c.SignalWorkflow(ctx, s.id, "", SignalControl, c); err != nil {
		return fmt.Errorf("agentcore/durable: session %s: %s not recorded: %w", s.id, c.Kind, err)
	}
	var st controlStatus
	if err := s.poll(ctx, QueryControl, &st, func() bool { return st.Applied }, c.Key); err != nil {
		return fmt.Errorf("agentcore/durable: session %s: %s: %w (%w)", s.id, c.Kind, ErrRecorded, err)
	}
	if st.Refused != "" {
		sentinel := refusals[st.RefusedType]
		if sentinel == nil {
			return fmt.Errorf("agentcore/durable: session %s: %s", s.id, st.Refused)
		}
		return fmt.Errorf("agentcore/durable: session %s: %w", s.id, &refusedError{text: st.Refused, sentinel: sentinel})
	}
	return nil
}

// errNoKey refuses a control request without a key.
var errNoKey = errors.New("control request without a key")

// NewKey returns a random key for a [Control] request.
func NewKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
