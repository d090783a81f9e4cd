package schema

import (
	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/pi-go/agentcore/internal/jsonv"
)

// nodeInfo is what the coercion passes and the checks read of one schema
// object, read when the schema compiles; it is immutable after compile.
// Each keyword's value is kept as the passes read it: when it must be of
// some kind to count (an array for anyOf, an object for properties), a
// keyword of another kind is kept as absent, with the zero (null) Value,
// which has no members or items.
type nodeInfo struct {
	base string // the subschema's base URI

	check    *jsonschema.Schema // the subschema's compiled check
	compiled bool               // false when the checker did not compile the subschema

	ref       bool   // $ref is a string
	refTarget target // what $ref names, when hasTarget
	hasTarget bool

	constant jsonv.Value // const, any kind
	hasConst bool
	enum     []jsonv.Value // enum, an array
	hasEnum  bool
	allOf    []jsonv.Value // allOf, an array
	hasAllOf bool
	anyOf    []jsonv.Value // anyOf, an array
	hasAnyOf bool
	oneOf    []jsonv.Value // oneOf, an array
	hasOneOf bool

	typ     jsonv.Value // type, any kind
	hasType bool
	types   []jsonv.Value // type as a list: one name, or the list it has; nil for another kind

	properties    jsonv.Value // properties, an object
	hasProperties bool
	patterns      jsonv.Value // patternProperties, an object
	hasPatterns   bool
	additional    jsonv.Value // additionalProperties, an object
	hasAdditional bool
	required      []jsonv.Value // required, an array

	items     jsonv.Value // items, any kind
	hasItems  bool
	prefix    []jsonv.Value // prefixItems, an array
	hasPrefix bool

	objectKeywords bool // has properties or patternProperties, of any kind
	memberKeywords bool // has properties, patternProperties or additionalProperties, of any kind
	arrayKeywords  bool // has items or prefixItems, of any kind
}

// newNodeInfo reads a schema object whose base URI is base.
func newNodeInfo(doc *document, node jsonv.Value, base string) *nodeInfo {
	n := &nodeInfo{base: base}
	n.ref = isStringKeyword(node, "$ref")
	n.refTarget, n.hasTarget = doc.refs[node]
	n.constant, n.hasConst = node.Get("const")
	n.enum, n.hasEnum = arrayKeyword(node, "enum")
	n.allOf, n.hasAllOf = arrayKeyword(node, "allOf")
	n.anyOf, n.hasAnyOf = arrayKeyword(node, "anyOf")
	n.oneOf, n.hasOneOf = arrayKeyword(node, "oneOf")
	n.typ, n.hasType = node.Get("type")
	switch n.typ.Kind() {
	case jsonv.String:
		n.types = []jsonv.Value{n.typ}
	case jsonv.Array:
		n.types = n.typ.Items()
	}
	n.properties, n.hasProperties = objectKeyword(node, "properties")
	n.patterns, n.hasPatterns = objectKeyword(node, "patternProperties")
	n.additional, n.hasAdditional = objectKeyword(node, "additionalProperties")
	n.required, _ = arrayKeyword(node, "required")
	n.items, n.hasItems = node.Get("items")
	n.prefix, n.hasPrefix = arrayKeyword(node, "prefixItems")
	n.objectKeywords = node.Has("properties") || node.Has("patternProperties")
	n.memberKeywords = n.objectKeywords || node.Has("additionalProperties")
	n.arrayKeywords = node.Has("items") || node.Has("prefixItems")
	return n
}

// arrayKeyword returns a keyword's items when it is an array.
func arrayKeyword(node jsonv.Value, key string) ([]jsonv.Value, bool) {
	v, ok := node.Get(key)
	if !ok || v.Kind() != jsonv.Array {
		return nil, false
	}
	return v.Items(), true
}

// objectKeyword returns a keyword's value when it is an object, else null.
func objectKeyword(node jsonv.Value, key string) (jsonv.Value, bool) {
	if m, ok := schemaMap(node, key); ok {
		return m, true
	}
	return jsonv.Value{}, false
}

// info returns what the passes read of a schema object whose parent has
// base. Every subschema the passes reach is indexed when the schema
// compiles; another object is read on the spot, with its parent's base.
func (vd *Validator) info(node jsonv.Value, base string) *nodeInfo {
	if n, ok := vd.infos[node.ID()]; ok {
		return n
	}
	return newNodeInfo(vd.doc, node, base)
}

// itemSchemaAt returns the schema of an array item at index: a tuple's for
// its prefix (prefixItems, or an items list), items after prefixItems, or
// items for every item.
func (n *nodeInfo) itemSchemaAt(index int) (jsonv.Value, bool) {
	if n.hasItems && n.items.Kind() == jsonv.Array {
		if index < n.items.Len() {
			return n.items.Items()[index], true
		}
		return jsonv.Value{}, false
	}
	if n.hasPrefix && index < len(n.prefix) {
		return n.prefix[index], true
	}
	return n.items, n.hasItems
}

// requires reports whether key is listed in the schema's required.
func (n *nodeInfo) requires(key string) bool {
	for _, r := range n.required {
		if r.Kind() == jsonv.String && r.Str() == key {
			return true
		}
	}
	return false
}
