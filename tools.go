package agentcore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/invopop/jsonschema"
)

// Tool is a capability the model may call. Name, Description and Parameters
// are declared to the model; the rest is runtime behavior. A Tool is a value:
// copying it is cheap and safe (its byte slices must not be modified).
type Tool struct {
	// Name identifies the tool to the model; unique within a tool set.
	Name string
	// Label is a human-readable name for UIs; it defaults to Name.
	Label string
	// Description tells the model what the tool does.
	Description string
	// Parameters is the JSON Schema of the arguments object. Nil means an
	// object with no declared properties.
	Parameters json.RawMessage
	// OutputSchema, optional, is the JSON Schema of ToolResult.StructuredContent.
	OutputSchema json.RawMessage
	// ExecutionMode, when [ToolsSequential], makes every batch holding a call
	// of this tool run one call at a time. Empty keeps the loop's mode.
	ExecutionMode ToolExecutionMode
	// PrepareArguments, optional, rewrites the raw arguments before
	// validation (a compatibility shim for old argument shapes). It gets the
	// model's arguments, which it must not modify, and returns the arguments
	// to validate. An error fails the call with its text.
	PrepareArguments func(args json.RawMessage) (json.RawMessage, error)
	// Execute runs the call: in a run, on a goroutine of the call's own (in
	// a parallel batch, concurrently with the other calls); under
	// [RunToolCall], on its caller's. ctx is the run's abort signal,
	// cancelled on abort and when a failing listener ends the run;
	// [NestedCallOptions] of it gives the options for nested calls. args are
	// the coerced, validated arguments: a copy of the model's, which
	// BeforeToolCall and AfterToolCall see too, so read-only. callID is the
	// call's ID. onUpdate reports partial results as tool_execution_update
	// events; it is safe to call from any goroutine, never blocks on
	// listeners, and calls after Execute returns are ignored. A result
	// passed to onUpdate, and the result returned, belong to the loop from
	// then on (events carry them to listeners that may keep them): the tool
	// must not modify their Content or Details afterwards. A failure is an
	// error (its text is what the model sees) or a result with IsError; a
	// panic is a failure too.
	Execute func(ctx context.Context, callID string, args json.RawMessage, onUpdate func(ToolResult)) (ToolResult, error)
	// Replay is the recovery policy for a call whose intent was recorded
	// but whose outcome is unknown (its process died while it ran). The
	// loop never acts on it; a durable session layer does. Empty means
	// [ReplayNever]. It is not declared to the model.
	Replay ReplayPolicy

	err error // what NewTool found wrong with the arguments type
}

// ReplayPolicy says whether a tool call whose outcome is unknown may be run
// again (pi's AgentTool.replay).
type ReplayPolicy string

// The replay policies.
const (
	// ReplayNever answers a call of unknown outcome with an error result
	// saying so: running it twice could repeat an effect.
	ReplayNever ReplayPolicy = "never"
	// ReplaySafe runs the call again: the tool is idempotent.
	ReplaySafe ReplayPolicy = "safe"
)

// ErrInvalidReplayPolicy is reported when text that is not a replay policy
// is decoded as one.
var ErrInvalidReplayPolicy = errors.New(`agentcore: invalid replay policy: want "never" or "safe"`)

// UnmarshalText reads pi's wire form, "never" or "safe" (empty stays
// empty); other text is an error wrapping [ErrInvalidReplayPolicy], so a
// durable layer's record of a tool cannot turn an unknown policy into a
// replay.
func (p *ReplayPolicy) UnmarshalText(text []byte) error {
	switch v := ReplayPolicy(text); v {
	case "", ReplayNever, ReplaySafe:
		*p = v
		return nil
	}
	return fmt.Errorf("%w, got %q", ErrInvalidReplayPolicy, text)
}

// ToolResult is what a tool call produced.
type ToolResult struct {
	// Content is what the model sees: text and image blocks.
	Content []ContentBlock `json:"content"`
	// Details is structured data for logs and UIs; the model never sees it.
	Details any `json:"details,omitempty"`
	// StructuredContent is a machine-readable result matching the tool's
	// OutputSchema, for programmatic callers; never sent to the model.
	StructuredContent any `json:"structuredContent,omitempty"`
	// Usage is the tool's own model usage, if it used a model.
	Usage *Usage `json:"usage,omitempty"`
	// IsError reports a failure without an error value: the model sees
	// Content as an error result.
	IsError bool `json:"isError,omitempty"`
	// Terminate hints that the run should stop after this batch; it takes
	// effect only when every result of the batch sets it.
	Terminate bool `json:"terminate,omitempty"`

	// explicit records the flags a decoded result or an AfterToolCall
	// override stated even as false, so that they stay on the wire.
	explicit resultFlags
}

