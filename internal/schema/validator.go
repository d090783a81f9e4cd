package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/pi-go/agentcore/internal/jsonv"
)

// Parse coerces a copy of args (JSON text) towards the schema, then checks
// it. A valid result is the coerced arguments as JSON text, in their received
// key order, as JSON.stringify writes them (a new slice), with errs nil. An
// invalid one has errs: at least one ValidationError, each as the reference
// reports it (same paths, messages, count and order), with coerced nil. err
// is non-nil only when args is not JSON. args itself is never modified.
func (vd *Validator) Parse(args json.RawMessage) (coerced json.RawMessage, errs []ValidationError, err error) {
	v, err := jsonv.Parse(args)
	if err != nil {
		return nil, nil, err
	}
	out, errs := vd.ParseValue(v)
	if errs != nil {
		return nil, errs, nil
	}
	return out.AppendJSON(make([]byte, 0, len(args))), nil, nil
}

// ParseValue is Parse of a parsed value: the coerced value when it is valid
// (v itself when nothing needed coercion), else the errors of the coerced
// value (never empty). Values are immutable, so v is never modified.
func (vd *Validator) ParseValue(v jsonv.Value) (jsonv.Value, []ValidationError) {
	c := coercer{vd: vd}
	out := c.coerce(v)
	if vd.rootCheck(out) {
		return out, nil
	}
	x := explainer{vd: vd}
	return jsonv.Value{}, x.errors(out)
}

// Errors returns why v (not coerced) fails the schema, nil when it is valid.
func (vd *Validator) Errors(v jsonv.Value) []ValidationError {
	if vd.rootCheck(v) {
		return nil
	}
	x := explainer{vd: vd}
	return x.errors(v)
}

// FormatPath turns an error's JSON Pointer into the dotted path the model
// sees: "/edits/0/oldText" is "edits.0.oldText", "" is "root", and ~1 and ~0
// are unescaped to "/" and "~".
func FormatPath(pointer string) string {
	if pointer == "" {
		return "root"
	}
	segments := strings.Split(pointer[1:], "/")
	for i, s := range segments {
		segments[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return strings.Join(segments, ".")
}

// FormatError returns the reference's validation failure text for a tool:
//
//	Validation failed for tool "NAME":
//	  - PATH: MESSAGE
//	  ...
//
//	Received arguments:
//	JSON
//
// with one line per error, in order, PATH as FormatPath writes it, and JSON
// the received (not coerced) arguments as JSON.stringify(args, null, 2)
// writes them. Received arguments that are not JSON are written as they are.
func FormatError(toolName string, errs []ValidationError, received json.RawMessage) string {
	var b strings.Builder
	b.WriteString(`Validation failed for tool "`)
	b.WriteString(toolName)
	b.WriteString("\":\n")
	for i, e := range errs {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("  - ")
		b.WriteString(FormatPath(e.Path))
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	b.WriteString("\n\nReceived arguments:\n")
	if text, err := jsonv.Stringify(received, "  "); err == nil {
		b.WriteString(text)
	} else {
		b.Write(received)
	}
	return b.String()
}

// ArgumentsError is a tool call whose arguments failed validation. Its Error
// is the reference's text (FormatError).
type ArgumentsError struct {
	ToolName string
	Errors   []ValidationError
	Received json.RawMessage
}

// Error returns FormatError of the failure.
func (e *ArgumentsError) Error() string {
	return FormatError(e.ToolName, e.Errors, e.Received)
}

// ValidateToolArguments is the reference's validateToolArguments for one call:
// it compiles the tool's parameters schema (cached), coerces a copy of args
// and validates it. It returns the coerced arguments as Parse writes them
// (the caller's own: a tool may modify its arguments). Or it returns an error whose text is what the reference
// throws (the loop makes it the error tool result): an *ArgumentsError for
// arguments that fail the schema, the compile error for a schema that does
// not compile, and, as the reference (which caches validators in a WeakMap)
// fails for them, "Invalid value used as weak map key" for the boolean
// schemas true and false. Arguments that are not JSON are an error too.
func ValidateToolArguments(toolName string, parameters, args json.RawMessage) (json.RawMessage, error) {
	vd, err := Compile(parameters)
	if err != nil {
		return nil, err
	}
	return vd.validateToolArguments(toolName, args)
}

// validateToolArguments is ValidateToolArguments once the schema compiled.
func (vd *Validator) validateToolArguments(toolName string, args json.RawMessage) (json.RawMessage, error) {
	if vd.doc.root.Kind() == jsonv.Bool {
		return nil, errWeakMapKey
	}
	coerced, errs, err := vd.Parse(args)
	if err != nil {
		return nil, fmt.Errorf("invalid arguments for tool %q: %w", toolName, err)
	}
	if errs != nil {
		return nil, &ArgumentsError{ToolName: toolName, Errors: errs, Received: args}
	}
	return coerced, nil
}

var errWeakMapKey = errors.New("Invalid value used as weak map key") //nolint:staticcheck // the reference's exact text
