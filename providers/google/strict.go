package google

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/jsonv"
)

// errNotStrict is why a schema has no strict form; its text says what
// stands in the way.
type errNotStrict struct{ reason string }

func (e errNotStrict) Error() string { return e.reason }

func notStrict(format string, args ...any) error { return errNotStrict{fmt.Sprintf(format, args...)} }

// strictUnsupported are the keywords strict sampling does not take.
var strictUnsupported = []string{
	"$ref", "$defs", "definitions", "allOf", "oneOf", "patternProperties", "dependentSchemas", "dependencies",
	"unevaluatedProperties", "propertyNames", "contains", "prefixItems", "not", "if", "then", "else",
}

// strictTools reports, for each tool, whether it is declared for strict
// (validated) function calling, as pi-ai's resolveJsonSchemaStrictSampling
// decides: a tool whose constrainedSampling asks for a JSON schema
// ("type":"json_schema") is strict when the model takes strict tools
// (Gemini 3 and later) and its parameters have a strict form. A tool that
// requires it ("strict":"require") and cannot have it is an error.
func strictTools(modelID string, tools []agentcore.ToolDeclaration) ([]bool, error) {
	supported := false
	if n, ok := geminiMajor(modelID); ok && n >= 3 {
		supported = true
	}
	out := make([]bool, len(tools))
	for i, t := range tools {
		var cfg struct {
			Type   string `json:"type"`
			Strict any    `json:"strict"`
		}
		if len(t.ConstrainedSampling) == 0 || json.Unmarshal(t.ConstrainedSampling, &cfg) != nil || cfg.Type != "json_schema" {
			continue
		}
		require := cfg.Strict == "require"
		if !supported {
			if require {
				return nil, fmt.Errorf(`Tool "%s" requires JSON-schema constrained sampling, but strict tools are unsupported.`, t.Name)
			}
			continue
		}
		_, err := strictSchema(t.Parameters)
		var ns errNotStrict
		switch {
		case err == nil:
			out[i] = true
		case require && errors.As(err, &ns):
			return nil, fmt.Errorf(`Tool "%s" requires JSON-schema constrained sampling, but %s.`, t.Name, ns.reason)
		}
	}
	return out, nil
}

// strictSchema returns the strict form of a tool's parameters, as pi-ai's
// makeStrictJsonSchema makes it: every object closed (additionalProperties
// false) with all its properties required, an optional property made
// nullable (anyOf it and null) unless it already takes null. Keywords
// strict sampling does not take, untyped schemas, unions of objects or
// arrays and tuples have no strict form.
func strictSchema(params json.RawMessage) (jsonv.Value, error) {
	root, err := jsonv.Parse(params)
	if err != nil || root.Kind() != jsonv.Object {
		return jsonv.Value{}, notStrict("root schema must have type object")
	}
	out, err := strictNode(root)
	if err != nil {
		return jsonv.Value{}, err
	}
	if t, _ := out.Get("type"); t.Kind() != jsonv.String || t.Str() != "object" {
		return jsonv.Value{}, notStrict("root schema must have type object")
	}
	return out, nil
}

// strictNode returns the strict form of one schema.
func strictNode(v jsonv.Value) (jsonv.Value, error) {
	if v.Kind() != jsonv.Object {
		return v, notStrict("boolean schemas are unsupported")
	}
	for _, k := range strictUnsupported {
		if v.Has(k) {
			return v, notStrict("%s schemas are unsupported", k)
		}
	}
	if !v.Has("type") && !v.Has("anyOf") && !v.Has("enum") {
		return v, notStrict("schemas without a type are unsupported")
	}
	e := jsonv.Edit(v)
	if err := strictVariants(v, &e); err != nil {
		return v, err
	}
	if i := v.IndexOf("items"); i >= 0 {
		items := v.Members()[i].Value
		if items.Kind() == jsonv.Array {
			return v, notStrict("tuple schemas are unsupported")
		}
		s, err := strictNode(items)
		if err != nil {
			return v, err
		}
		e.Set(i, s)
	}
	t, _ := v.Get("type")
	switch isObject := t.Kind() == jsonv.String && t.Str() == "object"; {
	case v.Has("properties") && !isObject:
		return v, notStrict("properties require type object")
	case !isObject:
		return e.Result(), nil
	}
	return strictObject(v, e.Result())
}

