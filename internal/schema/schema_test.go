package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore/internal/jsonv"
)

// searchSchema is the conformance scenario argument-coercion's tool schema.
const searchSchema = `{"type":"object","properties":{"query":{"type":"string"},"limit":{"type":"integer"},` +
	`"exact":{"type":"boolean"},"tags":{"type":"array","items":{"type":"string"}},"lang":{"type":"string"},` +
	`"score":{"type":"number"}},"required":["query"]}`

// TestParse holds the cases the brief and the public conformance trace name;
// every value was checked against the reference (testdata/golden.json has
// these and many more, computed by testdata/oracle.mjs).
func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		schema  string
		args    string
		want    string // the coerced arguments, compact, in received order
		wantErr string // FormatError of the failure, tool name "t"
	}{
		{
			name:   "conformance k1",
			schema: searchSchema,
			args:   `{"query":"go agents","limit":"10","exact":"true","tags":"runtime","lang":null,"score":"0.5"}`,
			want:   `{"query":"go agents","limit":10,"exact":true,"tags":["runtime"],"score":0.5}`,
		},
		{
			name:   "conformance k2",
			schema: searchSchema,
			args:   `{"query":42,"limit":3.9}`,
			want:   `{"query":"42","limit":3}`,
		},
		{
			name:    "conformance k3",
			schema:  searchSchema,
			args:    `{"query":"x","limit":"many"}`,
			wantErr: "Validation failed for tool \"t\":\n  - limit: expected integer, got string\n\nReceived arguments:\n{\n  \"query\": \"x\",\n  \"limit\": \"many\"\n}",
		},
		{
			name:    "missing required",
			schema:  `{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`,
			args:    `{"b":2}`,
			wantErr: "Validation failed for tool \"t\":\n  - a: missing\n\nReceived arguments:\n{\n  \"b\": 2\n}",
		},
		{
			name:   "integer string truncates",
			schema: `{"type":"object","properties":{"n":{"type":"integer"}}}`,
			args:   `{"n":"1.5"}`,
			want:   `{"n":1}`,
		},
		{
			name:    "nested path and root",
			schema:  `{"type":"object","properties":{"edits":{"type":"array","items":{"type":"object","properties":{"oldText":{"type":"string"}},"required":["oldText"]}}}}`,
			args:    `{"edits":[{"x":1}]}`,
			wantErr: "Validation failed for tool \"t\":\n  - edits.0.oldText: missing\n\nReceived arguments:\n{\n  \"edits\": [\n    {\n      \"x\": 1\n    }\n  ]\n}",
		},
		{
			name:    "non-object arguments",
			schema:  `{"type":"object"}`,
			args:    `[1]`,
			wantErr: "Validation failed for tool \"t\":\n  - root: expected object, got array\n\nReceived arguments:\n[\n  1\n]",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ValidateToolArguments("t", json.RawMessage(tt.schema), json.RawMessage(tt.args))
			if tt.wantErr != "" {
				var ae *ArgumentsError
				require.ErrorAs(t, err, &ae, "got %s", got)
				assert.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}
}

func TestParseLeavesInputAlone(t *testing.T) {
	vd, err := Compile(json.RawMessage(searchSchema))
	require.NoError(t, err)
	in, err := jsonv.ParseString(`{"query":1,"tags":"x","lang":null}`)
	require.NoError(t, err)
	before := in.JSON()
	_, errs := vd.ParseValue(in)
	require.Nil(t, errs)
	assert.Equal(t, before, in.JSON(), "input changed")
	valid, err := jsonv.ParseString(`{"query":"q","limit":2}`)
	require.NoError(t, err)
	out, _ := vd.ParseValue(valid)
	assert.True(t, jsonv.Same(out, valid), "a value that needs no coercion should come back as itself")
}

func TestFormatPath(t *testing.T) {
	for in, want := range map[string]string{
		"":                 "root",
		"/a":               "a",
		"/edits/0/oldText": "edits.0.oldText",
		"/a~1b/c~0d":       "a/b.c~d",
		"/":                "",
	} {
		assert.Equal(t, want, FormatPath(in), "FormatPath(%q)", in)
	}
}

func TestFormatErrorRawReceived(t *testing.T) {
	got := FormatError("x", []ValidationError{{Path: "", Message: "invalid"}, {Path: "/a", Message: "missing"}}, json.RawMessage(`not json`))
	want := "Validation failed for tool \"x\":\n  - root: invalid\n  - a: missing\n\nReceived arguments:\nnot json"
	assert.Equal(t, want, got)
}

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name, schema, want string
	}{
		{"not JSON", `{"type":`, "invalid tool schema"},
		{"not a schema", `"x"`, `A schema must be an object or a boolean, got "x"`},
		{"property not a schema", `{"properties":{"a":1}}`, "A schema must be an object or a boolean, got 1"},
		{"lookahead pattern", `{"type":"string","pattern":"^(?!x)"}`, "is not supported"},
		{"ref cycle", `{"$defs":{"a":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`, "invalid tool schema"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compile(json.RawMessage(tt.schema))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestBooleanSchemaQuirk(t *testing.T) {
	// The reference caches validators in a WeakMap, which rejects booleans.
	for _, s := range []string{"true", "false"} {
		_, err := ValidateToolArguments("t", json.RawMessage(s), json.RawMessage(`{}`))
		assert.EqualError(t, err, "Invalid value used as weak map key", "schema %s", s)
	}
}

func TestInvalidArgumentsJSON(t *testing.T) {
	vd, err := Compile(json.RawMessage(searchSchema))
	require.NoError(t, err)
	_, _, err = vd.Parse(json.RawMessage(`{"query":`))
	assert.Error(t, err, "invalid JSON arguments accepted")
}

func TestCompileCacheConcurrent(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`)
	var wg sync.WaitGroup
	results := make([]*Validator, 16)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			vd, err := Compile(schema)
			if !assert.NoError(t, err) {
				return
			}
			results[i] = vd
			for range 50 {
				out, errs, err := vd.Parse(json.RawMessage(`{"n":"7"}`))
				assert.NoError(t, err)
				assert.Nil(t, errs)
				assert.Equal(t, `{"n":7}`, string(out))
				_, errs, _ = vd.Parse(json.RawMessage(`{}`))
				assert.Len(t, errs, 1)
			}
		}()
	}
	wg.Wait()
	for _, vd := range results {
		require.Same(t, results[0], vd, "the same schema compiled twice")
	}
}

// TestCompileCacheKeyedByBytes checks that the cache is keyed by the schema
// bytes: the same bytes in another slice share a compile, other bytes do
// not, and a schema changed in place is compiled anew.
func TestCompileCacheKeyedByBytes(t *testing.T) {
	a := json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`)
	b := json.RawMessage(`{"type":"object","properties":{"b":{"type":"string"}}}`)
	compile := func(schema json.RawMessage) *Validator {
		t.Helper()
		vd, err := Compile(schema)
		require.NoError(t, err)
		return vd
	}
	va, vb := compile(a), compile(b)
	require.NotSame(t, va, vb, "two schemas share a compile")
	assert.Same(t, va, compile(slices.Clone(a)), "the same schema compiled twice")
	assert.Same(t, vb, compile(b), "the same schema compiled twice")
	assert.Same(t, va, compile(a), "the same schema compiled twice")
	changed := slices.Clone(a)
	copy(changed[bytes.IndexByte(changed, 'a'):], "b")
	assert.NotSame(t, va, compile(changed), "a changed schema got the old compile")
	_, errs, _ := compile(changed).Parse(json.RawMessage(`{"b":{}}`))
	assert.Len(t, errs, 1, "the changed schema checks nothing")
}

// TestCompileCacheBounded checks that the cache holds at most maxCached
// schemas and that a schema compiled before it started over still works.
func TestCompileCacheBounded(t *testing.T) {
	first, err := Compile(json.RawMessage(`{"const":-1}`))
	require.NoError(t, err)
	for i := range maxCached + 1 {
		_, err := Compile(json.RawMessage(fmt.Sprintf(`{"const":%d}`, i)))
		require.NoError(t, err)
	}
	cache.mu.Lock()
	n := len(cache.m)
	cache.mu.Unlock()
	assert.LessOrEqual(t, n, maxCached, "schemas cached")
	_, errs, _ := first.Parse(json.RawMessage(`-1`))
	assert.Nil(t, errs)
	again, err := Compile(json.RawMessage(`{"const":-1}`))
	require.NoError(t, err)
	_, errs, _ = again.Parse(json.RawMessage(`0`))
	assert.Len(t, errs, 1)
}

// FuzzCoerce checks that coercion and explanation never panic and always
// answer: coerced arguments that are JSON and pass the schema, or at least
// one error with a message.
func FuzzCoerce(f *testing.F) {
	schemas := []string{
		searchSchema,
		`{"type":"object","properties":{"v":{"anyOf":[{"type":"integer"},{"type":"array","items":{"$ref":"#"}}]},"o":{"oneOf":[{"type":"object","properties":{"k":{"const":"a"}},"required":["k"]},{"type":"object","properties":{"k":{"const":"b"},"n":{"type":"number","minimum":1}},"required":["k","n"]}]},"e":{"enum":[1,"x",true,null]},"t":{"type":["integer","null"]},"p":{"type":"array","prefixItems":[{"type":"boolean"}],"items":{"type":"string","pattern":"^[a-z]+$"}}},"patternProperties":{"^x":{"type":"integer"}},"additionalProperties":{"type":"object","properties":{"q":{"type":"string"}}}}`,
		`{"$defs":{"t":{"type":"object","properties":{"v":{"type":"integer"},"kids":{"type":"array","items":{"$ref":"#/$defs/t"}}},"required":["v"],"unevaluatedProperties":false}},"$ref":"#/$defs/t"}`,
	}
	var validators []*Validator
	for _, s := range schemas {
		vd, err := Compile(json.RawMessage(s))
		require.NoError(f, err)
		validators = append(validators, vd)
	}
	for _, s := range []string{`{"query":"q","limit":"3"}`, `{"v":["1",["x"]],"o":{"k":"b","n":"0"},"t":"","p":"q","xa":"1","z":{"q":null}}`, `{"v":"1","kids":{"v":"2"}}`, `[]`, `null`, `"x"`} {
		for i := range schemas {
			f.Add(uint8(i), []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, args []byte) {
		vd := validators[int(which)%len(validators)]
		out, errs, err := vd.Parse(args)
		if err != nil {
			return
		}
		if errs == nil {
			v, err := jsonv.Parse(out)
			require.NoError(t, err, "coerced %q is not JSON", out)
			require.True(t, vd.rootCheck(v), "coerced %q does not pass", out)
			return
		}
		for _, e := range errs {
			require.NotEmpty(t, e.Message, "empty message in %v", errs)
		}
		_ = FormatError("t", errs, args)
	})
}

// FuzzSchema checks that compiling and using arbitrary schemas never panics,
// and that a valid result passes the schema.
func FuzzSchema(f *testing.F) {
	f.Add([]byte(searchSchema), []byte(`{"query":1}`))
	f.Add([]byte(`{"type":["integer","any"],"minLength":1.5,"required":true,"items":[{"type":"string"}],"additionalItems":false}`), []byte(`["x",1]`))
	f.Add([]byte(`{"properties":{"a":{"$ref":"#/nope"},"b":{"$ref":"#a"}},"$defs":{"x":{"$anchor":"a","type":"integer"}},"unevaluatedProperties":false}`), []byte(`{"a":1,"b":"2","c":3}`))
	f.Add([]byte(`{"anyOf":[{"const":1},{"enum":["1",2]}],"not":{"type":"null"},"if":{"type":"string"},"then":{"format":"date"}}`), []byte(`"2024-02-30"`))
	f.Add([]byte(`{"type":"object","properties":{"a":{"items":{"type":"integer"}},"b":{"type":["string","null"],"maxLength":2}},"additionalProperties":{"enum":[1,"x"]}}`), []byte(`{"a":"1","b":null,"c":"x"}`))
	f.Add([]byte(`{"type":"array","uniqueItems":true,"items":{"type":"number","exclusiveMinimum":0,"format":"int32"}}`), []byte(`[1,"2",1e400]`))
	f.Fuzz(func(t *testing.T, schema, args []byte) {
		vd, err := Compile(schema)
		if err != nil {
			return
		}
		out, errs, err := vd.Parse(args)
		if err != nil || errs != nil || vd.root == nil {
			return
		}
		v, err := jsonv.Parse(out)
		require.NoError(t, err, "coerced %q is not JSON", out)
		require.True(t, vd.rootCheck(v), "coerced %q does not pass", out)
	})
}