// resultFlags are the boolean fields of a ToolResult stated explicitly.
type resultFlags uint8

const (
	explicitIsError resultFlags = 1 << iota
	explicitTerminate
)

// toolResultWire is a ToolResult on the wire: nil Content is omitted (the
// tool-result message has [] instead), and a flag appears when true or
// stated.
type toolResultWire struct {
	Content           []ContentBlock `json:"content,omitempty"`
	Details           any            `json:"details,omitempty"`
	StructuredContent any            `json:"structuredContent,omitempty"`
	Usage             *Usage         `json:"usage,omitempty"`
	IsError           *bool          `json:"isError,omitempty"`
	Terminate         *bool          `json:"terminate,omitempty"`
}

// MarshalJSON writes the result as pi does.
func (r ToolResult) MarshalJSON() ([]byte, error) {
	w := toolResultWire{Content: r.Content, Details: r.Details, StructuredContent: r.StructuredContent, Usage: r.Usage}
	if r.IsError || r.explicit&explicitIsError != 0 {
		w.IsError = &r.IsError
	}
	if r.Terminate || r.explicit&explicitTerminate != 0 {
		w.Terminate = &r.Terminate
	}
	if r.Content != nil && len(r.Content) == 0 {
		return marshalWithEmptyContent(w)
	}
	return json.Marshal(w)
}

// marshalWithEmptyContent writes w with "content":[].
func marshalWithEmptyContent(w toolResultWire) ([]byte, error) {
	body, err := json.Marshal(w)
	if err != nil {
		return nil, err
	}
	if len(body) == 2 {
		return []byte(`{"content":[]}`), nil
	}
	return append([]byte(`{"content":[],`), body[1:]...), nil
}

