package hold

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/pi-go/agentcore"
)

// Policy decides whether a tool call is held for a person's decision. It is
// called from the Gate's BeforeToolCall hook, on the run's goroutine, with
// the run's ctx, once the call's arguments were validated (call.Args are
// the validated arguments: read-only). A nil request lets the call run; a
// non-nil one holds it, and the Gate keeps a copy. An error fails the call
// with its text, as a BeforeToolCall error does.
type Policy func(ctx context.Context, call agentcore.BeforeToolCallContext) (*Request, error)

// Request is what a person is shown to decide a held call. Every field is
// optional and plain data: it is stored with the held call ([Call]) and
// round-trips as JSON.
type Request struct {
	// Title is a short line for the person: "Deploy web to production?".
	Title string `json:"title,omitempty"`
	// Reason says why the call needs a decision.
	Reason string `json:"reason,omitempty"`
	// Touches lists what the call will act on: paths, hosts, accounts.
	Touches []string `json:"touches,omitempty"`
	// Metadata is the program's own JSON for its UI; the Gate never reads
	// it.
	Metadata json.RawMessage `json:"metadata,omitempty"`
	// Deadline, when not zero, is when [Options].OnDeadline's decision is
	// applied if the person has not decided. Zero means [Options].Timeout
	// after the call was held, or no deadline when that is zero too.
	Deadline time.Time `json:"deadline,omitzero"`
}

// clone returns a copy of r whose slices the Gate owns.
func (r Request) clone() Request {
	r.Touches = slices.Clone(r.Touches)
	r.Metadata = slices.Clone(r.Metadata)
	return r
}

// Always holds every call of the named tools with req (copied for each
// call).
func Always(req Request, tools ...string) Policy {
	names := slices.Clone(tools)
	return func(_ context.Context, call agentcore.BeforeToolCallContext) (*Request, error) {
		if !slices.Contains(names, call.ToolCall.Name) {
			return nil, nil
		}
		r := req.clone()
		return &r, nil
	}
}

// When holds the calls of tool whose arguments ask says need a decision:
// ask gets the validated arguments decoded into A ([agentcore.DecodeArgs])
// and returns the request, or nil to let the call run. Arguments that do
// not decode into A fail the call with the decoding error.
func When[A any](tool string, ask func(args A) *Request) Policy {
	return func(_ context.Context, call agentcore.BeforeToolCallContext) (*Request, error) {
		if call.ToolCall.Name != tool {
			return nil, nil
		}
		args, err := agentcore.DecodeArgs[A](call.Args)
		if err != nil {
			return nil, err
		}
		return ask(args), nil
	}
}

// First combines policies: each is asked in order until one holds the call
// or fails; nil policies are skipped.
func First(policies ...Policy) Policy {
	ps := slices.DeleteFunc(slices.Clone(policies), func(p Policy) bool { return p == nil })
	return func(ctx context.Context, call agentcore.BeforeToolCallContext) (*Request, error) {
		for _, p := range ps {
			if req, err := p(ctx, call); err != nil || req != nil {
				return req, err
			}
		}
		return nil, nil
	}
}
