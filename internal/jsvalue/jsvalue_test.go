package jsvalue

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTruthy(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{"absent", ``, false},
		{"null", `null`, false},
		{"false", `false`, false},
		{"empty string", `""`, false},
		{"zero", `0`, false},
		{"zero as float", `0.0`, false},
		{"negative zero", `-0`, false},
		{"zero with exponent", `0e5`, false},
		{"spaces around", ` null `, false},
		{"number", `3`, true},
		{"true", `true`, true},
		{"string", `"x"`, true},
		{"string zero", `"0"`, true},
		{"empty object", `{}`, true},
		{"empty array", `[]`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Truthy(json.RawMessage(tt.in)))
		})
	}
}

func TestCompactJSON(t *testing.T) {
	assert.Equal(t, `{"a":[1,2]}`, CompactJSON([]byte(" {\"a\": [1, 2]}\n")))
	assert.Equal(t, `not json {`, CompactJSON([]byte(`not json {`)))
}

func TestTemplate(t *testing.T) {
	for raw, want := range map[string]string{
		"": "undefined", `"a"`: "a", `{"a":1}`: "[object Object]", `[1,null,{"a":1},"x"]`: "1,,[object Object],x",
		`1.50`: "1.5", `null`: "null", `true`: "true", `nope`: "nope",
	} {
		assert.Equal(t, want, Template(json.RawMessage(raw)), raw)
	}
}
