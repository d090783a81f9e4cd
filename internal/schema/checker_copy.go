package schema

import (
	"math"
	"strings"

	"github.com/pi-go/agentcore/internal/jsonv"
)

// checkerCopy returns the schema as the checker compiles it, so that it
// accepts what the reference accepts:
//
//   - without the root's $schema (the reference applies draft 2020-12
//     whatever it says);
//   - with patterns in RE2 syntax;
//   - with every $ref that names nothing pointing to a false schema under
//     $defs;
//   - without the keyword values the reference ignores for their type (a
//     non-array required, a non-string description, a boolean
//     exclusiveMinimum, ...), which the checker's meta-schema would reject;
//   - with count bounds rounded to the integers they mean and unknown type
//     names (which no value has) turned into a false allOf member;
//   - with a negative multipleOf made positive (the reference's remainder
//     test ignores the sign) and a zero one, which no number passes in the
//     reference (x % 0 is NaN), turned into an allOf member refusing
//     numbers.
//
// Subschema locations do not move: only keywords that hold no subschema are
// dropped, and allOf is appended to.
func checkerCopy(doc *document, node jsonv.Value, isRoot bool) jsonv.Value {
	switch node.Kind() {
	case jsonv.Array:
		items := node.Items()
		out := make([]jsonv.Value, len(items))
		for i, it := range items {
			out[i] = checkerCopy(doc, it, false)
		}
		return jsonv.ArrayValue(out)
	case jsonv.Object:
	default:
		return node
	}
	_, isSchema := doc.loc[node]
	members := node.Members()
	out := make([]jsonv.Member, 0, len(members)+2)
	never, noNumber := false, false
	for _, m := range members {
		val := m.Value
		if isSchema && m.Key == "multipleOf" && val.Kind() == jsonv.Number && val.Num() == 0 {
			noNumber = true // the checker's meta-schema refuses 0
			continue
		}
		if isSchema {
			keep := true
			val, keep, never = sanitize(doc, node, m.Key, val, isRoot, never)
			if !keep {
				continue
			}
		}
		if isRoot && m.Key == "$defs" && val.Kind() == jsonv.Object {
			defs := append([]jsonv.Member(nil), checkerCopy(doc, val, false).Members()...)
			defs = append(defs, jsonv.Member{Key: unresolvedDef, Value: jsonv.BoolValue(false)})
			out = append(out, jsonv.Member{Key: m.Key, Value: jsonv.ObjectValue(defs)})
			continue
		}
		if m.Key != "patternProperties" || !isSchema {
			val = checkerCopy(doc, val, false)
		}
		out = append(out, jsonv.Member{Key: m.Key, Value: val})
	}
	if isRoot && !node.Has("$defs") {
		out = append(out, jsonv.Member{Key: "$defs", Value: jsonv.ObjectValue([]jsonv.Member{{Key: unresolvedDef, Value: jsonv.BoolValue(false)}})})
	}
	if never {
		out = appendAllOf(out, jsonv.BoolValue(false))
	}
	if noNumber {
		out = appendAllOf(out, notNumber)
	}
	return jsonv.ObjectValue(out)
}

// notNumber is the schema {"not": {"type": "number"}}.
var notNumber = jsonv.ObjectValue([]jsonv.Member{{Key: "not", Value: jsonv.ObjectValue([]jsonv.Member{{Key: "type", Value: jsonv.StringValue("number")}})}})

// checkerRootURL is the URL the checker knows the root document by: its $id
// when the checker keeps it, else the default base.
func checkerRootURL(doc *document) string {
	if id, ok := doc.root.Get("$id"); ok && id.Kind() == jsonv.String && !strings.Contains(strings.TrimSuffix(id.Str(), "#"), "#") {
		return doc.base[doc.root.ID()]
	}
	return defaultBase
}

