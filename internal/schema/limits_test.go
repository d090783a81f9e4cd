package schema

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nested is a schema of levels objects, each the only property of its
// parent: 2*levels+1 levels of JSON nesting.
func nested(levels int) json.RawMessage {
	var b strings.Builder
	for range levels {
		b.WriteString(`{"type":"object","properties":{"a":`)
	}
	b.WriteString(`{"type":"string"}`)
	b.WriteString(strings.Repeat("}}", levels))
	return json.RawMessage(b.String())
}

// wide is a schema of an object with n string properties.
func wide(n int) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d":{"type":"string"}`, i)
	}
	b.WriteString(`}}`)
	return json.RawMessage(b.String())
}

func TestCompileBounds(t *testing.T) {
	tests := []struct {
		name   string
		schema json.RawMessage
		want   string // "" for a schema within the bounds
	}{
		{"3,000 levels", nested(3000), "deeper than the limit of 64 levels"},
		{"at the depth limit", nested((MaxDepth - 1) / 2), ""},
		{"one level over", json.RawMessage(strings.Repeat(`{"not":`, MaxDepth) + `{}` + strings.Repeat("}", MaxDepth)), "deeper than the limit of 64"},
		{"brackets in strings do not count", json.RawMessage(`{"description":"` + strings.Repeat("{[", 1000) + `\"","type":"string"}`), ""},
		{"too many bytes", json.RawMessage(`{"description":"` + strings.Repeat("x", MaxBytes) + `"}`), "over the limit of 524288"},
		{"at the subschema limit", wide(MaxSubschemas - 1), ""},
		{"too many subschemas", wide(MaxSubschemas), "4097 subschemas, over the limit of 4096"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compile(tt.schema)
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrTooLarge)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestDraftChoiceKeepsValidity(t *testing.T) {
	// Under both drafts the checker reads these alike; the 2020-12 keywords
	// keep their meaning.
	tests := []struct {
		name, schema, args string
		ok                 bool
	}{
		{"items schema", `{"type":"array","items":{"type":"integer"}}`, `[1,"x"]`, false},
		{"prefixItems", `{"type":"array","prefixItems":[{"type":"integer"}],"items":false}`, `[1,2]`, false},
		{"prefixItems ok", `{"type":"array","prefixItems":[{"type":"integer"}]}`, `[1,"x"]`, true},
		{"unevaluatedItems with contains", `{"type":"array","contains":{"type":"string"},"unevaluatedItems":false}`, `["x"]`, true},
		{"format", `{"type":"string","format":"email"}`, `"nope"`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vd, err := Compile(json.RawMessage(tt.schema))
			require.NoError(t, err)
			_, errs, err := vd.Parse(json.RawMessage(tt.args))
			require.NoError(t, err)
			assert.Equal(t, tt.ok, errs == nil, "%v", errs)
		})
	}
}

// BenchmarkCompileWide shows the compile's cost per subschema staying flat
// as the schema grows.
func BenchmarkCompileWide(b *testing.B) {
	for _, n := range []int{250, 1000, 4000} {
		s := wide(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := compile(s); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*(n+1)), "ns/subschema")
		})
	}
}
