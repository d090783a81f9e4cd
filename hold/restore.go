package hold

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/limit"
)

// matches reports, with an error wrapping [ErrInvalidState], how the held
// calls of s disagree with messages, the transcript they were held in:
// a call the transcript did not make, or made to another tool; a call
// whose result is no longer the Gate's placeholder (it was resolved); a
// placeholder of the same turn that s does not hold.
func (g *Gate) matches(messages []agentcore.Message, s State) error {
	h, err := locate(messages, s)
	if err != nil {
		return err
	}
	inState := make(map[string]bool, len(s.Calls))
	for _, c := range s.Calls {
		inState[c.ID] = true
		for _, tc := range h.assistant.ToolCalls() {
			if tc.ID == c.ID && tc.Name != c.Tool {
				return fmt.Errorf("%w: call %s is a call of %s in the transcript, not of %s",
					ErrInvalidState, limit.Quote(c.ID), limit.Quote(tc.Name), limit.Quote(c.Tool))
			}
		}
		if !g.isPlaceholder(messages[h.results[c.ID]]) {
			return fmt.Errorf("%w: call %s has a result in the transcript that is not the Gate's placeholder", ErrInvalidState, limit.Quote(c.ID))
		}
	}
	for id, i := range h.results {
		if !inState[id] && g.isPlaceholder(messages[i]) {
			return fmt.Errorf("%w: the transcript holds call %s, which the state does not", ErrInvalidState, limit.Quote(id))
		}
	}
	return nil
}

// isPlaceholder reports whether m is a held call's placeholder result.
func (g *Gate) isPlaceholder(m agentcore.Message) bool {
	r, ok := m.(*agentcore.ToolResultMessage)
	return ok && r.IsError && r.Text() == g.opts.Placeholder
}

// heldIn reports whether the transcript messages still holds the calls of
// s, to resolve them. A state given to [Gate.Restore] must match the
// transcript ([Gate.matches]): when it does not, the run is refused with
// the error, and nothing changes. A state the Gate held itself whose
// placeholders the program's edits removed is discarded, with a
// [DiscardedEvent].
func (g *Gate) heldIn(messages []agentcore.Message, s State) (bool, error) {
	g.mu.Lock()
	restored := g.restored
	g.mu.Unlock()
	if restored {
		if err := g.matches(messages, s); err != nil {
			return false, err
		}
		g.mu.Lock()
		g.restored = false
		g.mu.Unlock()
		return true, nil
	}
	if _, err := locate(messages, s); err != nil {
		g.mu.Lock()
		g.state = State{}
		g.signal()
		g.mu.Unlock()
		g.emit(&DiscardedEvent{Calls: s.Calls})
		return false, nil
	}
	return true, nil
}

// isObject reports whether raw is a JSON object.
func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	return len(raw) > 0 && raw[0] == '{' && json.Valid(raw)
}
