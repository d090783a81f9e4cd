package google

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

func TestStrictSchemaRefusals(t *testing.T) {
	for _, tc := range []struct{ schema, reason string }{
		{`true`, "root schema must have type object"},
		{`{"type":"string"}`, "root schema must have type object"},
		{`{"type":"object","properties":{"a":true}}`, "boolean schemas are unsupported"},
		{`{"type":"object","allOf":[]}`, "allOf schemas are unsupported"},
		{`{"type":"object","properties":{"a":{"description":"x"}}}`, "schemas without a type are unsupported"},
		{`{"type":"object","properties":{"a":{"anyOf":[]}}}`, "anyOf must contain at least one schema"},
		{`{"type":"object","properties":{"a":{"anyOf":[{"type":"object"}]}}}`, "object and array unions are unsupported"},
		{`{"type":"object","properties":{"a":{"type":"array","items":[{"type":"string"}]}}}`, "tuple schemas are unsupported"},
		{`{"type":"string","properties":{}}`, "properties require type object"},
		{`{"type":"object","additionalProperties":true}`, "schema-valued or true additionalProperties is unsupported"},
		{`{"type":"object","properties":[]}`, "object properties must be a schema map"},
		{`{"type":"object","required":[1]}`, "object required must be a string array"},
		{`{"type":"object","required":["b"],"properties":{"a":{"type":"string"}}}`, "required contains an unknown property"},
	} {
		_, err := strictSchema(json.RawMessage(tc.schema))
		var ns errNotStrict
		require.ErrorAs(t, err, &ns, tc.schema)
		assert.Equal(t, tc.reason, ns.reason, tc.schema)
	}
	v, err := strictSchema(json.RawMessage(`{"type":"object"}`))
	require.NoError(t, err)
	assert.Equal(t, `{"type":"object","required":[],"additionalProperties":false}`, v.JSON())
}

func TestStrictToolsRequired(t *testing.T) {
	require := json.RawMessage(`{"type":"json_schema","strict":"require"}`)
	tools := []agentcore.ToolDeclaration{{Name: "t", Parameters: json.RawMessage(`{"type":"object","$defs":{}}`), ConstrainedSampling: require}}
	_, err := strictTools("gemini-3-pro-preview", tools)
	assert.EqualError(t, err, `Tool "t" requires JSON-schema constrained sampling, but $defs schemas are unsupported.`)
	tools[0].Parameters = json.RawMessage(`{"type":"object"}`)
	_, err = strictTools("gemini-2.5-flash", tools)
	assert.EqualError(t, err, `Tool "t" requires JSON-schema constrained sampling, but strict tools are unsupported.`)
	strict, err := strictTools("gemini-3-flash-preview", tools)
	assert.NoError(t, err)
	assert.Equal(t, []bool{true}, strict)
}
