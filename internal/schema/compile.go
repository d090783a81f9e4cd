// Package schema coerces and validates tool-call arguments against a tool's
// JSON Schema as the reference runtime does (pi-ai's validateToolArguments
// over pi-schema): loosely typed arguments are coerced towards the schema
// first, then checked, and a failure is explained with one error per failing
// keyword in the reference's words and order.
//
// Schemas compile with github.com/santhosh-tekuri/jsonschema/v5, which decides
// validity; the coercion rules and the error explanations are walked here over
// the schema, asking the compiled schema about each subschema.
package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/pi-go/agentcore/internal/jsonv"
)

// Validator is a compiled tool schema. It is immutable and safe for concurrent
// use.
type Validator struct {
	doc     *document
	root    *jsonschema.Schema                 // nil for a boolean root schema
	checks  map[jsonv.Value]*jsonschema.Schema // each subschema object's compiled check
	regexes map[string]*regexp.Regexp          // ECMAScript pattern source to its compiled translation
}

// unresolvedDef is the $defs entry (the schema false) that references naming
// nothing point to in the checker's copy of a schema.
const unresolvedDef = "pi-go-unresolved-ref"

// maxCached bounds the compile cache; past it the cache starts over.
const maxCached = 1024

var cache struct {
	sync.Mutex
	m map[string]*cacheEntry
}

type cacheEntry struct {
	once sync.Once
	v    *Validator
	err  error
}

// Compile compiles a JSON Schema (an object or a boolean) for Parse. The same
// schema bytes compile once: later calls, from any goroutine, share the
// result, failures included. A schema that is not JSON, not a schema, or that
// the compiler rejects (an invalid keyword value, a pattern RE2 cannot
// express, a $ref cycle) is an error naming the problem. A $ref that names
// nothing does not fail the compile; as in the reference, it rejects only the
// values at its place, with the error "unresolved reference REF".
func Compile(schema json.RawMessage) (*Validator, error) {
	key := string(schema)
	cache.Lock()
	if cache.m == nil || len(cache.m) >= maxCached {
		cache.m = make(map[string]*cacheEntry)
	}
	e, ok := cache.m[key]
	if !ok {
		e = &cacheEntry{}
		cache.m[key] = e
	}
	cache.Unlock()
	e.once.Do(func() { e.v, e.err = compile(schema) })
	return e.v, e.err
}

func compile(schema json.RawMessage) (*Validator, error) {
	root, err := jsonv.Parse(schema)
	if err != nil {
		return nil, fmt.Errorf("invalid tool schema: %w", err)
	}
	if k := root.Kind(); k != jsonv.Object && k != jsonv.Bool {
		return nil, notASchema(root)
	}
	doc := newDocument(root)
	if doc.nonSchema != nil {
		return nil, notASchema(*doc.nonSchema)
	}
	vd := &Validator{doc: doc, checks: map[jsonv.Value]*jsonschema.Schema{}, regexes: map[string]*regexp.Regexp{}}
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
	if usesItemsArray(doc) {
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
		s, err := c.Compile(defaultBase + "#" + loc)
		if err == nil {
			vd.checks[node] = s
		}
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
