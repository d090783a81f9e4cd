package agentcore

import "slices"

// toolState caches, for one run, the tools the context's transcript declares
// and the declarations of the executable tools, so that declaring tool
// changes before each request costs only the messages added since the last
// one, not the whole transcript.
type toolState struct {
	declared   []ToolDeclaration // replay of cur.Messages[:upTo]
	upTo       int
	executable []ToolDeclaration
	haveExec   bool
}

// reset forgets the cache after the context was replaced.
func (s *toolState) reset() { *s = toolState{} }

// declaredTools returns the tools the system messages of the engine's
// context declare, replaying only the messages added since the last call
// (all of them when the context shrank). The result is the cache's: the
// caller must not modify it.
func (e *engine) declaredTools() []ToolDeclaration {
	s := &e.tools
	msgs := e.cur.Messages
	if s.upTo > len(msgs) {
		s.reset()
	}
	for _, m := range msgs[s.upTo:] {
		if sys, ok := m.(*SystemMessage); ok {
			s.declared = applyToolChanges(s.declared, sys)
		}
	}
	s.upTo = len(msgs)
	return s.declared
}

// executableTools returns the declarations of the context's tools.
func (e *engine) executableTools() []ToolDeclaration {
	s := &e.tools
	if !s.haveExec {
		s.executable = make([]ToolDeclaration, len(e.cur.Tools))
		for i, t := range e.cur.Tools {
			s.executable[i] = t.Declaration()
		}
		s.haveExec = true
	}
	return s.executable
}

// declareToolChanges returns pending with the difference between the tools
// the transcript declares and the executable tools declared in a system
// message. When pending holds a system message, the last one's tool fields
// are intent: they are replaced by the real delta, so that replay always
// yields exactly the executable tools. Otherwise a new system message goes
// before the first non-system pending message, whose index in the result is
// inserted (-1 when none was). pending is not modified.
func (e *engine) declareToolChanges(pending []Message) (_ []Message, inserted int) {
	sysIndex := -1
	for i := len(pending) - 1; i >= 0; i-- {
		if _, ok := pending[i].(*SystemMessage); ok {
			sysIndex = i
			break
		}
	}
	declared := e.declaredTools()
	var sys *SystemMessage
	if sysIndex >= 0 {
		sys = pending[sysIndex].(*SystemMessage)
	}
	// Replay the pending messages on top of the transcript, the pending
	// system message's own tool fields left out.
	replayed := declared
	for i, m := range pending {
		if s, ok := m.(*SystemMessage); ok && i != sysIndex {
			replayed = applyToolChanges(slices.Clone(replayed), s)
		}
	}
	changes := diffTools(replayed, e.executableTools())
	if sys != nil {
		if changes.Empty() && len(sys.ToolsAdded) == 0 && len(sys.ToolsRemoved) == 0 {
			return pending, -1
		}
		out := append([]Message(nil), pending...)
		c := *sys
		c.ToolsAdded, c.ToolsRemoved = changes.Added, changes.Removed
		out[sysIndex] = &c
		return out, -1
	}
	if changes.Empty() {
		return pending, -1
	}
	update := &SystemMessage{Content: Text(""), ToolsAdded: changes.Added, ToolsRemoved: changes.Removed, Timestamp: nowMillis()}
	at := len(pending)
	for i, m := range pending {
		if _, ok := m.(*SystemMessage); !ok {
			at = i
			break
		}
	}
	out := make([]Message, 0, len(pending)+1)
	out = append(out, pending[:at]...)
	out = append(out, update)
	return append(out, pending[at:]...), at
}
