package agui

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
)

// RunInput is one decoded AG-UI request (RunAgentInput), as
// [Options.Prepare] sees it. Its slices and raw JSON are the handler's:
// read them, do not modify them.
type RunInput struct {
	// ThreadID names the conversation; RunID names this run. Both are
	// required.
	ThreadID string
	RunID    string
	// ParentRunID, optional, is the run this one branches from.
	ParentRunID string
	// State is the client's state, raw JSON; nil when it sent none.
	State json.RawMessage
	// Messages are the conversation as the client holds it, each message's
	// JSON as sent.
	Messages []json.RawMessage
	// Tools are the front-end tools: the model may call them, and the
	// client answers the calls (see the package documentation).
	Tools []Tool
	// Context is the ambient information the client gives the run.
	Context []Context
	// ForwardedProps are the client's extra properties, raw JSON; nil
	// when it sent none.
	ForwardedProps json.RawMessage
	// Resume answers the interrupts of the thread's last run.
	Resume []Resume
}

// Tool is a front-end tool a client declares: the browser runs it.
type Tool struct {
	Name        string
	Description string
	// Parameters is the JSON Schema of the arguments; nil means an object
	// with no declared properties.
	Parameters json.RawMessage
}

// Context is a piece of ambient information a client gives a run.
type Context struct {
	Description string
	Value       string
}

// ErrBadInput marks the errors of a request body that is not an AG-UI
// RunAgentInput the handler can run (answered with 400).
var ErrBadInput = errors.New("agui: bad input")

// wireInput is RunAgentInput on the wire.
type wireInput struct {
	ThreadID       *string           `json:"threadId"`
	RunID          *string           `json:"runId"`
	ParentRunID    string            `json:"parentRunId"`
	State          json.RawMessage   `json:"state"`
	Messages       []json.RawMessage `json:"messages"`
	Tools          []wireTool        `json:"tools"`
	Context        []wireContext     `json:"context"`
	ForwardedProps json.RawMessage   `json:"forwardedProps"`
	Resume         []json.RawMessage `json:"resume"`
}

type wireTool struct {
	Name        *string         `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

type wireContext struct {
	Description string `json:"description"`
	Value       string `json:"value"`
}

// decodeInput decodes a RunAgentInput body and its messages; errors wrap
// [ErrBadInput].
func decodeInput(body []byte) (*RunInput, []wireMessage, error) {
	var w wireInput
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrBadInput, jsonError(err))
	}
	switch {
	case w.ThreadID == nil || *w.ThreadID == "":
		return nil, nil, fmt.Errorf("%w: threadId is required", ErrBadInput)
	case w.RunID == nil || *w.RunID == "":
		return nil, nil, fmt.Errorf("%w: runId is required", ErrBadInput)
	}
	resume, err := decodeResume(w.Resume)
	if err != nil {
		return nil, nil, err
	}
	in := &RunInput{Resume: resume,
		ThreadID: *w.ThreadID, RunID: *w.RunID, ParentRunID: w.ParentRunID,
		State: nullToNil(w.State), Messages: w.Messages, ForwardedProps: nullToNil(w.ForwardedProps),
	}
	for i, t := range w.Tools {
		if t.Name == nil || *t.Name == "" {
			return nil, nil, fmt.Errorf("%w: tools[%d]: name is required", ErrBadInput, i)
		}
		in.Tools = append(in.Tools, Tool{Name: *t.Name, Description: t.Description, Parameters: nullToNil(t.Parameters)})
	}
	for _, c := range w.Context {
		in.Context = append(in.Context, Context(c))
	}
	msgs := make([]wireMessage, len(w.Messages))
	for i, raw := range w.Messages {
		if err := msgs[i].decode(raw); err != nil {
			return nil, nil, fmt.Errorf("%w: messages[%d]: %v", ErrBadInput, i, err)
		}
	}
	return in, msgs, nil
}

// jsonError restates an error of encoding/json in the request's terms:
// where the JSON is malformed, or which field has a value of the wrong
// kind, with none of the handler's Go types.
func jsonError(err error) error {
	if se, ok := errors.AsType[*json.SyntaxError](err); ok {
		return fmt.Errorf("the body is not valid JSON: %v (at byte %d)", se, se.Offset)
	}
	if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		where := "the body"
		if te.Field != "" {
			where = te.Field
		}
		return fmt.Errorf("%s: want %s, got a JSON %s", where, jsonKind(te.Type), te.Value)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("the body is not valid JSON: it ends too soon")
	}
	return errors.New("the body is not valid JSON")
}

// jsonKind names the JSON value a Go type decodes from.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "a JSON value"
		}
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "a number"
}

// nullToNil returns raw, or nil for an absent or null value.
func nullToNil(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil
	}
	return raw
}
