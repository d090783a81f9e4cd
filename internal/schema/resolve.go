package schema

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/pi-go/agentcore/internal/jsonv"
)

// defaultBase is the base URI of a root schema without $id, the reference's.
const defaultBase = "https://json-schema.invalid/root.json"

// The keywords whose values are subschemas, as the reference indexes them: one
// schema, a map of schemas, a list of schemas ("items" is one or a list).
var (
	schemaKeywords = []string{
		"additionalProperties", "propertyNames", "contains", "not", "if", "then", "else",
		"unevaluatedProperties", "unevaluatedItems", "additionalItems", "contentSchema", "items",
	}
	mapKeywords   = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
	arrayKeywords = []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"}
)

// target is what a $ref names: a schema (an object or a boolean) with the base
// URI it compiles under, or nothing (unresolved, which rejects every value).
type target struct {
	node       jsonv.Value
	base       string
	loc        string // the target's location in the checker's document
	unresolved bool
}

// document is a schema with its identifiers resolved: the base URI and the
// location of every subschema, the resources and anchors, and the target of
// every $ref and $dynamicRef. It is built once by index and read-only after.
type document struct {
	root      jsonv.Value
	base      map[jsonv.ID]string    // subschema object to its base URI
	loc       map[jsonv.Value]string // subschema object to its location (a fragment) in the checker's document
	resources map[string]jsonv.Value
	anchors   map[string]jsonv.Value
	refs      map[jsonv.Value]target // schema object with $ref to its target
	dynRefs   map[jsonv.Value]target // schema object with $dynamicRef to its target
	pending   []pendingRef
	patterns  map[string]string // ECMAScript pattern source to its RE2 translation
	nonSchema *jsonv.Value      // the first value in a compiled schema position that is not a schema
}

type pendingRef struct {
	node    jsonv.Value
	ref     string
	dynamic bool
}

func newDocument(root jsonv.Value) *document {
	d := &document{
		root:      root,
		base:      map[jsonv.ID]string{},
		loc:       map[jsonv.Value]string{},
		resources: map[string]jsonv.Value{defaultBase: root},
		anchors:   map[string]jsonv.Value{},
		refs:      map[jsonv.Value]target{},
		dynRefs:   map[jsonv.Value]target{},
		patterns:  map[string]string{},
	}
	d.index(root, defaultBase, "")
	// Resolving a reference can index a subschema found by pointer outside the
	// keywords walked above, whose own references then resolve in turn.
	for len(d.pending) > 0 {
		p := d.pending[0]
		d.pending = d.pending[1:]
		t := d.find(p.ref, d.base[p.node.ID()])
		if p.dynamic {
			d.dynRefs[p.node] = t
		} else {
			d.refs[p.node] = t
		}
	}
	return d
}

// compiledMaps are the map keywords whose every value the reference
// compiles (so a value that is not a schema fails its compile); $defs and
// definitions compile only where referenced, dependencies' lists are no
// schemas.
var compiledMaps = []string{"properties", "patternProperties", "dependentSchemas", "dependencies"}

// index records node (at checker location loc) and its subschemas.
func (d *document) index(node jsonv.Value, base, loc string) {
	if node.Kind() != jsonv.Object {
		return
	}
	d.noteNonSchemas(node)
	if _, done := d.base[node.ID()]; done {
		return
	}
	b := base
	if id, ok := node.Get("$id"); ok && id.Kind() == jsonv.String {
		uri := resolveURI(id.Str(), b)
		b = documentOf(uri)
		d.resources[b] = node
		if len(uri) > len(b)+1 {
			d.anchors[uri] = node
		}
	}
	d.base[node.ID()] = b
	d.loc[node] = loc
	for _, k := range []string{"$anchor", "$dynamicAnchor"} {
		if a, ok := node.Get(k); ok && a.Kind() == jsonv.String {
			d.anchors[b+"#"+a.Str()] = node
		}
	}
	if pat, ok := node.Get("pattern"); ok && pat.Kind() == jsonv.String {
		d.translated(pat.Str())
	}
	for _, k := range []string{"$ref", "$dynamicRef"} {
		if r, ok := node.Get(k); ok && r.Kind() == jsonv.String {
			d.pending = append(d.pending, pendingRef{node: node, ref: r.Str(), dynamic: k == "$dynamicRef"})
		}
	}
	for _, k := range schemaKeywords {
		if s, ok := node.Get(k); ok {
			d.index(s, b, loc+"/"+k)
		}
	}
	for _, k := range mapKeywords {
		m, ok := node.Get(k)
		if !ok || m.Kind() != jsonv.Object {
			continue
		}
		for _, mem := range m.Members() {
			key := mem.Key
			if k == "patternProperties" {
				key = d.translated(key)
			}
			d.index(mem.Value, b, loc+"/"+k+"/"+escapeToken(key))
		}
	}
	for _, k := range arrayKeywords {
		list, ok := node.Get(k)
		if !ok || list.Kind() != jsonv.Array {
			continue
		}
		for i, s := range list.Items() {
			d.index(s, b, loc+"/"+k+"/"+strconv.Itoa(i))
		}
	}
}

