package agui

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/hold"
	"github.com/pi-go/agentcore/internal/limit"
)

// Resume is one entry of RunAgentInput.resume: the answer to an interrupt
// of the thread's last run (see the package documentation's Interrupts
// section).
type Resume struct {
	// InterruptID is the ID of the interrupt answered: the held tool
	// call's ID.
	InterruptID string
	// Status is "resolved" (Payload carries the answer) or "cancelled"
	// (the person gave none: the call is denied).
	Status string
	// Payload is the answer, raw JSON: an [ApprovalPayload]. Nil when the
	// client sent none.
	Payload json.RawMessage
}

// ApprovalPayload is the payload of a resume entry that decides a held
// tool call, the shape [ApprovalSchema] describes: Approved runs the call
// (with EditedArgs, a full replacement of its arguments, when given); not
// Approved denies it, the model reading Reason; Result, when set, is the
// call's result instead of running it (a tool the front-end ran itself).
type ApprovalPayload struct {
	Approved   *bool           `json:"approved"`
	Reason     string          `json:"reason,omitempty"`
	EditedArgs json.RawMessage `json:"editedArgs,omitempty"`
	Result     *string         `json:"result,omitempty"`
}

// ApprovalSchema is the responseSchema of the handler's interrupts: the
// JSON Schema of an [ApprovalPayload].
const ApprovalSchema = `{"type":"object","properties":{` +
	`"approved":{"type":"boolean","description":"Run the tool call (true) or deny it (false)."},` +
	`"reason":{"type":"string","description":"Why the call is denied: the agent reads it."},` +
	`"editedArgs":{"type":"object","description":"Full replacement of the tool call's arguments. Not merged."},` +
	`"result":{"type":"string","description":"The call's result, given instead of running it."}},` +
	`"required":["approved"]}`

// Texts of the decisions the handler makes for a person.
const (
	textCancelled  = "The user dismissed this tool call without deciding; it did not run."
	reasonToolCall = "tool_call"
)

// interrupt is an AG-UI Interrupt for a held tool call.
type interrupt struct {
	ID             string          `json:"id"`
	Reason         string          `json:"reason"`
	Message        string          `json:"message,omitempty"`
	ToolCallID     string          `json:"toolCallId"`
	ResponseSchema json.RawMessage `json:"responseSchema"`
	ExpiresAt      string          `json:"expiresAt,omitempty"`
	Metadata       interruptMeta   `json:"metadata"`
}

// interruptMeta is what a page shows a person about a held call, from
// the call and the policy's [hold.Request].
type interruptMeta struct {
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	Title     string          `json:"title,omitempty"`
	Reason    string          `json:"reason,omitempty"`
	Touches   []string        `json:"touches,omitempty"`
	Data      json.RawMessage `json:"data,omitempty"`
}

// interrupts are the AG-UI interrupts of calls waiting for a decision.
func interrupts(calls []hold.Call) []interrupt {
	out := make([]interrupt, len(calls))
	for i, c := range calls {
		msg := c.Title
		if msg == "" {
			msg = fmt.Sprintf("Run %s?", c.Tool)
		}
		out[i] = interrupt{
			ID: c.ID, Reason: reasonToolCall, Message: msg, ToolCallID: c.ID,
			ResponseSchema: json.RawMessage(ApprovalSchema),
			Metadata: interruptMeta{
				Tool: c.Tool, Arguments: argsOrEmpty(c.Arguments), Title: c.Title, Reason: c.Reason,
				Touches: c.Touches, Data: c.Metadata,
			},
		}
		if !c.Deadline.IsZero() {
			out[i].ExpiresAt = c.Deadline.UTC().Format(time.RFC3339Nano)
		}
	}
	return out
}

// errInterrupt marks the errors of a request that breaks the interrupt
// contract: answered with RUN_ERROR (code [codeInterrupt]), as AG-UI
// wants, changing nothing.
var errInterrupt = errors.New("agui: interrupt")

// codeInterrupt is the code of the RUN_ERROR for a request that breaks
// the interrupt contract.
const codeInterrupt = "interrupt"

