package agentmcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pi-go/agentcore/hold"
)

// ErrWaiting is the error result of a call to an [AgentTool] whose Agent
// still waits for a person's decision asked of an earlier call (through
// its client's elicitation) that has not come back.
var ErrWaiting = errors.New("agentmcp: the agent waits for a person's decision on an earlier request")

// The texts the model reads for held calls the person did not approve.
const (
	// ReasonNoElicitation is the denial of a held call when the client
	// that made the request cannot ask a person.
	ReasonNoElicitation = "This tool call needs a person's approval, and the MCP client that made the request cannot ask for one (it does not support elicitation), so it was denied."
	reasonDeclined      = "The user declined this tool call."
	reasonCancelled     = "The user dismissed the request for a decision without deciding; the tool call was denied."
	reasonDenied        = "The user denied this tool call"
	reasonUnreadable    = "The user's answer could not be read; the tool call was denied."
	reasonNoAnswer      = "No answer came for this tool call; it was denied."
	reasonNotAsked      = "The user could not be asked"
	reasonGone          = "The request was cancelled before the user decided; the tool call was denied."
)

// Fields of the form a person answers for a held call.
const (
	fieldApprove = "approve"
	fieldReason  = "reason"
)

// decisionSchema is the form of every elicitation: a flat object of
// primitive properties, as elicitation/create requires.
var decisionSchema = json.RawMessage(`{"type":"object","properties":{` +
	`"approve":{"type":"boolean","title":"Approve","description":"Let the agent run this tool call.","default":true},` +
	`"reason":{"type":"string","title":"Reason","description":"Why not, when you do not approve it; the agent reads it."}}}`)

// maxShownArguments bounds the arguments quoted in an elicitation's message.
const maxShownArguments = 2000

// elicitation is the elicitation/create request that asks a person about
// the held call c.
func elicitation(c hold.Call) *mcp.ElicitParams {
	var sb strings.Builder
	if c.Title != "" {
		sb.WriteString(c.Title)
	} else {
		fmt.Fprintf(&sb, "The agent wants to run the tool %q.", c.Tool)
	}
	if c.Reason != "" {
		sb.WriteString("\n" + c.Reason)
	}
	if len(c.Touches) > 0 {
		sb.WriteString("\nTouches: " + strings.Join(c.Touches, ", "))
	}
	args := string(c.Arguments)
	if len(args) > maxShownArguments {
		args = args[:maxShownArguments] + "…"
	}
	fmt.Fprintf(&sb, "\nTool: %s\nArguments: %s", c.Tool, args)
	return &mcp.ElicitParams{Mode: "form", Message: sb.String(), RequestedSchema: decisionSchema}
}

// elicitations are the requests for calls, keyed by call ID.
func elicitations(calls []hold.Call) mcp.InputRequestMap {
	out := make(mcp.InputRequestMap, len(calls))
	for _, c := range calls {
		out[c.ID] = elicitation(c)
	}
	return out
}

// decision turns a person's answer on the call id into a decision: accept
// approves unless the form says approve is false (a denial with its
// reason); decline and cancel deny. A nil answer, or one that does not
// read, denies.
func decision(id string, res *mcp.ElicitResult) hold.Decision {
	if res == nil {
		return hold.Deny{ID: id, Reason: reasonNoAnswer}
	}
	switch res.Action {
	case "accept":
	case "decline":
		return hold.Deny{ID: id, Reason: reasonDeclined}
	case "cancel":
		return hold.Deny{ID: id, Reason: reasonCancelled}
	default:
		return hold.Deny{ID: id, Reason: reasonUnreadable}
	}
	approve, ok := true, true
	if v, set := res.Content[fieldApprove]; set {
		approve, ok = v.(bool)
	}
	if !ok {
		return hold.Deny{ID: id, Reason: reasonUnreadable}
	}
	if approve {
		return hold.Approve{ID: id}
	}
	reason, _ := res.Content[fieldReason].(string)
	if reason = strings.TrimSpace(reason); reason == "" {
		return hold.Deny{ID: id, Reason: reasonDenied + "."}
	}
	return hold.Deny{ID: id, Reason: reasonDenied + ": " + reason}
}

// decisions turns the answers to the elicitations of the calls ids into
// decisions, one per call: a call without an answer, or with an answer
// that is not an elicitation's, is denied.
func decisions(ids []string, answers mcp.InputResponseMap) []hold.Decision {
	out := make([]hold.Decision, len(ids))
	for i, id := range ids {
		res, _ := answers[id].(*mcp.ElicitResult)
		out[i] = decision(id, res)
	}
	return out
}

// denials deny calls with reason.
func denials(calls []hold.Call, reason string) []hold.Decision {
	out := make([]hold.Decision, len(calls))
	for i, c := range calls {
		out[i] = hold.Deny{ID: c.ID, Reason: reason}
	}
	return out
}

// callIDs are the IDs of calls.
func callIDs(calls []hold.Call) []string {
	out := make([]string, len(calls))
	for i, c := range calls {
		out[i] = c.ID
	}
	return out
}

// canElicit reports whether the client that made req declared the
// elicitation capability.
func canElicit(req *mcp.CallToolRequest) bool {
	caps := req.ClientCapabilities()
	return caps != nil && caps.Elicitation != nil
}

// multiRoundTrip is the first protocol version in which a server asks the
// client for input by answering with input requests (SEP-2322) rather
// than by sending it requests of its own.
const multiRoundTrip = "2026-07-28"

// asksInline reports whether the client of req speaks a protocol version
// older than [multiRoundTrip], to which the server sends elicitation/create
// requests itself while a call runs, as the SDK decides.
func asksInline(req *mcp.CallToolRequest) bool {
	if req.Session == nil {
		return false
	}
	p := req.Session.InitializeParams()
	return p != nil && p.ProtocolVersion < multiRoundTrip
}

// askInline asks the client of req about calls, one elicitation/create
// request after the other, and returns the decisions. A request that
// fails denies its call with the error's text; the ctx's end is an error.
func askInline(ctx context.Context, req *mcp.CallToolRequest, calls []hold.Call) ([]hold.Decision, error) {
	out := make([]hold.Decision, len(calls))
	for i, c := range calls {
		res, err := req.Session.Elicit(ctx, elicitation(c))
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil:
			out[i] = hold.Deny{ID: c.ID, Reason: fmt.Sprintf("%s (%v); the tool call was denied.", reasonNotAsked, err)}
		default:
			out[i] = decision(c.ID, res)
		}
	}
	return out, nil
}

// newRequestState returns a random token naming one outstanding
// elicitation: the state itself stays on the server, so the token needs no
// signature.
func newRequestState() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return hex.EncodeToString(b)
}
