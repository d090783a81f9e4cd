package schema

import (
	"github.com/pi-go/agentcore/internal/jsonv"
)

// annotations are what a schema evaluated of a value, for
// unevaluatedProperties and unevaluatedItems: property names (or all), the
// length of the evaluated item prefix, all items, and single item indexes.
type annotations struct {
	props    map[string]bool
	allProps bool
	items    int
	allItems bool
	indexes  map[int]bool
}

func (a *annotations) merge(b *annotations) {
	for k := range b.props {
		a.props[k] = true
	}
	a.allProps = a.allProps || b.allProps
	if b.items > a.items {
		a.items = b.items
	}
	a.allItems = a.allItems || b.allItems
	for i := range b.indexes {
		a.indexes[i] = true
	}
}

func newAnnotations() *annotations {
	return &annotations{props: map[string]bool{}, indexes: map[int]bool{}}
}

// annotate collects into a what node evaluates of v and reports whether node
// passes. The node of the unevaluated keywords itself (top) is taken as
// passing, since its other keywords were explained without errors; a
// subschema contributes only when it passes as a whole.
func (x *explainer) annotate(node jsonv.Value, base string, v jsonv.Value, a *annotations, top bool) bool {
	if node.Kind() != jsonv.Object {
		return node.Kind() != jsonv.Bool || node.Bool()
	}
	if !top && !x.vd.ok(node, v) {
		return false
	}
	b := x.vd.doc.baseOf(node, base)
	own := newAnnotations()
	x.annotateMembers(node, v, own)
	if all, ok := node.Get("allOf"); ok && all.Kind() == jsonv.Array {
		for _, s := range all.Items() {
			x.annotate(s, b, v, own, false)
		}
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if list, ok := node.Get(k); ok && list.Kind() == jsonv.Array {
			for _, s := range list.Items() {
				branch := newAnnotations()
				if x.annotate(s, b, v, branch, false) {
					own.merge(branch)
				}
			}
		}
	}
	if cond, ok := node.Get("if"); ok {
		branch := newAnnotations()
		if x.annotate(cond, b, v, branch, false) {
			own.merge(branch)
			if then, ok := node.Get("then"); ok {
				x.annotate(then, b, v, own, false)
			}
		} else if otherwise, ok := node.Get("else"); ok {
			x.annotate(otherwise, b, v, own, false)
		}
	}
	if t, ok := x.vd.doc.refs[node]; ok && !t.unresolved {
		x.annotate(t.node, t.base, v, own, false)
	}
	if ds, ok := schemaMap(node, "dependentSchemas"); ok && v.Kind() == jsonv.Object {
		for _, d := range ds.Members() {
			if v.Has(d.Key) {
				x.annotate(d.Value, b, v, own, false)
			}
		}
	}
	if !top {
		if node.Has("unevaluatedProperties") && v.Kind() == jsonv.Object {
			own.allProps = true
		}
		if node.Has("unevaluatedItems") && v.Kind() == jsonv.Array {
			own.allItems = true
		}
	}
	a.merge(own)
	return true
}

// annotateMembers records the properties and items node's own keywords
// evaluate.
func (x *explainer) annotateMembers(node, v jsonv.Value, a *annotations) {
	switch v.Kind() {
	case jsonv.Object:
		properties, _ := schemaMap(node, "properties")
		patterns, _ := schemaMap(node, "patternProperties")
		_, hasAdditional := node.Get("additionalProperties")
		for _, m := range v.Members() {
			matched := properties.Has(m.Key)
			for _, p := range patterns.Members() {
				if x.vd.matchesPattern(p.Key, m.Key) {
					matched = true
				}
			}
			if matched || hasAdditional {
				a.props[m.Key] = true
			}
		}
	case jsonv.Array:
		n := v.Len()
		items, hasItems := node.Get("items")
		prefix := 0
		rest := hasItems
		if hasItems && items.Kind() == jsonv.Array {
			prefix = items.Len()
			rest = node.Has("additionalItems")
		} else if p, ok := node.Get("prefixItems"); ok && p.Kind() == jsonv.Array {
			prefix = p.Len()
		}
		if rest {
			a.allItems = true
		}
		if m := min(n, prefix); m > a.items {
			a.items = m
		}
		if contains, ok := node.Get("contains"); ok {
			for i, it := range v.Items() {
				if x.vd.ok(contains, it) {
					a.indexes[i] = true
				}
			}
		}
	}
}
