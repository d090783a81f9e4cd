package agentcore

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/pi-go/agentcore/internal/limit"
	"github.com/pi-go/agentcore/internal/schema"
)

// ErrInvalidTool is wrapped by every configuration error of a tool:
// [Tool.Validate], [ValidateTools], and the refusals of [Agent.Prompt],
// [Agent.Continue] and [RunLoop] when a tool is misconfigured.
var ErrInvalidTool = errors.New("agentcore: invalid tool")

// The bounds of a tool's Parameters and OutputSchema, checked before they
// compile (compiling costs more than linear time in a schema's size): a
// schema over one fails [Tool.Validate] with an error naming the bound.
const (
	// MaxSchemaBytes is the largest schema, in bytes of JSON text.
	MaxSchemaBytes = schema.MaxBytes
	// MaxSchemaDepth is the deepest nesting of JSON objects and arrays in
	// a schema (each property nests two levels: properties, its schema).
	MaxSchemaDepth = schema.MaxDepth
	// MaxSchemaSubschemas is the most subschemas a schema may hold.
	MaxSchemaSubschemas = schema.MaxSubschemas
)

// Validate reports what makes t unusable, naming it: an empty name, an
// arguments type [NewTool] cannot describe (not a struct, or a field JSON
// Schema cannot express), or a Parameters or OutputSchema that does not
// compile as a JSON Schema or is over [MaxSchemaBytes], [MaxSchemaDepth]
// or [MaxSchemaSubschemas]. The error wraps [ErrInvalidTool].
func (t Tool) Validate() error {
	if t.Name == "" {
		return fmt.Errorf("%w: a tool has no name", ErrInvalidTool)
	}
	if t.err != nil {
		return fmt.Errorf("%w %s: %w", ErrInvalidTool, limit.Quote(t.Name), t.err)
	}
	for _, s := range []struct {
		field string
		raw   json.RawMessage
	}{{"Parameters", t.Parameters}, {"OutputSchema", t.OutputSchema}} {
		if len(s.raw) == 0 {
			continue
		}
		if _, err := schema.Compile(s.raw); err != nil {
			return fmt.Errorf("%w %s: %s: %w", ErrInvalidTool, limit.Quote(t.Name), s.field, err)
		}
	}
	return nil
}

// ValidateTools validates each tool ([Tool.Validate]) and checks that no
// two share a name (the model calls tools by name). It returns every
// problem found, joined, or nil. A run checks its tools this way before its
// first request; a program may call it at startup to fail earlier.
func ValidateTools(tools []Tool) error {
	var errs []error
	seen := make(map[string]bool, len(tools))
	for _, t := range tools {
		if err := t.Validate(); err != nil {
			errs = append(errs, err)
		}
		if t.Name != "" && seen[t.Name] {
			errs = append(errs, fmt.Errorf("%w %s: two tools have this name", ErrInvalidTool, limit.Quote(t.Name)))
		}
		seen[t.Name] = true
	}
	return errors.Join(errs...)
}