// Keywords by the type of value the checker's meta-schema requires; the
// reference ignores a value of another type.
var (
	stringKeywords = map[string]bool{
		"$dynamicAnchor": true, "$comment": true, "title": true,
		"description": true, "format": true, "contentEncoding": true, "contentMediaType": true, "pattern": true,
	}
	boolKeywords   = map[string]bool{"uniqueItems": true, "deprecated": true, "readOnly": true, "writeOnly": true}
	objectKeywords = map[string]bool{
		"properties": true, "patternProperties": true, "$defs": true, "definitions": true,
		"dependentRequired": true, "dependentSchemas": true, "dependencies": true,
	}
	numberKeywords = map[string]bool{"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true}
	countKeywords  = map[string]int{
		"minLength": -1, "minItems": -1, "minProperties": -1, "minContains": -1,
		"maxLength": 1, "maxItems": 1, "maxProperties": 1, "maxContains": 1,
	}
	jsonTypes = map[string]bool{"string": true, "number": true, "integer": true, "boolean": true, "null": true, "array": true, "object": true}
)

// sanitize returns the checker's form of one keyword of a schema object and
// whether to keep it; never becomes true when the keyword (an unknown type)
// means that no value passes.
func sanitize(doc *document, node jsonv.Value, key string, val jsonv.Value, isRoot, never bool) (jsonv.Value, bool, bool) {
	k := val.Kind()
	switch {
	case key == "$schema":
		return val, !isRoot, never
	case key == "$ref" || key == "$dynamicRef":
		if k != jsonv.String {
			return val, false, never
		}
		t, ok := doc.refs[node]
		if key == "$dynamicRef" {
			t, ok = doc.dynRefs[node]
		}
		switch {
		case ok && t.unresolved:
			val = jsonv.StringValue(checkerRootURL(doc) + "#/$defs/" + unresolvedDef)
		case ok && key == "$ref":
			// By location, so the checker resolves exactly what the walks do.
			val = jsonv.StringValue(checkerRootURL(doc) + "#" + t.loc)
		}
		return val, true, never
	case key == "$anchor":
		// Every $ref now names a location; anchors are left to the walks.
		return val, false, never
	case key == "$id":
		// The checker rejects an $id with a fragment (a draft-7 anchor).
		return val, k == jsonv.String && !strings.Contains(strings.TrimSuffix(val.Str(), "#"), "#"), never
	case key == "pattern":
		if k != jsonv.String {
			return val, false, never
		}
		return jsonv.StringValue(doc.translated(val.Str())), true, never
	case key == "patternProperties":
		if k != jsonv.Object {
			return val, false, never
		}
		pats := make([]jsonv.Member, 0, val.Len())
		for _, p := range val.Members() {
			pats = append(pats, jsonv.Member{Key: doc.translated(p.Key), Value: checkerCopy(doc, p.Value, false)})
		}
		return jsonv.ObjectValue(pats), true, never
	case stringKeywords[key]:
		return val, k == jsonv.String, never
	case boolKeywords[key]:
		return val, k == jsonv.Bool, never
	case objectKeywords[key]:
		return val, k == jsonv.Object, never
	case numberKeywords[key]:
		return val, k == jsonv.Number, never
	case key == "multipleOf":
		if k == jsonv.Number && val.Num() < 0 {
			return jsonv.NumberValue(-val.Num()), true, never
		}
		// Zero never gets here: checkerCopy turns it into an allOf member
		// refusing numbers.
		return val, k == jsonv.Number, never
	case key == "enum" || key == "examples":
		return val, k == jsonv.Array, never
	case key == "required":
		return uniqueStrings(val), k == jsonv.Array, never
	case key == "type":
		return sanitizeType(val, never)
	}
	if dir, ok := countKeywords[key]; ok {
		if k != jsonv.Number {
			return val, false, never
		}
		n := val.Num()
		if dir < 0 {
			n = math.Ceil(n)
			if n <= 0 {
				return val, false, never
			}
		} else {
			n = math.Floor(n)
		}
		return jsonv.NumberValue(n), true, never
	}
	return val, true, never
}

// sanitizeType keeps the JSON type names of a type keyword, once each; with
// none left (only names no JSON value has), no value passes.
func sanitizeType(val jsonv.Value, never bool) (jsonv.Value, bool, bool) {
	switch val.Kind() {
	case jsonv.String:
		if jsonTypes[val.Str()] {
			return val, true, never
		}
		return val, false, true
	case jsonv.Array:
		var names []jsonv.Value
		for _, t := range val.Items() {
			if t.Kind() == jsonv.String && jsonTypes[t.Str()] && !inValues(names, t) {
				names = append(names, t)
			}
		}
		if len(names) == 0 {
			return val, false, true
		}
		return jsonv.ArrayValue(names), true, never
	}
	return val, false, true
}

func uniqueStrings(list jsonv.Value) jsonv.Value {
	var out []jsonv.Value
	for _, v := range list.Items() {
		if v.Kind() == jsonv.String && !inValues(out, v) {
			out = append(out, v)
		}
	}
	return jsonv.ArrayValue(append([]jsonv.Value{}, out...))
}

// appendAllOf adds schema to a schema object's allOf.
func appendAllOf(members []jsonv.Member, schema jsonv.Value) []jsonv.Member {
	for i, m := range members {
		if m.Key == "allOf" && m.Value.Kind() == jsonv.Array {
			items := append(append([]jsonv.Value(nil), m.Value.Items()...), schema)
			members[i].Value = jsonv.ArrayValue(items)
			return members
		}
	}
	return append(members, jsonv.Member{Key: "allOf", Value: jsonv.ArrayValue([]jsonv.Value{schema})})
}
