package schema

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
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

// benchKinds are the kinds of arguments of a benchCase.
var benchKinds = []struct {
	name    string
	args    func(benchCase) json.RawMessage
	wantErr bool
}{
	{"valid", func(c benchCase) json.RawMessage { return c.valid }, false},
	{"coerce", func(c benchCase) json.RawMessage { return c.coerce }, false},
	{"invalid", func(c benchCase) json.RawMessage { return c.invalid }, true},
}

// benchValidate runs validate on each kind of arguments of each benchCase.
func benchValidate(b *testing.B, validate func(c benchCase, args json.RawMessage) (json.RawMessage, error)) {
	for _, k := range benchKinds {
		b.Run(k.name, func(b *testing.B) {
			for _, c := range benchCases {
				b.Run(c.name, func(b *testing.B) {
					args := k.args(c)
					_, err := validate(c, args)
					var ae *ArgumentsError
					require.Equal(b, k.wantErr, errors.As(err, &ae), "error %v", err)
					if !k.wantErr {
						require.NoError(b, err)
					}
					b.ReportAllocs()
					for b.Loop() {
						if _, err := validate(c, args); (err != nil) != k.wantErr {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}

// BenchmarkValidateToolArguments measures the loop's per-call entry point,
// schema cache lookup included, for arguments that are valid, that need
// coercion, and that fail.
func BenchmarkValidateToolArguments(b *testing.B) {
	benchValidate(b, func(c benchCase, args json.RawMessage) (json.RawMessage, error) {
		return ValidateToolArguments("t", c.schema, args)
	})
}

func BenchmarkParse(b *testing.B) {
	vd, err := Compile(json.RawMessage(searchSchema))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("coerce", func(b *testing.B) {
		args := json.RawMessage(`{"query":"go agents","limit":"10","exact":"true","tags":"runtime","lang":null,"score":"0.5"}`)
		b.ReportAllocs()
		for b.Loop() {
			if _, errs, err := vd.Parse(args); err != nil || errs != nil {
				b.Fatal(errs, err)
			}
		}
	})
	b.Run("valid", func(b *testing.B) {
		args := json.RawMessage(`{"query":"go agents","limit":10,"exact":true,"tags":["runtime"],"lang":"en","score":0.5}`)
		b.ReportAllocs()
		for b.Loop() {
			if _, errs, err := vd.Parse(args); err != nil || errs != nil {
				b.Fatal(errs, err)
			}
		}
	})
	b.Run("invalid", func(b *testing.B) {
		args := json.RawMessage(`{"query":"x","limit":"many"}`)
		b.ReportAllocs()
		for b.Loop() {
			if _, errs, _ := vd.Parse(args); errs == nil {
				b.Fatal("valid")
			}
		}
	})
}
