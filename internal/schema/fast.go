package schema

import (
	"regexp"
	"unicode/utf8"

	"github.com/pi-go/agentcore/internal/jsonv"
)

// fastSchema is a "simple" subschema in the fast checker's form. A schema is
// simple when it and all its subschemas use only keywords whose check on a
// jsonv.Value can be made exactly as the checker (santhosh-tekuri/jsonschema,
// the authority on validity) makes it, cheaply and without converting the
// value:
//
//   - type (a name or a list), enum, const;
//   - minimum, maximum, exclusiveMinimum, exclusiveMaximum;
//   - minLength, maxLength (code points, counted as the checker counts them),
//     pattern (the checker's own compiled regexp), format (the checker's own
//     format check);
//   - minItems, maxItems, uniqueItems, items (one schema);
//   - minProperties, maxProperties, required, properties,
//     additionalProperties (a boolean or a schema);
//   - annotations the checker does not check: title, description, default,
//     examples, $comment, deprecated, readOnly, writeOnly, and $defs and
//     definitions (which nothing here references); and what the checker's
//     copy drops: $anchor and the root's $schema.
//
// Keyword values are read as the checker's copy of the schema has them
// (sanitize), so a value the checker ignores is ignored here too. A schema
// whose strings (property names, required names, enum and const literals,
// patterns) hold a lone surrogate is not simple: the checker reads those as
// U+FFFD. Nor is one whose literals hold a number too large for a double.
//
// A simple schema is stable when coercion leaves every value it accepts
// unchanged: then a value it accepts needs no coercion, and the passes may
// stop as soon as the value so far passes. Each pass keeps such a value:
// pass 1 drops only nulls the property's schema rejects, pass 2 converts
// only values not already of the schema's type, const or enum, and pass 3
// coerces only values not of the schema's type. The one exception is pass 2
// at a schema with items but no type (nodeInfo.wrapsNonArrays), which puts
// any value that is not an array into one, even one the schema accepts as
// it is; a simple schema without such a subschema is stable. The tests
// check the claim on the golden cases and by fuzzing.
//
// A fastSchema is immutable once built and shared by all the checks of a
// Validator.
type fastSchema struct {
	stable     bool    // coercion leaves the values it accepts unchanged
	always     verdict // a boolean schema (pass or fail); undecided for an object
	types      typeSet // 0 when there is no type keyword
	hasConst   bool
	constant   jsonv.Value
	enum       []jsonv.Value // nil when absent; an empty enum checks nothing, as in the checker
	format     func(string) bool
	pattern    *regexp.Regexp
	bounds     []bound
	minLength  int // this and the other counts are -1 when absent, as in the checker
	maxLength  int
	minItems   int
	maxItems   int
	minProps   int
	maxProps   int
	unique     bool
	required   []string
	props      map[string]*fastSchema // properties by name; nil when absent
	additional *fastSchema            // nil when absent
	items      *fastSchema            // nil when absent
}

// bound is one of the number keywords.
type bound struct {
	keyword string // minimum, maximum, exclusiveMinimum or exclusiveMaximum
	at      float64
}

// typeSet is the set of JSON Schema type names a type keyword lists.
type typeSet uint8

const (
	typeNull typeSet = 1 << iota
	typeBoolean
	typeNumber
	typeInteger
	typeString
	typeArray
	typeObject
)

var typeBits = map[string]typeSet{
	"null": typeNull, "boolean": typeBoolean, "number": typeNumber, "integer": typeInteger,
	"string": typeString, "array": typeArray, "object": typeObject,
}

var (
	fastTrue  = &fastSchema{always: pass, stable: true}
	fastFalse = &fastSchema{always: fail, stable: true}
)

// annotationKeywords are the keywords of a simple schema the checker does not
// check.
var annotationKeywords = map[string]bool{
	"title": true, "description": true, "default": true, "examples": true, "$comment": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "$defs": true, "definitions": true,
}

// fastBuilder turns the simple subschemas of a compiled schema into
// fastSchemas, each once.
type fastBuilder struct {
	vd    *Validator                  // with its infos, not yet its fast checks
	built map[jsonv.Value]*fastSchema // nil for a subschema that is not simple
}

func newFastBuilder(vd *Validator) *fastBuilder {
	return &fastBuilder{vd: vd, built: map[jsonv.Value]*fastSchema{}}
}

