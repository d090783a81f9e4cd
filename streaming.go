package agentcore

import "sync/atomic"

// streamingState is what an Agent knows, for State, of the message between
// its message_start and message_end. A streamed assistant message's updates,
// the hot path, are recorded without the Agent's lock.
type streamingState struct {
	// live: the partials of the events are the stream's own message
	// (Options.LivePartials), which must be copied to be kept. They are
	// copied only once State was called during a stream: until then an
	// update costs nothing.
	live  bool
	asked atomic.Bool

	// latest is the latest partial of a streamed assistant message, a copy
	// nobody changes; other is a message of another role between its start
	// and end (under the Agent's mu).
	latest atomic.Pointer[AssistantMessage]
	other  Message

	// started is, with live partials, the streamed assistant message as it
	// started (when starting is set), kept in place rather than copied per
	// message: State copies it if it asks before an update was copied.
	// Under the Agent's mu.
	started  AssistantMessage
	blocks   []ContentBlock // started's content, reused
	starting bool
}

// start records a message_start, under the Agent's mu.
func (s *streamingState) start(m Message) {
	s.clear()
	am, ok := m.(*AssistantMessage)
	switch {
	case !ok:
		s.other = m
	case s.live:
		s.blocks = append(s.blocks, am.Content...)
		s.started = *am
		s.started.Content = s.blocks
		s.starting = true
	default:
		s.latest.Store(am)
	}
}

// update records a message_update; it needs no lock.
func (s *streamingState) update(m *AssistantMessage) {
	switch {
	case !s.live:
		s.latest.Store(m)
	case s.asked.Load():
		s.latest.Store(m.Clone())
	}
}

// clear forgets the message, under the Agent's mu.
func (s *streamingState) clear() {
	// Stored only when set: clear runs for every message, and a store
	// costs a write barrier while a collection marks.
	if s.other != nil {
		s.other = nil
	}
	if s.latest.Load() != nil {
		s.latest.Store(nil)
	}
	if s.starting {
		clear(s.blocks)
		s.started, s.blocks, s.starting = AssistantMessage{}, s.blocks[:0], false
	}
}

// message returns the message for State, under the Agent's mu. With live
// partials, an assistant message is as of its start until State has been
// called during a stream, and as of its latest update from then on.
func (s *streamingState) message() Message {
	if s.live {
		s.asked.Store(true)
	}
	if m := s.latest.Load(); m != nil {
		return m
	}
	if s.starting {
		c := s.started.Clone()
		if s.latest.CompareAndSwap(nil, c) {
			return c
		}
		// An update stored its copy meanwhile, which is later.
		return s.latest.Load()
	}
	return s.other
}
