package schema

import (
	"github.com/pi-go/agentcore/internal/jsonv"
)

// coercer coerces one value towards a schema in the reference's three passes:
//
//  1. an optional property set to null, whose schema rejects null, is dropped;
//  2. TypeBox's conversion rules, keyed on the schema's structure (convert.go);
//  3. primitive coercion by type, as Ajv's coerceTypes (type arrays included).
//
// Every pass is copy-on-write: arrays and objects are copied only along the
// paths that change, so the input is never modified. A value that cannot be
// coerced is left as it is for the check to report. A coercer serves one
// coerce call; its state (re-entry stack, memo) is not shared.
type coercer struct {
	vd      *Validator
	entered []enteredPair
	cuts    int
	memo    map[memoKey]jsonv.Value
}

type enteredPair struct{ node, value jsonv.Value }

type memoKey struct{ node, value jsonv.Value }

// coerce runs the three passes over v.
func (c *coercer) coerce(v jsonv.Value) jsonv.Value {
	root := c.vd.doc.root
	v = c.dropOptionalNulls(v, root, defaultBase)
	v = c.convert(root, defaultBase, v)
	c.memo = nil
	c.cuts = 0
	return c.coerceTypes(v, root, defaultBase)
}

// schemaMap returns a map keyword of a schema (properties, patternProperties)
// when it is an object.
func schemaMap(node jsonv.Value, key string) (jsonv.Value, bool) {
	m, ok := node.Get(key)
	return m, ok && m.Kind() == jsonv.Object
}

// matchesPattern tests a property name against a patternProperties key.
func (vd *Validator) matchesPattern(pattern, key string) bool {
	re := vd.regex(pattern)
	return re != nil && re.MatchString(key)
}

// mapItems maps the items of an array, copying it only when one changes.
func mapItems(v jsonv.Value, f func(item jsonv.Value, i int) jsonv.Value) jsonv.Value {
	e := jsonv.Edit(v)
	for i, it := range v.Items() {
		e.Set(i, f(it, i))
	}
	return e.Result()
}

// dropOptionalNulls is pass 1.
func (c *coercer) dropOptionalNulls(v, node jsonv.Value, base string) jsonv.Value {
	if node.Kind() != jsonv.Object || (v.Kind() != jsonv.Array && v.Kind() != jsonv.Object) {
		return v
	}
	n := c.vd.info(node, base)
	if v.Kind() == jsonv.Array {
		return mapItems(v, func(item jsonv.Value, i int) jsonv.Value {
			s, ok := n.itemSchemaAt(i)
			if !ok {
				return item
			}
			return c.dropOptionalNulls(item, s, n.base)
		})
	}
	if !n.hasPatterns && !n.hasAdditional && !n.hasProperties {
		return v
	}
	e := jsonv.Edit(v)
	for _, p := range n.properties.Members() {
		i := v.IndexOf(p.Key)
		if i < 0 {
			continue
		}
		cur := v.Members()[i].Value
		if cur.IsNull() && !n.requires(p.Key) && !(p.Value.Kind() == jsonv.Object && isStringKeyword(p.Value, "$ref")) &&
			c.vd.passesFalse(p.Value, jsonv.NullValue()) {
			e.Delete(i)
			continue
		}
		e.Set(i, c.dropOptionalNulls(cur, p.Value, n.base))
	}
	if n.hasPatterns || n.hasAdditional {
		for i, m := range v.Members() {
			matched := n.properties.Has(m.Key)
			for _, p := range n.patterns.Members() {
				if !c.vd.matchesPattern(p.Key, m.Key) {
					continue
				}
				matched = true
				if !e.Deleted(i) {
					e.Set(i, c.dropOptionalNulls(e.Get(i), p.Value, n.base))
				}
			}
			if !matched && n.hasAdditional {
				e.Set(i, c.dropOptionalNulls(m.Value, n.additional, n.base))
			}
		}
	}
	return e.Result()
}

func isStringKeyword(node jsonv.Value, key string) bool {
	v, ok := node.Get(key)
	return ok && v.Kind() == jsonv.String
}

