package temporal

import (
	"context"
	"iter"
	"sync"
	"sync/atomic"

	"github.com/pi-go/agentcore"
)

// StreamEvent is a live event of a session's model request, as
// [Options.OnStream] receives it.
type StreamEvent struct {
	// SessionID is the session's workflow ID.
	SessionID string
	// Run is the run's sequence number, as [Session.Start] returns it.
	Run int
	// Request is the request's index within the run, from 0.
	Request int
	// Attempt is the model activity's attempt, from 1. A later attempt of
	// the same request streams it again from its start: what earlier
	// attempts streamed is void.
	Attempt int
	// Event is the stream function's event, a copy the receiver owns: its
	// Partial (a final event's Message) is the message so far.
	Event agentcore.AssistantEvent
}

// liveCopy is ev as a live event owns it: a copy sharing nothing with the
// model activity's message.
func liveCopy(ev agentcore.AssistantEvent) agentcore.AssistantEvent {
	switch ev := ev.(type) {
	case *agentcore.DoneEvent:
		c := *ev
		c.Message = cloneMessage(ev.Message)
		return &c
	case *agentcore.ErrorEvent:
		c := *ev
		c.Message = cloneMessage(ev.Message)
		return &c
	}
	return agentcore.CloneEvent(ev)
}

func cloneMessage(m *agentcore.AssistantMessage) *agentcore.AssistantMessage {
	if m == nil {
		return nil
	}
	return m.Clone()
}

// publish hands one live event to on, dropping it if on panics: a live
// view must not fail the request.
func publish(ctx context.Context, on func(context.Context, StreamEvent), ev StreamEvent) {
	_ = guardCall(func() { on(ctx, ev) })
}

// Live is an in-memory hub of live events, for clients in the workers'
// process: set [Options.OnStream] to [Live.Publish] and subscribe to a
// session with [Live.Subscribe]. Clients in other processes need a hub of
// their own making (a message bus, say) behind OnStream. A Live is safe for
// concurrent use; its zero value is not ready, use [NewLive].
type Live struct {
	buffer int
	mu     sync.Mutex
	subs   map[string]map[*Subscription]struct{}
}

// NewLive returns a hub whose subscriptions buffer up to buffer events
// each; buffer <= 0 means 1024.
func NewLive(buffer int) *Live {
	if buffer <= 0 {
		buffer = 1024
	}
	return &Live{buffer: buffer, subs: map[string]map[*Subscription]struct{}{}}
}

// Publish hands ev to every open subscription of its session without
// waiting: a subscription whose buffer is full loses it (see
// [Subscription.Dropped]). Its signature is [Options.OnStream]'s; ctx is
// not used.
func (l *Live) Publish(_ context.Context, ev StreamEvent) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for s := range l.subs[ev.SessionID] {
		select {
		case s.ch <- ev:
		default:
			s.dropped.Add(1)
		}
	}
}

// Subscribe returns a subscription to the live events of session id
// published from now on. Close it when done: an open subscription keeps
// receiving into its buffer.
func (l *Live) Subscribe(id string) *Subscription {
	s := &Subscription{l: l, id: id, ch: make(chan StreamEvent, l.buffer)}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.subs[id] == nil {
		l.subs[id] = map[*Subscription]struct{}{}
	}
	l.subs[id][s] = struct{}{}
	return s
}

// Subscription is one subscriber's view of a session's live events,
// made by [Live.Subscribe].
type Subscription struct {
	l       *Live
	id      string
	ch      chan StreamEvent
	dropped atomic.Int64
	closed  bool // guarded by l.mu
}

// Events yields the subscription's events in the order they were
// published, until ctx is done, the loop stops, or the subscription is
// closed and what it buffered has been yielded. It is meant for one
// consumer at a time.
func (s *Subscription) Events(ctx context.Context) iter.Seq[StreamEvent] {
	return func(yield func(StreamEvent) bool) {
		for {
			select {
			case ev, ok := <-s.ch:
				if !ok || !yield(ev) {
					return
				}
			case <-ctx.Done():
				return
			}
		}
	}
}

// Dropped counts the events this subscription lost because its buffer
// was full.
func (s *Subscription) Dropped() int64 { return s.dropped.Load() }

// Close ends the subscription: nothing is published to it any more, and
// [Subscription.Events] ends after the events already buffered. Closing
// twice does nothing.
func (s *Subscription) Close() {
	s.l.mu.Lock()
	defer s.l.mu.Unlock()
	if s.closed {
		return
	}
	s.closed = true
	delete(s.l.subs[s.id], s)
	if len(s.l.subs[s.id]) == 0 {
		delete(s.l.subs, s.id)
	}
	close(s.ch)
}
