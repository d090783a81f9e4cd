package hold

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/pi-go/agentcore/internal/limit"
)

// Call is a held tool call: what the person decides on, and their decision
// once made. It is plain data and round-trips as JSON.
type Call struct {
	// ID is the tool call's ID, as the model sent it.
	ID string `json:"id"`
	// Tool is the name of the called tool.
	Tool string `json:"tool"`
	// Arguments are the validated arguments the tool would get.
	Arguments json.RawMessage `json:"arguments"`
	// Request is what the policy asked the person, its Deadline set from
	// [Options].Timeout when the policy left it zero.
	Request
	// HeldAt is when the call was held.
	HeldAt time.Time `json:"heldAt"`
	// Decision is the person's decision, or nil while the call waits.
	Decision Decision `json:"-"`
	// ByDeadline is set when Decision is the default the deadline applied.
	ByDeadline bool `json:"byDeadline,omitempty"`
}

// callWire is a Call without its methods, for its JSON body.
type callWire Call

// MarshalJSON writes the call with its decision under "decision".
func (c Call) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		callWire
		Decision Decision `json:"decision,omitempty"`
	}{callWire(c), c.Decision})
}

// UnmarshalJSON reads a call as MarshalJSON writes it.
func (c *Call) UnmarshalJSON(data []byte) error {
	var w struct {
		callWire
		Decision json.RawMessage `json:"decision,omitempty"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*c = Call(w.callWire)
	if len(w.Decision) > 0 && string(w.Decision) != "null" {
		d, err := UnmarshalDecision(w.Decision)
		if err != nil {
			return fmt.Errorf("call %s: %w", limit.Quote(c.ID), err)
		}
		c.Decision = d
	}
	return nil
}

// clone returns a copy of c whose slices the caller owns.
func (c Call) clone() Call {
	c.Arguments = slices.Clone(c.Arguments)
	c.Request = c.Request.clone()
	return c
}

// expired reports whether c waits past its deadline at now.
func (c *Call) expired(now time.Time) bool {
	return c.Decision == nil && !c.Deadline.IsZero() && !now.Before(c.Deadline)
}

// State is everything a [Gate] holds: the held calls of one turn, in call
// order, decided or not. A program persists it with the transcript
// (json.Marshal) and gives it to a new Gate with [Gate.Restore]. The zero
// State holds nothing.
type State struct {
	Calls []Call `json:"calls"`
}

// Undecided returns the calls still waiting for a decision (copies).
func (s State) Undecided() []Call {
	var out []Call
	for _, c := range s.Calls {
		if c.Decision == nil {
			out = append(out, c.clone())
		}
	}
	return out
}

// clone returns a deep copy of s.
func (s State) clone() State {
	if s.Calls == nil {
		return State{}
	}
	out := State{Calls: make([]Call, len(s.Calls))}
	for i, c := range s.Calls {
		out.Calls[i] = c.clone()
	}
	return out
}

// check reports what makes s unusable: a call without an ID or tool, two
// calls with one ID, arguments that are not a JSON object, a decision of
// another call.
func (s State) check() error {
	seen := map[string]bool{}
	for i, c := range s.Calls {
		switch {
		case c.ID == "" || c.Tool == "":
			return fmt.Errorf("%w: calls[%d] has no ID or tool", ErrInvalidState, i)
		case seen[c.ID]:
			return fmt.Errorf("%w: call %s is held twice", ErrInvalidState, limit.Quote(c.ID))
		case !isObject(c.Arguments):
			return fmt.Errorf("%w: call %s has arguments that are not a JSON object", ErrInvalidState, limit.Quote(c.ID))
		case c.Decision != nil && c.Decision.callID() != c.ID:
			return fmt.Errorf("%w: call %s holds the decision of call %s", ErrInvalidState, limit.Quote(c.ID), limit.Quote(c.Decision.callID()))
		}
		seen[c.ID] = true
	}
	return nil
}