// strictVariants sets the strict forms of the anyOf variants of v in e.
func strictVariants(v jsonv.Value, e *jsonv.Editor) error {
	i := v.IndexOf("anyOf")
	if i < 0 {
		return nil
	}
	variants := v.Members()[i].Value
	if variants.Kind() != jsonv.Array || variants.Len() == 0 {
		return notStrict("anyOf must contain at least one schema")
	}
	items := slices.Clone(variants.Items())
	for j, variant := range items {
		if structured(variant) {
			return notStrict("object and array unions are unsupported")
		}
		s, err := strictNode(variant)
		if err != nil {
			return err
		}
		items[j] = s
	}
	e.Set(i, jsonv.ArrayValue(items))
	return nil
}

// strictObject returns the strict form of an object schema v, out being v
// with its other keywords made strict.
func strictObject(v, out jsonv.Value) (jsonv.Value, error) {
	if ap, ok := v.Get("additionalProperties"); ok && !(ap.Kind() == jsonv.Bool && !ap.Bool()) {
		return v, notStrict("schema-valued or true additionalProperties is unsupported")
	}
	props, hasProps := v.Get("properties")
	if hasProps && props.Kind() != jsonv.Object {
		return v, notStrict("object properties must be a schema map")
	}
	required, err := requiredNames(v, props)
	if err != nil {
		return v, err
	}
	members := props.Members()
	names := make([]jsonv.Value, len(members))
	strictProps := make([]jsonv.Member, len(members))
	for j, m := range members {
		s, err := strictNode(m.Value)
		if err != nil {
			return v, err
		}
		if !required[m.Key] && !allowsNull(s) {
			s = jsonv.ObjectValue([]jsonv.Member{{Key: "anyOf", Value: jsonv.ArrayValue([]jsonv.Value{s, jsonv.ObjectValue([]jsonv.Member{{Key: "type", Value: jsonv.StringValue("null")}})})}})
		}
		names[j] = jsonv.StringValue(m.Key)
		strictProps[j] = jsonv.Member{Key: m.Key, Value: s}
	}
	if hasProps {
		out = set(out, "properties", jsonv.ObjectValue(strictProps))
	}
	out = set(out, "required", jsonv.ArrayValue(names))
	return set(out, "additionalProperties", jsonv.BoolValue(false)), nil
}

// requiredNames returns the names an object schema v requires, each one
// of its properties.
func requiredNames(v, props jsonv.Value) (map[string]bool, error) {
	required := map[string]bool{}
	req, ok := v.Get("required")
	if !ok {
		return required, nil
	}
	if req.Kind() != jsonv.Array {
		return nil, notStrict("object required must be a string array")
	}
	for _, r := range req.Items() {
		if r.Kind() != jsonv.String {
			return nil, notStrict("object required must be a string array")
		}
		required[r.Str()] = true
	}
	for name := range required {
		if !props.Has(name) {
			return nil, notStrict("required contains an unknown property")
		}
	}
	return required, nil
}

// set returns object v with key set to val: in place when v has it, else
// last, as JavaScript's assignment orders keys.
func set(v jsonv.Value, key string, val jsonv.Value) jsonv.Value {
	members := slices.Clone(v.Members())
	if i := v.IndexOf(key); i >= 0 {
		members[i].Value = val
	} else {
		members = append(members, jsonv.Member{Key: key, Value: val})
	}
	return jsonv.ObjectValue(members)
}

// structured reports whether a schema is of objects or arrays.
func structured(v jsonv.Value) bool {
	if v.Kind() != jsonv.Object {
		return false
	}
	t, _ := v.Get("type")
	for _, s := range typeNames(t) {
		if s == "object" || s == "array" {
			return true
		}
	}
	return v.Has("properties") || v.Has("items")
}

// allowsNull reports whether a schema takes null.
func allowsNull(v jsonv.Value) bool {
	if v.Kind() != jsonv.Object {
		return false
	}
	t, _ := v.Get("type")
	if slices.Contains(typeNames(t), "null") {
		return true
	}
	if c, ok := v.Get("const"); ok && c.IsNull() {
		return true
	}
	if en, ok := v.Get("enum"); ok && en.Kind() == jsonv.Array && slices.ContainsFunc(en.Items(), jsonv.Value.IsNull) {
		return true
	}
	if variants, ok := v.Get("anyOf"); ok && variants.Kind() == jsonv.Array {
		return slices.ContainsFunc(variants.Items(), allowsNull)
	}
	return false
}

// typeNames are the names of a schema's type keyword, a string or an
// array of them.
func typeNames(t jsonv.Value) []string {
	switch t.Kind() {
	case jsonv.String:
		return []string{t.Str()}
	case jsonv.Array:
		var out []string
		for _, x := range t.Items() {
			if x.Kind() == jsonv.String {
				out = append(out, x.Str())
			}
		}
		return out
	}
	return nil
}