// UnmarshalJSON reads a result; flags stated as false are remembered.
func (r *ToolResult) UnmarshalJSON(data []byte) error {
	var w struct {
		toolResultWire
		Content json.RawMessage `json:"content"`
		Details json.RawMessage `json:"details"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("agentcore: tool result: %w", err)
	}
	*r = ToolResult{StructuredContent: w.StructuredContent, Usage: w.Usage}
	if len(w.Content) > 0 && !isNull(w.Content) {
		blocks, err := decodeBlocks(w.Content, textOrImage)
		if err != nil {
			return err
		}
		r.Content = blocks
	}
	if len(w.Details) > 0 {
		r.Details = w.Details
	}
	if w.IsError != nil {
		r.IsError, r.explicit = *w.IsError, r.explicit|explicitIsError
	}
	if w.Terminate != nil {
		r.Terminate, r.explicit = *w.Terminate, r.explicit|explicitTerminate
	}
	return nil
}

// Text joins the text blocks of r's content with newlines.
func (r ToolResult) Text() string { return joinText(r.Content, "\n") }

// TextResult returns a result whose content is one text block and whose
// details are the empty object {}.
func TextResult(text string) ToolResult {
	return ToolResult{Content: []ContentBlock{TextBlock{Text: text}}, Details: emptyDetails}
}

// emptyObject is the JSON {}; emptyDetails is it as default details, boxed
// once.
var (
	emptyObject      = json.RawMessage("{}")
	emptyDetails any = emptyObject
)

// defaultParameters is the schema of a tool that declares none.
var defaultParameters = json.RawMessage(`{"type":"object","properties":{}}`)

// Declaration returns what the model is told about t.
func (t Tool) Declaration() ToolDeclaration {
	params := t.Parameters
	if len(params) == 0 {
		params = defaultParameters
	}
	return ToolDeclaration{Name: t.Name, Description: t.Description, Parameters: compactClone(params)}
}

// NewTool builds a tool whose arguments decode into A. The parameter schema
// is reflected from A by github.com/invopop/jsonschema (json tags name the
// properties; a field without omitempty is required; `jsonschema:"..."`
// tags such as description and enum work as that package documents). A
// must be a struct (or a pointer to one): the model always sends an
// object. Each type is described in place, except in a type that refers
// to itself (type Node struct{ Children []*Node }), whose structs are
// described once under "$defs" and referred to with "$ref". execute gets the decoded arguments; the other fields of [Tool]
// can be set on the result. Arguments that do not decode into A fail the
// call with the decoding error.
//
// NewTool does not panic: when A is not a struct, or holds a field JSON
// Schema cannot describe (a channel, a function), the tool records the
// problem, [Tool.Validate] reports it, and a run with the tool refuses to
// start.
func NewTool[A any](name, description string, execute func(ctx context.Context, callID string, args A, onUpdate func(ToolResult)) (ToolResult, error)) Tool {
	params, err := schemaOf[A]()
	return Tool{
		Name:        name,
		Label:       name,
		Description: description,
		Parameters:  params,
		Execute: func(ctx context.Context, callID string, raw json.RawMessage, onUpdate func(ToolResult)) (ToolResult, error) {
			args, err := DecodeArgs[A](raw)
			if err != nil {
				return ToolResult{}, fmt.Errorf("decoding arguments of %s: %w", name, err)
			}
			return execute(ctx, callID, args, onUpdate)
		},
		err: err,
	}
}

// DecodeArgs decodes a call's validated arguments into A exactly as a tool
// made with [NewTool] with arguments type A gets them: the way for a hook
// ([BeforeToolCallContext].Args, [AfterToolCallContext].Args) to read the
// arguments of such a tool typed.
func DecodeArgs[A any](args json.RawMessage) (A, error) {
	var a A
	err := json.Unmarshal(args, &a)
	return a, err
}

// schemaOf reflects the JSON Schema of A, which must be a struct or a
// pointer to one. Every type is described in place, except in a type
// that refers to itself (a tree's node holding its children): its
// structs are described once under "$defs" and referred to with "$ref",
// the root expanded in place.
func schemaOf[A any]() (params json.RawMessage, err error) {
	t := reflect.TypeFor[A]()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return defaultParameters, fmt.Errorf("arguments type %s is not a struct", reflect.TypeFor[A]())
	}
	recursive, err := checkReflectable(t)
	if err != nil {
		return defaultParameters, err
	}
	defer func() {
		if r := recover(); r != nil {
			params, err = defaultParameters, fmt.Errorf("arguments type %s: %v", t, r)
		}
	}()
	var zero A
	var s *jsonschema.Schema
	if recursive {
		s, err = referencedSchema(zero)
		if err != nil {
			return defaultParameters, fmt.Errorf("arguments type %s: %w", t, err)
		}
	} else {
		r := jsonschema.Reflector{DoNotReference: true, ExpandedStruct: true, AllowAdditionalProperties: true, Anonymous: true}
		s = r.Reflect(zero)
	}
	s.Version = ""
	if params, err = json.Marshal(s); err != nil {
		return defaultParameters, fmt.Errorf("arguments type %s: %w", t, err)
	}
	return params, nil
}

// referencedSchema reflects v's type with its structs under "$defs": the
// root is its own definition expanded in place, the definitions (its own
// among them, for the references to it) kept beside it.
func referencedSchema(v any) (*jsonschema.Schema, error) {
	r := jsonschema.Reflector{AllowAdditionalProperties: true, Anonymous: true}
	s := r.Reflect(v)
	name, ok := strings.CutPrefix(s.Ref, "#/$defs/")
	if !ok {
		return nil, fmt.Errorf("no definition of the root in its schema")
	}
	root, ok := s.Definitions[name]
	if !ok || root == nil {
		return nil, fmt.Errorf("no definition %q in its schema", name)
	}
	expanded := *root
	expanded.Definitions = s.Definitions
	return &expanded, nil
}

// checkReflectable reports a field of struct type t, at any depth, that
// JSON cannot carry: a channel, a function or a complex number; and
// whether t refers to itself: a struct reached again inside itself.
func checkReflectable(t reflect.Type) (recursive bool, err error) {
	done := map[reflect.Type]bool{}   // structs walked whole
	inside := map[reflect.Type]bool{} // structs on the path walked now
	var walk func(t reflect.Type, path string) error
	walk = func(t reflect.Type, path string) error {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Chan, reflect.Func, reflect.Complex64, reflect.Complex128, reflect.UnsafePointer:
			return fmt.Errorf("field %s: JSON Schema cannot describe a %s", path, t.Kind())
		case reflect.Struct:
			if inside[t] {
				recursive = true
				return nil
			}
			if done[t] {
				return nil
			}
			inside[t] = true
			for f := range t.Fields() {
				if (!f.IsExported() && !f.Anonymous) || f.Tag.Get("json") == "-" {
					continue
				}
				if err := walk(f.Type, path+"."+f.Name); err != nil {
					return err
				}
			}
			delete(inside, t)
			done[t] = true
		}
		return nil
	}
	err = walk(t, t.Name())
	return recursive, err
}

// findTool returns the tool named name in tools, or nil.
func findTool(tools []Tool, name string) *Tool {
	for i := range tools {
		if tools[i].Name == name {
			return &tools[i]
		}
	}
	return nil
}