// coerceTypes is pass 3.
func (c *coercer) coerceTypes(v, node jsonv.Value, base string) jsonv.Value {
	if node.Kind() != jsonv.Object {
		return v
	}
	n := c.vd.info(node, base)
	next := v
	for _, s := range n.allOf {
		next = c.coerceTypes(next, s, n.base)
	}
	if n.hasAnyOf {
		next = c.coerceUnion(next, n.anyOf, n.base)
	}
	if n.hasOneOf {
		next = c.coerceUnion(next, n.oneOf, n.base)
	}
	matchesMember := false
	if len(n.types) > 1 {
		for _, t := range n.types {
			if t.Kind() == jsonv.String && matchesType(next, t.Str()) {
				matchesMember = true
				break
			}
		}
	}
	hasObject, hasArray := false, false
	coerced := matchesMember
	for _, t := range n.types {
		if t.Kind() != jsonv.String {
			continue
		}
		if !coerced {
			if cand := coercePrimitive(next, t.Str()); !jsonv.StrictEqual(cand, next) {
				next = cand
				coerced = true
			}
		}
		hasObject = hasObject || t.Str() == "object"
		hasArray = hasArray || t.Str() == "array"
	}
	if hasObject && next.Kind() == jsonv.Object {
		next = c.coerceProperties(next, n)
	}
	if hasArray && next.Kind() == jsonv.Array {
		next = mapItems(next, func(item jsonv.Value, i int) jsonv.Value {
			s, ok := n.itemSchemaAt(i)
			if !ok || s.Kind() != jsonv.Object {
				return item
			}
			return c.coerceTypes(item, s, n.base)
		})
	}
	return next
}

func (c *coercer) coerceUnion(v jsonv.Value, branches []jsonv.Value, base string) jsonv.Value {
	for _, s := range branches {
		if c.vd.passesTrue(s, v) {
			return v
		}
	}
	for _, s := range branches {
		if coerced := c.coerceTypes(v, s, base); c.vd.passesTrue(s, coerced) {
			return coerced
		}
	}
	return v
}

func (c *coercer) coerceProperties(v jsonv.Value, n *nodeInfo) jsonv.Value {
	e := jsonv.Edit(v)
	for _, p := range n.properties.Members() {
		if i := v.IndexOf(p.Key); i >= 0 {
			e.Set(i, c.coerceTypes(v.Members()[i].Value, p.Value, n.base))
		}
	}
	if !n.hasPatterns && !n.hasAdditional {
		return e.Result()
	}
	for i, m := range v.Members() {
		matched := n.properties.Has(m.Key)
		if n.hasPatterns {
			for _, p := range n.patterns.Members() {
				if !c.vd.matchesPattern(p.Key, m.Key) {
					continue
				}
				matched = true
				e.Set(i, c.coerceTypes(e.Get(i), p.Value, n.base))
			}
		}
		if !matched && n.hasAdditional {
			e.Set(i, c.coerceTypes(m.Value, n.additional, n.base))
		}
	}
	return e.Result()
}

// matchesType reports whether v has the JSON Schema type t.
func matchesType(v jsonv.Value, t string) bool {
	switch t {
	case "number":
		return v.IsFinite()
	case "integer":
		return v.IsInteger()
	case "boolean":
		return v.Kind() == jsonv.Bool
	case "string":
		return v.Kind() == jsonv.String
	case "null":
		return v.IsNull()
	case "array":
		return v.Kind() == jsonv.Array
	case "object":
		return v.Kind() == jsonv.Object
	}
	return false
}

// coercePrimitive is Ajv's coercion of a scalar to type t; v itself when it
// does not coerce.
func coercePrimitive(v jsonv.Value, t string) jsonv.Value {
	switch t {
	case "number", "integer":
		switch v.Kind() {
		case jsonv.Null:
			return jsonv.NumberValue(0)
		case jsonv.String:
			if jsonv.TrimSpace(v.Str()) != "" {
				n := jsonv.NumberValue(jsonv.StringToNumber(v.Str()))
				if (t == "number" && n.IsFinite()) || (t == "integer" && n.IsInteger()) {
					return n
				}
			}
		case jsonv.Bool:
			if v.Bool() {
				return jsonv.NumberValue(1)
			}
			return jsonv.NumberValue(0)
		}
	case "boolean":
		switch {
		case v.IsNull():
			return jsonv.BoolValue(false)
		case v.Kind() == jsonv.String && v.Str() == "true", v.Kind() == jsonv.Number && v.Num() == 1:
			return jsonv.BoolValue(true)
		case v.Kind() == jsonv.String && v.Str() == "false", v.Kind() == jsonv.Number && v.Num() == 0:
			return jsonv.BoolValue(false)
		}
	case "string":
		switch v.Kind() {
		case jsonv.Null:
			return jsonv.StringValue("")
		case jsonv.Number:
			return jsonv.StringValue(jsonv.FormatNumber(v.Num()))
		case jsonv.Bool:
			return jsonv.StringValue(boolString(v.Bool()))
		}
	case "null":
		if (v.Kind() == jsonv.String && v.Str() == "") || (v.Kind() == jsonv.Number && v.Num() == 0) ||
			(v.Kind() == jsonv.Bool && !v.Bool()) {
			return jsonv.NullValue()
		}
	}
	return v
}

func boolString(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