// build returns the fast form of a subschema, nil when it is not simple.
func (b *fastBuilder) build(node jsonv.Value) *fastSchema {
	switch node.Kind() {
	case jsonv.Bool:
		if node.Bool() {
			return fastTrue
		}
		return fastFalse
	case jsonv.Object:
	default:
		return nil
	}
	if s, done := b.built[node]; done {
		return s
	}
	b.built[node] = nil // a subschema reached again while building is not a tree
	info, indexed := b.vd.infos[node.ID()]
	if !indexed {
		return nil
	}
	s := &fastSchema{minLength: -1, maxLength: -1, minItems: -1, maxItems: -1, minProps: -1, maxProps: -1}
	doc := b.vd.doc
	isRoot := jsonv.Same(node, doc.root)
	for _, m := range node.Members() {
		val, keep, never := sanitize(doc, node, m.Key, m.Value, isRoot, false)
		if never {
			s.always = fail // a type no JSON value has: the checker adds a false allOf member
		}
		if keep && !b.keyword(s, m.Key, m.Value, val) {
			return nil
		}
	}
	s.stable = !info.wrapsNonArrays() && (s.additional == nil || s.additional.stable) && (s.items == nil || s.items.stable)
	for _, p := range s.props {
		s.stable = s.stable && p.stable
	}
	b.built[node] = s
	return s
}

// keyword records one keyword of a schema object, given its value as written
// (raw) and as the checker has it (val); false when it is not simple.
func (b *fastBuilder) keyword(s *fastSchema, key string, raw, val jsonv.Value) bool {
	switch key {
	case "type":
		// The checker's copy has JSON type names only, a name or a list.
		names := []jsonv.Value{val}
		if val.Kind() == jsonv.Array {
			names = val.Items()
		}
		for _, t := range names {
			s.types |= typeBits[t.Str()]
		}
	case "enum":
		if !plainLiteral(val) {
			return false
		}
		if val.Len() > 0 {
			s.enum = val.Items()
		}
	case "const":
		if !plainLiteral(val) {
			return false
		}
		s.hasConst, s.constant = true, val
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		if !val.IsFinite() {
			return false
		}
		s.bounds = append(s.bounds, bound{key, val.Num()})
	case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties":
		*s.count(key) = checkerInt(val.Num())
	case "uniqueItems":
		s.unique = val.Bool()
	case "required":
		for _, r := range val.Items() {
			if !utf8.ValidString(r.Str()) {
				return false
			}
			s.required = append(s.required, r.Str())
		}
	case "properties":
		s.props = make(map[string]*fastSchema, val.Len())
		for _, p := range val.Members() {
			child := b.build(p.Value)
			if child == nil || !utf8.ValidString(p.Key) {
				return false
			}
			s.props[p.Key] = child
		}
	case "additionalProperties":
		s.additional = b.build(val)
		return s.additional != nil
	case "items":
		s.items = b.build(val)
		return s.items != nil
	case "pattern":
		s.pattern = b.vd.regex(raw.Str())
		return s.pattern != nil && utf8.ValidString(raw.Str())
	case "format":
		s.format = checkerFormat(val.Str())
	case "$schema":
		return false // kept below the root only, where the checker may read it
	default:
		return annotationKeywords[key]
	}
	return true
}

// count returns the field of a count keyword.
func (s *fastSchema) count(key string) *int {
	switch key {
	case "minLength":
		return &s.minLength
	case "maxLength":
		return &s.maxLength
	case "minItems":
		return &s.minItems
	case "maxItems":
		return &s.maxItems
	case "minProperties":
		return &s.minProps
	}
	return &s.maxProps
}

// checkerInt converts a count keyword's value as the checker does (a Go int
// conversion, whatever it gives for a value out of range).
func checkerInt(n float64) int {
	return int(n)
}

// plainLiteral reports whether a literal reads the same to the checker: no
// number too large for a double (written as null) and no lone surrogate in
// a string or key (read as U+FFFD) anywhere in it. Parsed strings are UTF-8
// but for lone surrogates (WTF-8), so utf8.ValidString finds those.
func plainLiteral(v jsonv.Value) bool {
	switch v.Kind() {
	case jsonv.Number:
		return v.IsFinite()
	case jsonv.String:
		return utf8.ValidString(v.Str())
	case jsonv.Array:
		for _, it := range v.Items() {
			if !plainLiteral(it) {
				return false
			}
		}
	case jsonv.Object:
		for _, m := range v.Members() {
			if !utf8.ValidString(m.Key) || !plainLiteral(m.Value) {
				return false
			}
		}
	}
	return true
}
