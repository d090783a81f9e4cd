package hold

import (
	"encoding/json"
	"fmt"

	"github.com/pi-go/agentcore"
)

// Decision is a person's decision on one held call: [Approve], [Deny] or
// [Answer]. The set is closed. Each names its call by ID and marshals as a
// JSON object with a "type" field; [UnmarshalDecision] reads it back.
type Decision interface {
	// callID is the ID of the decided call.
	callID() string
}

// Approve lets the held call run. Arguments, when not nil, replace the
// model's arguments (a JSON object): they are prepared and validated like
// the model's ([agentcore.RunToolCall]), and the model is told, in its
// result, that the person changed them.
type Approve struct {
	ID        string          `json:"id"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// Deny refuses the held call: it does not run, and the model gets an error
// result whose text is Reason ("The user denied this tool call." when
// empty).
type Deny struct {
	ID     string `json:"id"`
	Reason string `json:"reason,omitempty"`
}

// Answer supplies the held call's result instead of running it: a tool the
// program or a front-end runs itself. Result.IsError marks a failure;
// Result.Terminate is ignored.
type Answer struct {
	ID     string               `json:"id"`
	Result agentcore.ToolResult `json:"result"`
}

func (d Approve) callID() string { return d.ID }
func (d Deny) callID() string    { return d.ID }
func (d Answer) callID() string  { return d.ID }

// The wire names of the decisions.
const (
	typeApprove = "approve"
	typeDeny    = "deny"
	typeAnswer  = "answer"
)

// approveWire, denyWire and answerWire are the decisions without their
// MarshalJSON methods, for the bodies of their JSON objects.
type (
	approveWire Approve
	denyWire    Deny
	answerWire  Answer
)

// MarshalJSON writes {"type": "approve", "id", "arguments"}.
func (d Approve) MarshalJSON() ([]byte, error) { return marshalTyped(typeApprove, approveWire(d)) }

// MarshalJSON writes {"type": "deny", "id", "reason"}.
func (d Deny) MarshalJSON() ([]byte, error) { return marshalTyped(typeDeny, denyWire(d)) }

// MarshalJSON writes {"type": "answer", "id", "result"}.
func (d Answer) MarshalJSON() ([]byte, error) { return marshalTyped(typeAnswer, answerWire(d)) }

// marshalTyped writes v, a struct, with a leading "type" field.
func marshalTyped(typ string, v any) ([]byte, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	out := fmt.Appendf(nil, `{"type":%q`, typ)
	if len(body) > 2 {
		out = append(out, ',')
	}
	return append(out, body[1:]...), nil
}

// UnmarshalDecision reads a decision as its MarshalJSON writes it. An
// unknown or missing type, or a body that does not decode, is an error
// wrapping [ErrInvalidDecision].
func UnmarshalDecision(data []byte) (Decision, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidDecision, err)
	}
	var (
		d   Decision
		err error
	)
	switch head.Type {
	case typeApprove:
		var w approveWire
		err = json.Unmarshal(data, &w)
		d = Approve(w)
	case typeDeny:
		var w denyWire
		err = json.Unmarshal(data, &w)
		d = Deny(w)
	case typeAnswer:
		var w answerWire
		err = json.Unmarshal(data, &w)
		d = Answer(w)
	default:
		return nil, fmt.Errorf("%w: unknown type %q", ErrInvalidDecision, head.Type)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrInvalidDecision, head.Type, err)
	}
	return d, nil
}
