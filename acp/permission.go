package acp

import (
	"context"
	"errors"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/hold"
)

// The permission options offered for every held call.
const (
	optAllowOnce    = "allow_once"
	optAllowAlways  = "allow_always"
	optRejectOnce   = "reject_once"
	optRejectAlways = "reject_always"
)

var permissionOptions = []permissionOption{
	{OptionID: optAllowOnce, Name: "Allow", Kind: "allow_once"},
	{OptionID: optAllowAlways, Name: "Always allow", Kind: "allow_always"},
	{OptionID: optRejectOnce, Name: "Reject", Kind: "reject_once"},
	{OptionID: optRejectAlways, Name: "Always reject", Kind: "reject_always"},
}

const (
	textRejected  = "The user rejected this tool call."
	textCancelled = "The prompt was cancelled before this tool call was allowed to run."
)

// policy wraps the program's policy: a tool the user allowed for the
// session is let through without asking.
func (s *sess) policy(p hold.Policy) hold.Policy {
	if p == nil {
		return nil
	}
	return func(ctx context.Context, call agentcore.BeforeToolCallContext) (*hold.Request, error) {
		s.mu.Lock()
		allow, ok := s.always[call.ToolCall.Name]
		s.mu.Unlock()
		if ok && allow {
			return nil, nil
		}
		return p(ctx, call)
	}
}

// askPermissions asks the client about each call the Gate holds
// undecided, one at a time, and decides it by the answer. A call whose
// tool the user answered "always" for meanwhile is decided without
// asking. It reports whether every call is decided: when ctx ends, the
// connection does or the user cancels, it returns false, leaving the rest
// undecided.
func (s *sess) askPermissions(ctx context.Context) bool {
	for _, call := range s.gate.State().Calls {
		if call.Decision != nil {
			continue
		}
		if ctx.Err() != nil {
			return false
		}
		s.mu.Lock()
		allow, remembered := s.always[call.Tool]
		s.mu.Unlock()
		var d hold.Decision
		switch {
		case remembered && allow:
			d = hold.Approve{ID: call.ID}
		case remembered:
			d = hold.Deny{ID: call.ID, Reason: textRejectedAlways}
		default:
			d = s.ask(ctx, call)
		}
		if d == nil {
			return false
		}
		// The call is held and undecided: Decide refuses nothing here.
		_ = s.gate.Decide(d)
	}
	return true
}

// holds reports whether the server's Gate holds a call undecided.
func (s *sess) holds() bool {
	for _, c := range s.gate.State().Calls {
		if c.Decision == nil {
			return true
		}
	}
	return false
}

// ask sends one session/request_permission and returns the decision;
// nil when ctx ended or the connection did (the call is then left
// undecided, and the prompt ends cancelled).
func (s *sess) ask(ctx context.Context, call hold.Call) hold.Decision {
	tc := s.tools.permissionView(call)
	var res requestPermissionResponse
	err := s.c.rpc.call(ctx, "session/request_permission", requestPermissionRequest{
		SessionID: s.id, ToolCall: tc, Options: permissionOptions,
	}, &res)
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, ErrClosed) {
			return nil
		}
		// The client failed the request: take it as a refusal.
		return hold.Deny{ID: call.ID, Reason: textRejected}
	}
	if res.Outcome.Outcome != "selected" {
		// "cancelled": the client cancelled the prompt.
		s.cancelPrompt()
		return nil
	}
	switch res.Outcome.OptionID {
	case optAllowAlways:
		s.remember(call.Tool, true)
		return hold.Approve{ID: call.ID}
	case optAllowOnce:
		return hold.Approve{ID: call.ID}
	case optRejectAlways:
		s.remember(call.Tool, false)
		return hold.Deny{ID: call.ID, Reason: textRejectedAlways}
	}
	return hold.Deny{ID: call.ID, Reason: textRejected}
}

// denyWaiting decides every call still waiting with a denial, so that the
// next run replaces its placeholder, and tells the client each failed.
func (s *sess) denyWaiting(reason string) {
	for _, call := range s.gate.State().Calls {
		if call.Decision != nil {
			continue
		}
		if s.gate.Decide(hold.Deny{ID: call.ID, Reason: reason}) == nil {
			s.tools.finish(call.ID, agentcore.TextResult(reason), true)
		}
	}
}

// onHoldEvent reports a held call's final result, once the Gate replaced
// its placeholder (the Agent's listeners see no event for it).
func (s *sess) onHoldEvent(ev hold.Event) {
	if r, ok := ev.(*hold.ResolvedEvent); ok && r.Result != nil {
		if s.tools.settle(r.Call.ID) {
			return
		}
		s.tools.finish(r.Call.ID, agentcore.ToolResult{Content: r.Result.Content, Details: r.Result.Details}, r.Result.IsError)
	}
}
