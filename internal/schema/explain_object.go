package schema

import (
	"math"
	"math/big"
	"strings"

	"github.com/pi-go/agentcore/internal/jsonv"
)

func (x *explainer) walkObject(node jsonv.Value, b string, v jsonv.Value, path string, out *[]ValidationError, push func(string, string, string)) {
	properties, _ := schemaMap(node, "properties")
	if req, ok := node.Get("required"); ok && req.Kind() == jsonv.Array {
		for _, k := range req.Items() {
			if k.Kind() == jsonv.String && !v.Has(k.Str()) {
				push("required", "missing", pointer(path, k.Str()))
			}
		}
	}
	for _, p := range properties.Members() {
		if val, ok := v.Get(p.Key); ok {
			x.walk(p.Value, b, val, pointer(path, p.Key), out)
		}
	}
	patterns, _ := schemaMap(node, "patternProperties")
	additional, hasAdditional := node.Get("additionalProperties")
	names, hasNames := node.Get("propertyNames")
	for _, m := range v.Members() {
		matched := properties.Has(m.Key)
		for _, p := range patterns.Members() {
			if x.vd.matchesPattern(p.Key, m.Key) {
				matched = true
				x.walk(p.Value, b, m.Value, pointer(path, m.Key), out)
			}
		}
		if !matched && hasAdditional {
			if additional.Kind() == jsonv.Bool && !additional.Bool() {
				push("additionalProperties", "unknown field", pointer(path, m.Key))
			} else {
				x.walk(additional, b, m.Value, pointer(path, m.Key), out)
			}
		}
		if hasNames && !x.vd.ok(names, jsonv.StringValue(m.Key)) {
			push("propertyNames", "invalid property name", pointer(path, m.Key))
		}
	}
	count := float64(v.Len())
	if min, ok := numberKeyword(node, "minProperties"); ok && count < min {
		push("minProperties", "expected at least "+jsonv.FormatNumber(min)+" properties", path)
	}
	if max, ok := numberKeyword(node, "maxProperties"); ok && count > max {
		push("maxProperties", "expected at most "+jsonv.FormatNumber(max)+" properties", path)
	}
	// dependentRequired and dependencies merge into one object, in JavaScript
	// key order, the latter winning a shared key.
	var deps []jsonv.Member
	if dr, ok := schemaMap(node, "dependentRequired"); ok {
		deps = append(deps, dr.Members()...)
	}
	if d, ok := schemaMap(node, "dependencies"); ok {
		deps = append(deps, d.Members()...)
	}
	if len(deps) > 0 {
		for _, d := range jsonv.ObjectValue(deps).Members() {
			if !v.Has(d.Key) {
				continue
			}
			if d.Value.Kind() != jsonv.Array {
				x.walk(d.Value, b, v, path, out)
				continue
			}
			for _, r := range d.Value.Items() {
				name := jsString(r)
				if !v.Has(name) {
					push("dependentRequired", "required when "+d.Key+" is present", pointer(path, name))
				}
			}
		}
	}
	if ds, ok := schemaMap(node, "dependentSchemas"); ok {
		for _, d := range ds.Members() {
			if v.Has(d.Key) {
				x.walk(d.Value, b, v, path, out)
			}
		}
	}
}