// decisions maps a request's resume entries onto decisions of the held
// calls of gate: every call waiting must be answered, and only those.
// Cancelling a call its deadline decided is accepted and changes nothing.
func decisions(gate *hold.Gate, resume []Resume) ([]hold.Decision, error) {
	s := gate.State()
	waiting := s.Undecided()
	var out []hold.Decision
	answered := map[string]bool{}
	for i, r := range resume {
		held := slices.IndexFunc(s.Calls, func(c hold.Call) bool { return c.ID == r.InterruptID })
		open := slices.ContainsFunc(waiting, func(c hold.Call) bool { return c.ID == r.InterruptID })
		switch {
		case answered[r.InterruptID]:
			return nil, fmt.Errorf("%w: resume[%d]: interrupt %s is answered twice", errInterrupt, i, limit.Quote(r.InterruptID))
		case !open && held >= 0 && r.Status == statusCancelled:
			answered[r.InterruptID] = true
			continue // decided by its deadline meanwhile
		case !open:
			return nil, fmt.Errorf("%w: resume[%d]: interrupt %s is not open on this thread", errInterrupt, i, limit.Quote(r.InterruptID))
		}
		answered[r.InterruptID] = true
		d, err := decision(r)
		if err != nil {
			return nil, fmt.Errorf("%w: resume[%d]: %v", errInterrupt, i, err)
		}
		out = append(out, d)
	}
	var missing []string
	for _, c := range waiting {
		if !answered[c.ID] {
			missing = append(missing, c.ID)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w: the thread waits for a decision on %q: resume must answer every open interrupt", errInterrupt, missing)
	}
	return out, nil
}

// The statuses of a resume entry.
const (
	statusResolved  = "resolved"
	statusCancelled = "cancelled"
)

// decision is the decision a resume entry asks for.
func decision(r Resume) (hold.Decision, error) {
	if r.Status == statusCancelled {
		return hold.Deny{ID: r.InterruptID, Reason: textCancelled}, nil
	}
	var p ApprovalPayload
	if len(r.Payload) == 0 || json.Unmarshal(r.Payload, &p) != nil {
		return nil, errors.New("payload: want an object with approved, as the interrupt's responseSchema says")
	}
	switch {
	case p.Result != nil:
		return hold.Answer{ID: r.InterruptID, Result: agentcore.TextResult(*p.Result)}, nil
	case p.Approved == nil:
		return nil, errors.New("payload: approved is required")
	case *p.Approved:
		return hold.Approve{ID: r.InterruptID, Arguments: nullToNil(p.EditedArgs)}, nil
	}
	return hold.Deny{ID: r.InterruptID, Reason: p.Reason}, nil
}

// gateOf returns the first [hold.Gate] of layers, or nil.
func gateOf(layers []agentcore.Layer) *hold.Gate {
	for _, l := range layers {
		if g, ok := l.(*hold.Gate); ok && g != nil {
			return g
		}
	}
	return nil
}

// decodeResume reads RunAgentInput.resume; errors wrap [ErrBadInput].
func decodeResume(raw []json.RawMessage) ([]Resume, error) {
	out := make([]Resume, len(raw))
	for i, r := range raw {
		var w struct {
			InterruptID string          `json:"interruptId"`
			Status      string          `json:"status"`
			Payload     json.RawMessage `json:"payload"`
		}
		if err := json.Unmarshal(r, &w); err != nil {
			return nil, fmt.Errorf("%w: resume[%d]: %v", ErrBadInput, i, jsonError(err))
		}
		switch {
		case w.InterruptID == "":
			return nil, fmt.Errorf("%w: resume[%d]: interruptId is required", ErrBadInput, i)
		case w.Status != statusResolved && w.Status != statusCancelled:
			return nil, fmt.Errorf("%w: resume[%d]: status must be %q or %q", ErrBadInput, i, statusResolved, statusCancelled)
		}
		out[i] = Resume{InterruptID: w.InterruptID, Status: w.Status, Payload: nullToNil(w.Payload)}
	}
	return out, nil
}
