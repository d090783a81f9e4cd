package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/pi-go/agentcore/internal/jsonv"
)

// Validator is a compiled tool schema. It is immutable and safe for concurrent
// use.
type Validator struct {
	doc     *document
	root    *jsonschema.Schema        // nil for a boolean root schema
	infos   map[jsonv.ID]*nodeInfo    // each subschema object's keywords and compiled check
	regexes map[string]*regexp.Regexp // ECMAScript pattern source to its compiled translation
}

// unresolvedDef is the $defs entry (the schema false) that references naming
// nothing point to in the checker's copy of a schema.
const unresolvedDef = "pi-go-unresolved-ref"

func compile(schema json.RawMessage) (*Validator, error) {
	root, err := jsonv.Parse(schema)
	if err != nil {
		return nil, fmt.Errorf("invalid tool schema: %w", err)
	}
	if k := root.Kind(); k != jsonv.Object && k != jsonv.Bool {
		return nil, notASchema(root)
	}
	doc := newDocument(root)
	if err := checkSubschemas(doc); err != nil {
		return nil, err
	}
	if doc.nonSchema != nil {
		return nil, notASchema(*doc.nonSchema)
	}
	vd := &Validator{doc: doc, infos: map[jsonv.ID]*nodeInfo{}, regexes: map[string]*regexp.Regexp{}}
	if root.Kind() == jsonv.Bool {
		return vd, nil
	}
	for source, translated := range doc.patterns {
		re, err := regexp.Compile(translated)
		if err != nil {
			return nil, fmt.Errorf("invalid tool schema: pattern %q is not supported: %v", source, err)
		}
		vd.regexes[source] = re
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if usesItemsArray(doc) || !needsDraft2020(doc) {
		c.Draft = jsonschema.Draft2019
	}
	c.AssertFormat = true
	for name, check := range checkerFormats() {
		c.Formats[name] = check
	}
	c.LoadURL = func(s string) (io.ReadCloser, error) {
		return nil, fmt.Errorf("loading %s: schemas are never loaded from outside", s)
	}
	text := checkerCopy(doc, root, true).AppendJSON(nil)
	if err := c.AddResource(defaultBase, bytes.NewReader(text)); err != nil {
		return nil, fmt.Errorf("invalid tool schema: %w", err)
	}
	if vd.root, err = c.Compile(defaultBase); err != nil {
		return nil, fmt.Errorf("invalid tool schema: %w", unwrapSchemaError(err))
	}
	for node, loc := range doc.loc {
		n := newNodeInfo(doc, node, doc.base[node.ID()])
		if s, err := c.Compile(defaultBase + "#" + loc); err == nil {
			n.check, n.compiled = s, true
		}
		vd.infos[node.ID()] = n
	}
	return vd, nil
}

// notASchema is the reference's compile error for a value in schema position
// that is neither an object nor a boolean.
func notASchema(v jsonv.Value) error {
	return fmt.Errorf("A schema must be an object or a boolean, got %s", v.JSON()) //nolint:staticcheck // the reference's exact text
}

func unwrapSchemaError(err error) error {
	var se *jsonschema.SchemaError
	if errors.As(err, &se) && se.Err != nil {
		return se.Err
	}
	return err
}

// usesItemsArray reports whether a subschema has the tuple form of items (a
// list), which draft 2020-12 no longer allows but the reference still reads.
func usesItemsArray(doc *document) bool {
	for node := range doc.loc {
		if items, ok := node.Get("items"); ok && items.Kind() == jsonv.Array {
			return true
		}
	}
	return false
}

// regex returns the compiled form of an ECMAScript pattern of the schema.
func (vd *Validator) regex(source string) *regexp.Regexp {
	return vd.regexes[source]
}