// walkUnevaluated reports the properties or items no keyword evaluated, for a
// node whose other keywords all passed.
func (x *explainer) walkUnevaluated(node jsonv.Value, b string, v jsonv.Value, path string, out *[]ValidationError) {
	a := annotations{props: map[string]bool{}, indexes: map[int]bool{}}
	x.annotate(node, b, v, &a, true)
	if up, ok := node.Get("unevaluatedProperties"); ok && v.Kind() == jsonv.Object && !a.allProps {
		for _, m := range v.Members() {
			if a.props[m.Key] {
				continue
			}
			if up.Kind() == jsonv.Bool && !up.Bool() {
				*out = append(*out, ValidationError{pointer(path, m.Key), "unevaluatedProperties", "unknown field"})
			} else {
				x.walk(up, b, m.Value, pointer(path, m.Key), out)
			}
		}
	}
	if ui, ok := node.Get("unevaluatedItems"); ok && v.Kind() == jsonv.Array && !a.allItems {
		for i, it := range v.Items() {
			if i < a.items || a.indexes[i] {
				continue
			}
			at := path + "/" + itoa(i)
			if ui.Kind() == jsonv.Bool && !ui.Bool() {
				*out = append(*out, ValidationError{at, "unevaluatedItems", "unexpected item"})
			} else {
				x.walk(ui, b, it, at, out)
			}
		}
	}
}

// typeName names the type of v in "got ..." messages: integer for a number
// without a fraction, Infinity for an infinity.
func typeName(v jsonv.Value) string {
	switch v.Kind() {
	case jsonv.Number:
		if v.IsInteger() {
			return "integer"
		}
		if !v.IsFinite() {
			return jsonv.FormatNumber(v.Num())
		}
		return "number"
	case jsonv.Bool:
		return "boolean"
	}
	return v.Kind().String()
}

// isType reports whether v has the type name as the reference's type checks
// see it; bytes, bigint and undefined name no JSON value.
func isType(v jsonv.Value, name string) bool {
	return matchesType(v, name)
}

// jsString converts a value to a string as JavaScript's String() does.
func jsString(v jsonv.Value) string {
	switch v.Kind() {
	case jsonv.String:
		return v.Str()
	case jsonv.Number:
		return jsonv.FormatNumber(v.Num())
	case jsonv.Bool:
		return boolString(v.Bool())
	case jsonv.Null:
		return "null"
	case jsonv.Array:
		return joinJS(v.Items(), ",")
	}
	return "[object Object]"
}

// joinJS is JavaScript's Array.prototype.join (null becomes "").
func joinJS(list []jsonv.Value, sep string) string {
	parts := make([]string, len(list))
	for i, v := range list {
		if !v.IsNull() {
			parts[i] = jsString(v)
		}
	}
	return strings.Join(parts, sep)
}

func inValues(values []jsonv.Value, v jsonv.Value) bool {
	for _, m := range values {
		if jsonv.Equal(m, v) {
			return true
		}
	}
	return false
}

// listedValues is how many values an enum message names before it cuts.
const listedValues = 20

// listValues writes values as a JSON array, at most listedValues of them, then
// how many more there are.
func listValues(values []jsonv.Value) string {
	if len(values) <= listedValues {
		return jsonv.ArrayValue(values).JSON()
	}
	s := jsonv.ArrayValue(values[:listedValues]).JSON()
	return s[:len(s)-1] + ", ... and " + itoa(len(values)-listedValues) + " more]"
}

// pointer appends a key to a JSON Pointer.
func pointer(path, key string) string {
	return path + "/" + strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
}

// utf16Len is the length of s in UTF-16 code units, as JavaScript measures a
// string.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// isMultiple reports whether v is a multiple of d, exactly for decimals
// (0.0075 is a multiple of 0.0001) as the reference computes it.
func isMultiple(v, d float64) bool {
	q := v / d
	if !math.IsInf(q, 0) && !math.IsNaN(q) {
		if q == math.Trunc(q) {
			return true
		}
	} else {
		return math.Mod(v, d) == 0
	}
	rv, ok1 := new(big.Rat).SetString(jsonv.FormatNumber(math.Abs(v)))
	rd, ok2 := new(big.Rat).SetString(jsonv.FormatNumber(math.Abs(d)))
	if !ok1 || !ok2 || rd.Sign() == 0 {
		return false
	}
	return new(big.Rat).Quo(rv, rd).IsInt()
}

func itoa(i int) string {
	return jsonv.FormatNumber(float64(i))
}
