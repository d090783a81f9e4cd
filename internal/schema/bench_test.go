package schema

import (
	"encoding/json"
	"errors"
	"testing"
)

// pathSchema is the typical small tool schema: one required string, one
// optional integer.
const pathSchema = `{"type":"object","properties":{"path":{"type":"string"},"n":{"type":"integer"}},"required":["path"]}`

// benchCase is one schema with arguments that are valid as they are, that
// need coercion, and that fail.
type benchCase struct {
	name                   string
	schema                 json.RawMessage
	valid, coerce, invalid json.RawMessage
}

var benchCases = []benchCase{
	{
		name:    "path",
		schema:  json.RawMessage(pathSchema),
		valid:   json.RawMessage(`{"path":"/tmp/notes.txt","n":3}`),
		coerce:  json.RawMessage(`{"path":"/tmp/notes.txt","n":"3"}`),
		invalid: json.RawMessage(`{"n":"many"}`),
	},
	{
		name:    "search",
		schema:  json.RawMessage(searchSchema),
		valid:   json.RawMessage(`{"query":"go agents","limit":10,"exact":true,"tags":["runtime"],"lang":"en","score":0.5}`),
		coerce:  json.RawMessage(`{"query":"go agents","limit":"10","exact":"true","tags":"runtime","lang":null,"score":"0.5"}`),
		invalid: json.RawMessage(`{"query":"x","limit":"many"}`),
	},
}

// BenchmarkValidateToolArguments measures the loop's per-call entry point,
// schema cache lookup included, for arguments that are valid, that need
// coercion, and that fail.
func BenchmarkValidateToolArguments(b *testing.B) {
	kinds := []struct {
		name    string
		args    func(benchCase) json.RawMessage
		wantErr bool
	}{
		{"valid", func(c benchCase) json.RawMessage { return c.valid }, false},
		{"coerce", func(c benchCase) json.RawMessage { return c.coerce }, false},
		{"invalid", func(c benchCase) json.RawMessage { return c.invalid }, true},
	}
	for _, k := range kinds {
		b.Run(k.name, func(b *testing.B) {
			for _, c := range benchCases {
				b.Run(c.name, func(b *testing.B) {
					args := k.args(c)
					_, err := ValidateToolArguments("t", c.schema, args)
					var ae *ArgumentsError
					if k.wantErr != errors.As(err, &ae) || (!k.wantErr && err != nil) {
						b.Fatal(err)
					}
					b.ReportAllocs()
					for b.Loop() {
						if _, err := ValidateToolArguments("t", c.schema, args); (err != nil) != k.wantErr {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}