// noteNonSchemas records the first subschema position of node, among those
// the reference compiles, holding a value that is neither an object nor a
// boolean.
func (d *document) noteNonSchemas(node jsonv.Value) {
	if d.nonSchema != nil {
		return
	}
	bad := func(v jsonv.Value) bool {
		if k := v.Kind(); k != jsonv.Object && k != jsonv.Bool {
			d.nonSchema = &v
			return true
		}
		return false
	}
	for _, k := range []string{"not", "if", "then", "else", "contains", "propertyNames", "additionalProperties", "unevaluatedProperties", "unevaluatedItems"} {
		if v, ok := node.Get(k); ok && bad(v) {
			return
		}
	}
	if v, ok := node.Get("items"); ok && v.Kind() != jsonv.Array && bad(v) {
		return
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"} {
		if list, ok := node.Get(k); ok && list.Kind() == jsonv.Array {
			for _, v := range list.Items() {
				if bad(v) {
					return
				}
			}
		}
	}
	for _, k := range compiledMaps {
		if m, ok := node.Get(k); ok && m.Kind() == jsonv.Object {
			for _, mem := range m.Members() {
				if (k != "dependencies" || mem.Value.Kind() != jsonv.Array) && bad(mem.Value) {
					return
				}
			}
		}
	}
}

// translated returns the RE2 form of an ECMAScript pattern, as the checker's
// document carries it.
func (d *document) translated(pattern string) string {
	if t, ok := d.patterns[pattern]; ok {
		return t
	}
	t := translatePattern(pattern)
	d.patterns[pattern] = t
	return t
}

// baseOf returns the base URI of a subschema whose parent has base.
func (d *document) baseOf(node jsonv.Value, base string) string {
	if b, ok := d.base[node.ID()]; ok {
		return b
	}
	return base
}

// find resolves ref against base as the reference does: a document (only the
// root and the resources it declares with $id), then a JSON Pointer or an
// anchor. A reference that names nothing is unresolved.
func (d *document) find(ref, base string) target {
	uri := resolveURI(ref, base)
	doc := documentOf(uri)
	fragment := ""
	if len(uri) > len(doc) {
		f, err := url.PathUnescape(uri[len(doc)+1:])
		if err != nil {
			return target{base: base, unresolved: true}
		}
		fragment = f
	}
	root, ok := d.resources[doc]
	if !ok {
		return target{base: base, unresolved: true}
	}
	if fragment == "" {
		return target{node: root, base: doc, loc: d.loc[root]}
	}
	if strings.HasPrefix(fragment, "/") {
		return d.pointer(root, doc, fragment)
	}
	node, ok := d.anchors[doc+"#"+fragment]
	if !ok {
		return target{base: base, unresolved: true}
	}
	return target{node: node, base: d.baseOf(node, doc), loc: d.loc[node]}
}

// pointer follows a JSON Pointer from a resource root. A target outside the
// indexed subschemas is indexed at its location.
func (d *document) pointer(root jsonv.Value, base, fragment string) target {
	node := root
	b := base
	loc, _ := d.loc[root]
	for _, raw := range strings.Split(fragment, "/")[1:] {
		key := strings.ReplaceAll(strings.ReplaceAll(raw, "~1", "/"), "~0", "~")
		var next jsonv.Value
		found := false
		switch node.Kind() {
		case jsonv.Object:
			next, found = node.Get(key)
		case jsonv.Array:
			if i, ok := jsonv.ArrayIndex(key); ok && int(i) < node.Len() {
				next, found = node.Items()[i], true
			}
		}
		if !found {
			return target{base: base, unresolved: true}
		}
		node = next
		loc += "/" + escapeToken(key)
		if nb, ok := d.base[node.ID()]; ok {
			b = nb
		}
	}
	if node.Kind() == jsonv.Object {
		if _, ok := d.base[node.ID()]; !ok {
			d.index(node, b, loc)
		}
	} else if node.Kind() != jsonv.Bool {
		// Neither an object nor a boolean: not a schema. The reference fails
		// to compile such a schema; it rejects every value here.
		return target{base: base, unresolved: true}
	}
	if l, ok := d.loc[node]; ok {
		loc = l
	}
	return target{node: node, base: b, loc: loc}
}

// escapeToken escapes one JSON Pointer token as the checker's locations do.
func escapeToken(token string) string {
	token = strings.ReplaceAll(token, "~", "~0")
	token = strings.ReplaceAll(token, "/", "~1")
	return url.PathEscape(token)
}

// resolveURI resolves ref against base; a base or a reference that does not
// parse takes fragment-only references only.
func resolveURI(ref, base string) string {
	b, err := url.Parse(base)
	if err == nil {
		r, err := url.Parse(ref)
		if err == nil {
			return b.ResolveReference(r).String()
		}
	}
	if strings.HasPrefix(ref, "#") {
		return documentOf(base) + ref
	}
	return ref
}

// documentOf returns uri without its fragment.
func documentOf(uri string) string {
	if i := strings.IndexByte(uri, '#'); i >= 0 {
		return uri[:i]
	}
	return uri
}
