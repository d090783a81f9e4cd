package agentcore

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
)

// ErrMessageNotFound is reported by [Agent.ReplaceMessage] when the message
// to replace is not in the transcript (any more).
var ErrMessageNotFound = errors.New("agentcore: message not in the transcript")

// MessageReplaceEvent reports that one message of the [Agent]'s transcript
// was replaced in place, by [Agent.ReplaceMessage]: a held tool call's
// placeholder result replaced by its real result, a repaired answer. Index
// is the message's position in the transcript as a listener that applied
// the earlier events holds it; Old is the message replaced, Message the one
// now in its place. The transcript changed before listeners see the event.
type MessageReplaceEvent struct {
	Index   int     `json:"index"`
	Old     Message `json:"old"`
	Message Message `json:"message"`
}

// TranscriptSetEvent reports that the [Agent]'s transcript was replaced
// wholesale, by [Agent.SetMessages] or [Agent.Reset]. Messages is the new
// transcript, shared with the Agent and every holder of the event: it must
// not be modified (appending to it copies).
type TranscriptSetEvent struct {
	Messages []Message `json:"messages"`
}

// Type returns "message_replace".
func (*MessageReplaceEvent) Type() string { return "message_replace" }

// Type returns "transcript_set".
func (*TranscriptSetEvent) Type() string { return "transcript_set" }

func (*MessageReplaceEvent) agentEvent() {}
func (*TranscriptSetEvent) agentEvent()  {}

// MarshalJSON writes the event with its "type".
func (e MessageReplaceEvent) MarshalJSON() ([]byte, error) {
	type p MessageReplaceEvent
	return marshalTagged("type", e.Type(), p(e))
}

// MarshalJSON writes the event with its "type".
func (e TranscriptSetEvent) MarshalJSON() ([]byte, error) {
	type p TranscriptSetEvent
	if e.Messages == nil {
		e.Messages = []Message{}
	}
	return marshalTagged("type", e.Type(), p(e))
}

// ReplaceMessage replaces old, found in the transcript by identity (the
// same pointer, for the pointer message types; ==, for a comparable
// app-defined value type), with m, and emits a [MessageReplaceEvent]. It
// fails with [ErrMessageNotFound] when old is not in the transcript, and
// with an error wrapping [ErrNilMessage] for a nil m; replacing a message
// by itself changes nothing and emits nothing. A run in progress keeps
// its own snapshot of the transcript, as with [Agent.SetMessages]; the
// event is delivered as the Agent's doc says (events section).
func (a *Agent) ReplaceMessage(old, m Message) error {
	if isNilMessage(m) {
		return fmt.Errorf("%w: replacement", ErrNilMessage)
	}
	a.mu.Lock()
	i := slices.IndexFunc(a.messages, func(x Message) bool { return sameMessage(x, old) })
	if i < 0 {
		a.mu.Unlock()
		return ErrMessageNotFound
	}
	if sameMessage(old, m) {
		a.mu.Unlock()
		return nil
	}
	// The transcript's array is shared with earlier events: copy on write.
	msgs := slices.Clone(a.messages)
	msgs[i] = m
	a.messages = msgs
	a.post(&MessageReplaceEvent{Index: i, Old: old, Message: m})
	a.settle()
	return nil
}

// sameMessage reports whether a and b are the same message: equal
// interface values of a comparable dynamic type.
func sameMessage(a, b Message) bool {
	if a == nil || b == nil {
		return false
	}
	ta := reflect.TypeOf(a)
	if ta != reflect.TypeOf(b) || !ta.Comparable() {
		return false
	}
	return a == b
}

// post queues the events of a change the Agent's API made, holding mu.
// Queued events are delivered in order by whoever delivers next: the run's
// goroutine before its next event (or as it ends) during a run, else the
// caller of the change through [Agent.settle].
func (a *Agent) post(events ...AgentEvent) {
	a.outbox = append(a.outbox, events...)
}

// settle, called holding mu, releases it after delivering the queued
// events when no run is active and no other call is delivering them; it
// returns at once otherwise (the deliverer in charge takes them).
// Listeners get context.Background(), and their panics are ignored.
func (a *Agent) settle() {
	if a.run != nil || a.delivering || len(a.outbox) == 0 {
		a.mu.Unlock()
		return
	}
	a.delivering = true
	a.drainOutbox(context.Background())
	a.delivering = false
	a.mu.Unlock()
}

// drainOutbox delivers the queued events until none is left, called
// holding mu; it releases mu while listeners run and holds it on return.
func (a *Agent) drainOutbox(ctx context.Context) {
	for len(a.outbox) > 0 {
		events := a.outbox
		a.outbox = nil
		a.mu.Unlock()
		a.broadcast(ctx, events)
		a.mu.Lock()
	}
}

// broadcast delivers events to the listeners, ignoring their panics.
func (a *Agent) broadcast(ctx context.Context, events []AgentEvent) {
	for _, ev := range events {
		for _, l := range a.listenerList() {
			if !l.removed.Load() {
				_ = callListener(ctx, l.fn, ev)
			}
		}
	}
}
