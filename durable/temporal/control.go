package temporal

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"

	"go.temporal.io/sdk/temporal"
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
	ControlPrompt   ControlKind = "prompt"
	ControlContinue ControlKind = "continue"
	ControlSteer    ControlKind = "steer"
	ControlFollowUp ControlKind = "followUp"
	ControlAbort    ControlKind = "abort"
	ControlDecide   ControlKind = "decide"
)

// Control is a request to prompt, continue, steer, follow up, abort or
// decide held calls,
// sent as a signal ([Session.Send]): the server records it whether or not
// a worker is running, and the session applies it once per Key.
type Control struct {
	// Key identifies the request: a request sent again with the same key
	// is applied once. Empty keys are refused by [Session.Send].
	Key  string      `json:"key"`
	Kind ControlKind `json:"kind"`
	// Messages are the prompt, steering or follow-up messages; none for
	// a continue or an abort.
	Messages Messages `json:"messages,omitempty"`
	// Decisions are a decide request's decisions on held calls
	// ([Session.Decide]).
	Decisions Decisions `json:"decisions,omitempty"`
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
	// Seq is the number of the run a prompt or continue started.
	Seq int `json:"seq,omitempty"`
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
		// Not ch.Receive: a receiver blocked on the channel is handed the
		// next signal as it is delivered, before the main coroutine, about
		// to continue as new, can drain it; the request would be applied
		// after the state was carried over, and lost.
		for {
			if err := workflow.Await(ctx, func() bool { return ch.Len() > 0 && !ss.closing }); err != nil {
				return
			}
			var c Control
			for ch.ReceiveAsync(&c) {
				ss.control(ctx, c)
				c = Control{}
			}
		}
	})
	return workflow.SetQueryHandler(ctx, QueryControl, func(key string) (controlStatus, error) {
		i := slices.IndexFunc(ss.st.Keys, func(k appliedKey) bool { return k.Key == key })
		if i < 0 {
			return controlStatus{}, nil
		}
		k := ss.st.Keys[i]
		return controlStatus{Applied: true, Seq: k.Seq, Refused: k.Refused, RefusedType: k.RefusedType}, nil
	})
}

// drainControl applies the control requests received and not yet applied,
// before the workflow continues as new (the control goroutine stops
// taking them once the session is closing).
func (ss *session) drainControl(ctx workflow.Context) {
	ch := workflow.GetSignalChannel(ctx, SignalControl)
	for {
		var c Control
		if !ch.ReceiveAsync(&c) {
			return
		}
		ss.control(ctx, c)
	}
}

// appliedKey is a control request applied, or refused.
type appliedKey struct {
	Key         string `json:"key"`
	Seq         int    `json:"seq,omitempty"`
	Refused     string `json:"refused,omitempty"`
	RefusedType string `json:"refusedType,omitempty"`
}

// control applies c unless its key was applied already.
func (ss *session) control(ctx workflow.Context, c Control) {
	if slices.ContainsFunc(ss.st.Keys, func(k appliedKey) bool { return k.Key == c.Key }) || ss.deferred(c.Key) {
		return
	}
	done := appliedKey{Key: c.Key}
	var err error
	switch c.Kind {
	case ControlPrompt:
		if err = ss.promptable(c.Messages); err == nil {
			done.Seq, _ = ss.prompt(ctx, c.Messages)
		}
	case ControlContinue:
		if err = ss.continuable(); err == nil {
			done.Seq, _ = ss.cont(ctx)
		}
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
	case ControlDecide:
		if ss.deferDecide(ctx, c) {
			return // applied, and its key recorded, when the run ends
		}
		err = ss.decide(ctx, c.Decisions)
	default:
		err = refuseWith(ErrInvalidSetting, fmt.Sprintf("control kind %q", c.Kind))
	}
	ss.applied(done, err)
}

// applied records the key of a control request applied, or refused with
// err.
func (ss *session) applied(done appliedKey, err error) {
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		done.Refused, done.RefusedType = app.Message(), app.Type()
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
// is refused with an error wrapping [ErrTooLarge]; a prompt or continue
// the session refuses, with the error [Session.Start] or
// [Session.StartContinue] documents. A request recorded while no worker
// runs is applied when one does, and may then be refused (a prompt while
// a run is active): send it again with its key to learn how it was
// applied.
func (s *Session) Send(ctx context.Context, c Control) error {
	_, err := s.send(ctx, c)
	return err
}

// send is Send returning the number of the run a prompt or continue
// started.
func (s *Session) send(ctx context.Context, c Control) (int, error) {
	if c.Key == "" {
		return 0, fmt.Errorf("agentcore/durable: session %s: %s: %w", s.id, c.Kind, errNoKey)
	}
	if err := s.c.SignalWorkflow(ctx, s.id, "", SignalControl, c); err != nil {
		return 0, fmt.Errorf("agentcore/durable: session %s: %s not recorded: %w", s.id, c.Kind, err)
	}
	var st controlStatus
	if err := s.poll(ctx, QueryControl, &st, func() bool { return st.Applied }, c.Key); err != nil {
		return 0, fmt.Errorf("agentcore/durable: session %s: %s: %w (%w)", s.id, c.Kind, ErrRecorded, err)
	}
	if st.Refused != "" {
		sentinel := refusals[st.RefusedType]
		if sentinel == nil {
			return 0, fmt.Errorf("agentcore/durable: session %s: %s", s.id, st.Refused)
		}
		return 0, fmt.Errorf("agentcore/durable: session %s: %w", s.id, &refusedError{text: st.Refused, sentinel: sentinel})
	}
	return st.Seq, nil
}

// errNoKey refuses a control request without a key.
var errNoKey = errors.New("control request without a key")

// NewKey returns a random key for a [Control] request.
func NewKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
