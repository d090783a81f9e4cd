package schema

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// assertRawAgrees checks the raw check on args against the full path: when
// the raw check accepts, the checker alone must find args valid and leave
// them unchanged. It reports whether the raw check accepted.
func assertRawAgrees(t *testing.T, vd *Validator, args string) bool {
	t.Helper()
	if vd.fast == nil || !vd.fast.stable || !vd.fast.acceptsRaw([]byte(args)) {
		return false
	}
	got, errs, err := checkerOnly(vd).Parse(json.RawMessage(args))
	require.NoError(t, err, "raw check accepts %s", args)
	require.Nil(t, errs, "raw check accepts %s", args)
	require.Equal(t, args, string(got), "raw check accepts %s unchanged", args)
	return true
}

// TestRawCheck names the cases the raw check must leave to the full path
// (not plain, or not accepted) and some it must take, each checked against
// the full path too.
func TestRawCheck(t *testing.T) {
	tests := []struct {
		name, schema, args string
		raw                bool
	}{
		{"plain object", searchSchema, `{"query":"go agents","limit":10,"exact":true,"tags":["a","b"],"score":-3}`, true},
		{"empty object", `{"type":"object"}`, `{}`, true},
		{"extra members allowed", searchSchema, `{"query":"q","other":{"x":[1,null,false]}}`, true},
		{"missing required", searchSchema, `{"limit":1}`, false},
		{"needs coercion", searchSchema, `{"query":"q","limit":"10"}`, false},
		{"whitespace", searchSchema, `{"query": "q"}`, false},
		{"escape", searchSchema, `{"query":"a\"b"}`, false},
		{"non-ASCII", searchSchema, `{"query":"é"}`, false},
		{"control character", searchSchema, "{\"query\":\"a\tb\"}", false},
		{"fraction", searchSchema, `{"query":"q","score":1.5}`, false},
		{"exponent", searchSchema, `{"query":"q","score":1e3}`, false},
		{"negative zero", searchSchema, `{"query":"q","score":-0}`, false},
		{"leading zero", searchSchema, `{"query":"q","score":01}`, false},
		{"sixteen digits", searchSchema, `{"query":"q","score":1234567890123456}`, false},
		{"fifteen digits", searchSchema, `{"query":"q","score":123456789012345}`, true},
		{"duplicate key", searchSchema, `{"query":"q","query":"r"}`, false},
		{"integer-like key", `{"type":"object"}`, `{"b":1,"1":2}`, false},
		{"wrong type", searchSchema, `{"query":1}`, false},
		{"trailing bytes", searchSchema, `{"query":"q"}x`, false},
		{"truncated", searchSchema, `{"query":"q"`, false},
		{"enum member", `{"type":"object","properties":{"m":{"enum":["a","b"]}}}`, `{"m":"b"}`, true},
		{"enum miss", `{"type":"object","properties":{"m":{"enum":["a","b"]}}}`, `{"m":"c"}`, false},
		{"const", `{"properties":{"m":{"const":"x"}}}`, `{"m":"x"}`, true},
		{"pattern", `{"properties":{"p":{"type":"string","pattern":"^[a-z]+$"}}}`, `{"p":"abc"}`, true},
		{"pattern miss", `{"properties":{"p":{"type":"string","pattern":"^[a-z]+$"}}}`, `{"p":"ab1"}`, false},
		{"lengths", `{"properties":{"p":{"minLength":2,"maxLength":3}}}`, `{"p":"abcd"}`, false},
		{"bounds", `{"properties":{"n":{"type":"integer","minimum":1,"exclusiveMaximum":5}}}`, `{"n":5}`, false},
		{"format left to the full path", `{"properties":{"d":{"type":"string","format":"date"}}}`, `{"d":"2024-01-02"}`, false},
		{"unique left to the full path", `{"properties":{"l":{"uniqueItems":true}}}`, `{"l":[1,2]}`, false},
		{"item counts", `{"properties":{"l":{"type":"array","minItems":1,"maxItems":2}}}`, `{"l":[]}`, false},
		{"no additional", `{"type":"object","properties":{"a":{}},"additionalProperties":false}`, `{"a":1,"b":2}`, false},
		{"property counts", `{"maxProperties":1}`, `{"a":1,"b":2}`, false},
		{"false schema", `{"properties":{"a":false}}`, `{"a":1}`, false},
		{"true schema", `{"properties":{"a":true}}`, `{"a":[{"b":"c"}]}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vd, err := Compile(json.RawMessage(tt.schema))
			require.NoError(t, err)
			assert.Equal(t, tt.raw, assertRawAgrees(t, vd, tt.args), "raw check on %s", tt.args)
		})
	}
}
