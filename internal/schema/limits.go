package schema

import (
	"errors"
	"fmt"
)

// The bounds of a schema [Compile] accepts, checked before any compiling:
// the checker's compile costs grow faster than the schema (with the square
// of the number of subschemas, the cube of the depth), so a schema within
// them compiles in a bounded time, and a larger one is refused at the cost
// of reading its bytes once.
const (
	// MaxBytes is the largest schema, in bytes of JSON text.
	MaxBytes = 512 << 10
	// MaxDepth is the deepest nesting of JSON objects and arrays (a
	// property's schema is two levels below its parent's: the properties
	// object, then the schema).
	MaxDepth = 64
	// MaxSubschemas is the most subschemas (schema objects, the root
	// included) a schema may hold.
	MaxSubschemas = 4096
)

// ErrTooLarge is wrapped by the error of a schema over one of the bounds
// ([MaxBytes], [MaxDepth], [MaxSubschemas]); the error names the bound.
var ErrTooLarge = errors.New("invalid tool schema: too large")

// checkText refuses schema text over MaxBytes or nested deeper than
// MaxDepth, in one pass over the bytes that stops at the first excess.
func checkText(schema []byte) error {
	if len(schema) > MaxBytes {
		return fmt.Errorf("%w: %d bytes, over the limit of %d", ErrTooLarge, len(schema), MaxBytes)
	}
	depth := 0
	inString, escaped := false, false
	for _, c := range schema {
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString && c == '"':
			inString = false
		case inString:
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			if depth > MaxDepth {
				return fmt.Errorf("%w: objects and arrays nested deeper than the limit of %d levels", ErrTooLarge, MaxDepth)
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return nil
}

// checkSubschemas refuses a document with more than MaxSubschemas
// subschemas.
func checkSubschemas(doc *document) error {
	if n := len(doc.loc); n > MaxSubschemas {
		return fmt.Errorf("%w: %d subschemas, over the limit of %d", ErrTooLarge, n, MaxSubschemas)
	}
	return nil
}

// draft2020Keywords are the keywords the checker reads differently under
// draft 2019-09 than under 2020-12, the reference's draft.
var draft2020Keywords = []string{"$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor", "prefixItems", "unevaluatedItems"}

// needsDraft2020 reports whether a subschema uses a keyword of
// draft2020Keywords. Without one, the checker decides validity alike under
// both drafts, and its 2019-09 compile costs time linear in the number of
// subschemas where its 2020-12 compile (which lists every subschema for
// each subschema, looking for dynamic anchors) costs their square.
func needsDraft2020(doc *document) bool {
	for node := range doc.loc {
		for _, k := range draft2020Keywords {
			if node.Has(k) {
				return true
			}
		}
	}
	return false
}
