package google

import (
	"encoding/json"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/jsonv"
)

// convertTools declares tools as one tool of function declarations, each
// with its parameters as parametersJsonSchema (see [parametersSchema]);
// none when there are no tools. strict says which tools are declared in
// their strict form.
func convertTools(tools []agentcore.ToolDeclaration, strict []bool) []wireTool {
	if len(tools) == 0 {
		return nil
	}
	decls := make([]functionDeclaration, len(tools))
	for i, t := range tools {
		decls[i] = functionDeclaration{Name: t.Name, Description: t.Description, ParametersJSONSchema: parametersSchema(t.Parameters, strict[i])}
	}
	return []wireTool{{FunctionDeclarations: decls}}
}

// parametersSchema is a tool's JSON schema as pi-ai sends it: whole (or
// its [strictSchema] form), with each string or number const of a schema
// rewritten as a one-value enum (Gemini ignores const but honors enum).
// Parameters that are not JSON are left out.
func parametersSchema(params json.RawMessage, strict bool) json.RawMessage {
	if len(params) == 0 {
		return nil
	}
	v, err := jsonv.Parse(params)
	if strict {
		v, err = strictSchema(params)
	}
	if err != nil {
		return nil
	}
	return constAsEnum(v, false).AppendJSON(nil)
}

// nameMaps are the keywords whose values map names to subschemas.
var nameMaps = map[string]bool{
	"properties": true, "patternProperties": true, "$defs": true, "definitions": true,
	"dependentSchemas": true, "dependencies": true,
}

// subschemas are the keywords whose values are a subschema or an array of
// them.
var subschemas = map[string]bool{
	"additionalProperties": true, "unevaluatedProperties": true, "propertyNames": true,
	"items": true, "prefixItems": true, "additionalItems": true, "unevaluatedItems": true,
	"contains": true, "allOf": true, "anyOf": true, "oneOf": true, "not": true,
	"if": true, "then": true, "else": true, "contentSchema": true,
}

// constAsEnum rewrites v, a schema (or, with nameMap, an object mapping
// names to schemas), walking only into subschemas: literal data such as an
// enum's or a default's is left alone.
func constAsEnum(v jsonv.Value, nameMap bool) jsonv.Value {
	switch v.Kind() {
	case jsonv.Array:
		items := v.Items()
		out := make([]jsonv.Value, len(items))
		for i, item := range items {
			out[i] = constAsEnum(item, false)
		}
		return jsonv.ArrayValue(out)
	case jsonv.Object:
	default:
		return v
	}
	members := v.Members()
	out := make([]jsonv.Member, 0, len(members)+1)
	for _, m := range members {
		switch {
		case nameMap || subschemas[m.Key]:
			m.Value = constAsEnum(m.Value, false)
		case nameMaps[m.Key]:
			m.Value = constAsEnum(m.Value, true)
		}
		out = append(out, m)
	}
	if !nameMap && !v.Has("enum") {
		if i := v.IndexOf("const"); i >= 0 {
			if c := members[i].Value; c.Kind() == jsonv.String || c.Kind() == jsonv.Number {
				out = append(out[:i:i], out[i+1:]...)
				out = append(out, jsonv.Member{Key: "enum", Value: jsonv.ArrayValue([]jsonv.Value{c})})
			}
		}
	}
	return jsonv.ObjectValue(out)
}
