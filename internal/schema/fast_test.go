package schema

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore/internal/jsonv"
)

// checkerOnly returns a copy of vd that decides every check with the checker
// alone: no fast checks, hence no early stop of the coercion passes either.
// It is the implementation as it was before the fast checker, for comparing.
func checkerOnly(vd *Validator) *Validator {
	cp := *vd
	cp.fast = nil
	cp.infos = make(map[jsonv.ID]*nodeInfo, len(vd.infos))
	for id, n := range vd.infos {
		m := *n
		m.check.fast = nil
		cp.infos[id] = &m
	}
	return &cp
}

// subValues returns v and every value nested in it.
func subValues(v jsonv.Value) []jsonv.Value {
	out := []jsonv.Value{v}
	for _, it := range v.Items() {
		out = append(out, subValues(it)...)
	}
	for _, m := range v.Members() {
		out = append(out, subValues(m.Value)...)
	}
	return out
}

// assertFastAgrees checks every simple subschema of vd's schema on every
// value: the fast checker, where it decides, must give the checker's answer.
// It returns how many checks it compared.
func assertFastAgrees(t *testing.T, vd *Validator, values []jsonv.Value) int {
	t.Helper()
	compared := 0
	for _, n := range vd.infos {
		if !n.compiled || n.check.fast == nil {
			continue
		}
		for _, v := range values {
			r := n.check.fast.check(v)
			if r == undecided {
				continue
			}
			compared++
			want := n.check.slow.Validate(toAny(v)) == nil
			require.Equal(t, want, r == pass, "fast check of %s at %q, against the checker's", v.JSON(), vd.doc.loc[nodeOf(vd, n)])
		}
	}
	return compared
}

// assertSameAsChecker checks that ParseValue of v gives what it gives with
// the checker alone: the same coerced value or the same errors.
func assertSameAsChecker(t *testing.T, vd *Validator, v jsonv.Value) {
	t.Helper()
	out, errs := vd.ParseValue(v)
	want, wantErrs := checkerOnly(vd).ParseValue(v)
	require.Equal(t, wantErrs, errs, "errors of %s, fast path against the checker alone", v.JSON())
	if errs == nil {
		require.Equal(t, want.JSON(), out.JSON(), "coercion of %s, fast path against the checker alone", v.JSON())
	}
}

// nodeOf finds the schema object n describes, for messages.
func nodeOf(vd *Validator, n *nodeInfo) jsonv.Value {
	for node := range vd.doc.loc {
		if vd.infos[node.ID()] == n {
			return node
		}
	}
	return jsonv.Value{}
}

// TestGoldenBothPaths runs every golden case through the fast path (the
// default) and through the checker alone, which must both give the
// reference's result, and compares the fast checker with the checker on
// every simple subschema and every value the case reaches.
func TestGoldenBothPaths(t *testing.T) {
	simple, compared, raw := 0, 0, 0
	for _, tc := range loadGolden(t) {
		if tc.CompileError != "" {
			continue
		}
		if tc.ArgsText != nil {
			tc.Args = json.RawMessage(*tc.ArgsText)
		}
		t.Run(tc.Name, func(t *testing.T) {
			fast, err := Compile(tc.Schema)
			require.NoError(t, err)
			if fast.fast != nil {
				simple++
			}
			for _, path := range []struct {
				name string
				vd   *Validator
			}{{"fast", fast}, {"checker only", checkerOnly(fast)}} {
				got, errs, err := path.vd.Parse(tc.Args)
				require.NoError(t, err, path.name)
				if tc.Want != nil {
					require.Nil(t, errs, path.name)
					require.Equal(t, *tc.Want, string(got), path.name)
					continue
				}
				for i := range errs {
					errs[i].Keyword = ""
				}
				require.Equal(t, tc.WantErr, errs, path.name)
				_, err = path.vd.validateToolArguments("tool", tc.Args)
				require.EqualError(t, err, tc.Text, path.name)
			}
			if assertRawAgrees(t, fast, string(tc.Args)) {
				raw++
			}
			args, err := jsonv.Parse(tc.Args)
			require.NoError(t, err)
			values := subValues(args)
			if out, errs := checkerOnly(fast).ParseValue(args); errs == nil {
				values = append(values, subValues(out)...)
			}
			compared += assertFastAgrees(t, fast, values)
		})
	}
	t.Logf("%d golden schemas are simple; %d fast checks compared with the checker; %d raw checks accepted", simple, compared, raw)
	assert.NotZero(t, simple, "no golden schema is simple")
	assert.NotZero(t, compared, "the golden cases never exercised the fast checker")
}

func TestSimpleSchemas(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		simple bool
		stable bool // when simple
	}{
		{"search", searchSchema, true, true},
		{"path", pathSchema, true, true},
		{"empty", `{}`, true, true},
		{"annotations", `{"title":"t","description":"d","default":1,"examples":[1],"$comment":"c","deprecated":true,"readOnly":false,"writeOnly":false}`, true, true},
		{"root $schema", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object"}`, true, true},
		{"nested $schema", `{"properties":{"a":{"$schema":"https://json-schema.org/draft/2020-12/schema"}}}`, false, false},
		{"type list", `{"type":["string","null"]}`, true, true},
		{"unknown type name", `{"type":"any"}`, true, true},
		{"bounds and counts", `{"minimum":1,"exclusiveMaximum":9.5,"minLength":1,"maxLength":3,"minItems":0,"maxItems":2,"uniqueItems":true,"minProperties":1,"maxProperties":4}`, true, true},
		{"enum and const", `{"enum":[1,"a",null,[1],{"k":true}],"const":"a"}`, true, true},
		{"empty enum", `{"enum":[]}`, true, true},
		{"boolean subschemas", `{"properties":{"a":true,"b":false},"additionalProperties":false,"items":true}`, true, true},
		{"items without type", `{"items":{"type":"string"}}`, true, false},
		{"nested items without type", `{"type":"object","properties":{"a":{"items":{}}}}`, true, false},
		{"items with type", `{"type":"array","items":{"type":"string"}}`, true, true},
		{"items with properties", `{"properties":{},"items":{}}`, true, true},
		{"items with const", `{"const":[1],"items":{}}`, true, true},
		{"additionalProperties schema", `{"additionalProperties":{"type":"integer"}}`, true, true},
		{"pattern", `{"type":"string","pattern":"^[a-z]+\\d$"}`, true, true},
		{"format", `{"type":"string","format":"email"}`, true, true},
		{"unknown format", `{"type":"string","format":"x-custom"}`, true, true},
		{"$defs unreferenced", `{"$defs":{"a":{"anyOf":[{}]}},"type":"object"}`, true, true},
		{"ignored keyword value", `{"required":"a","minLength":"2","description":5}`, true, true},
		{"$ref", `{"$defs":{"a":{"type":"string"}},"properties":{"x":{"$ref":"#/$defs/a"}}}`, false, false},
		{"anyOf", `{"anyOf":[{"type":"string"}]}`, false, false},
		{"nested allOf", `{"properties":{"a":{"allOf":[{}]}}}`, false, false},
		{"patternProperties", `{"patternProperties":{"^x":{}}}`, false, false},
		{"items list", `{"items":[{"type":"string"}]}`, false, false},
		{"prefixItems", `{"prefixItems":[{}]}`, false, false},
		{"multipleOf", `{"multipleOf":2}`, false, false},
		{"unknown keyword", `{"nullable":true}`, false, false},
		{"enum with a lone surrogate", `{"enum":["\ud800"]}`, false, false},
		{"property named with a lone surrogate", `{"properties":{"\udc00":{}}}`, false, false},
		{"enum with an overflowing number", `{"enum":[1e400]}`, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vd, err := Compile(json.RawMessage(tt.schema))
			require.NoError(t, err)
			require.Equal(t, tt.simple, vd.fast != nil, "simple")
			if tt.simple {
				assert.Equal(t, tt.stable, vd.fast.stable, "stable")
			}
		})
	}
}

// TestFastCheckQuirks pins the checker behaviors the fast checker follows
// where they depart from the reference or from plain JSON equality.
func TestFastCheckQuirks(t *testing.T) {
	tests := []struct {
		name, schema, value string
		want                verdict
	}{
		{"empty enum checks nothing", `{"enum":[]}`, `1`, pass},
		{"integer-valued double is an integer", `{"type":"integer"}`, `1e21`, pass},
		{"overflowing number has no type", `{"type":"number"}`, `1e400`, fail},
		{"overflowing number skips bounds", `{"maximum":1}`, `1e400`, pass},
		{"negative zero equals zero", `{"const":0}`, `-0`, pass},
		{"lone surrogate counts three, as the checker counts (the reference: one)", `{"maxLength":2}`, `"\ud800"`, fail},
		{"astral character counts one", `{"maxLength":1}`, `"😀"`, pass},
		{"unique items compare by value", `{"uniqueItems":true}`, `[{"a":1,"b":2},{"b":2,"a":1.0}]`, fail},
		{"unique items with an overflow", `{"uniqueItems":true}`, `[1,[1e400]]`, undecided},
		{"unique items with an overflow and a duplicate", `{"uniqueItems":true}`, `[1,1,1e400]`, fail},
		{"long unique items left to the checker", `{"uniqueItems":true}`, `[` + longArray(uniqueScanMax+1) + `]`, undecided},
		{"undecided item, failing sibling", `{"properties":{"a":{"uniqueItems":true},"b":{"type":"string"}}}`, `{"a":[1,1e400],"b":1}`, fail},
		{"additional false", `{"properties":{"a":{}},"additionalProperties":false}`, `{"a":1,"b":2}`, fail},
		{"unknown format passes", `{"format":"x-custom"}`, `"anything"`, pass},
		{"format of a non-string passes", `{"format":"email"}`, `5`, pass},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vd, err := Compile(json.RawMessage(tt.schema))
			require.NoError(t, err)
			require.NotNil(t, vd.fast, "not simple")
			v, err := jsonv.ParseString(tt.value)
			require.NoError(t, err)
			require.Equal(t, tt.want, vd.fast.check(v))
			if tt.want != undecided {
				assertFastAgrees(t, vd, subValues(v))
			}
		})
	}
}

func longArray(n int) string {
	out := make([]byte, 0, 4*n)
	for i := range n {
		if i > 0 {
			out = append(out, ',')
		}
		out = jsonv.AppendNumber(out, float64(i))
	}
	return string(out)
}

func TestValidateToolArgumentsOwnCopy(t *testing.T) {
	args := json.RawMessage(`{"path":"a","n":1}`)
	got, err := ValidateToolArguments("t", json.RawMessage(pathSchema), args)
	require.NoError(t, err)
	require.Equal(t, string(args), string(got))
	assert.NotSame(t, &args[0], &got[0], "the result shares memory with the arguments")
	vd, err := Compile(json.RawMessage(pathSchema))
	require.NoError(t, err)
	same, _, _ := vd.Parse(args)
	assert.Same(t, &args[0], &same[0], "Parse should return unchanged compact arguments as they are")
	for _, tt := range []struct{ name, args, want string }{
		{"not compact", `{"path": "a"}`, `{"path":"a"}`},
		{"coerced", `{"path":"a","n":"1"}`, `{"path":"a","n":1}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := vd.Parse(json.RawMessage(tt.args))
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}
}

// TestCoercionStopsOnlyWhenUnchanged checks the claim the early stop rests
// on: for a stable simple schema, each coercion pass leaves a value the
// schema accepts unchanged.
func TestCoercionStopsOnlyWhenUnchanged(t *testing.T) {
	for _, tc := range loadGolden(t) {
		if tc.CompileError != "" || tc.Want == nil {
			continue
		}
		vd, err := Compile(tc.Schema)
		if err != nil || vd.fast == nil {
			continue
		}
		t.Run(tc.Name, func(t *testing.T) {
			out, err := jsonv.ParseString(*tc.Want)
			require.NoError(t, err)
			assertPassesKeep(t, vd, out)
		})
	}
}

// assertPassesKeep checks that each coercion pass, alone, leaves v unchanged
// when the stable simple schema of vd accepts it.
func assertPassesKeep(t *testing.T, vd *Validator, v jsonv.Value) {
	t.Helper()
	if !vd.fast.stable || vd.fast.check(v) != pass {
		return
	}
	root := vd.doc.root
	c := coercer{vd: checkerOnly(vd)}
	for name, pass := range map[string]func() jsonv.Value{
		"drop optional nulls": func() jsonv.Value { return c.dropOptionalNulls(v, root, defaultBase) },
		"convert":             func() jsonv.Value { return c.convert(root, defaultBase, v) },
		"coerce types":        func() jsonv.Value { return c.coerceTypes(v, root, defaultBase) },
	} {
		out := pass()
		require.True(t, jsonv.Same(out, v), "%s changed %s, which the schema accepts, to %s", name, v.JSON(), out.JSON())
	}
	out, errs := checkerOnly(vd).ParseValue(v)
	require.Nil(t, errs, "the checker alone rejects %s", v.JSON())
	require.Equal(t, v.JSON(), out.JSON(), "the checker alone coerced %s", v.JSON())
}

// TestCommonCaseSkipsChecker shows that the benchmark schemas never reach
// the checker per call: with every compiled check replaced by one that
// rejects everything, valid, coerced and invalid arguments still come out
// as before.
func TestCommonCaseSkipsChecker(t *testing.T) {
	never, err := Compile(json.RawMessage(`{"not":{}}`))
	require.NoError(t, err)
	for _, c := range benchCases {
		vd, err := Compile(c.schema)
		require.NoError(t, err)
		poisoned := *vd
		poisoned.root = never.root
		poisoned.infos = make(map[jsonv.ID]*nodeInfo, len(vd.infos))
		for id, n := range vd.infos {
			m := *n
			m.check.slow = never.root
			poisoned.infos[id] = &m
		}
		_, err = checkerOnly(&poisoned).validateToolArguments("t", c.valid)
		require.Error(t, err, "the poisoned checker accepts valid arguments")
		for kind, args := range map[string]json.RawMessage{"valid": c.valid, "coerce": c.coerce, "invalid": c.invalid} {
			t.Run(c.name+"/"+kind, func(t *testing.T) {
				want, wantErr := vd.validateToolArguments("t", args)
				got, err := poisoned.validateToolArguments("t", args)
				assert.Equal(t, string(want), string(got), "without the checker, against with it")
				if wantErr == nil {
					assert.NoError(t, err, "without the checker")
				} else {
					assert.EqualError(t, err, wantErr.Error(), "without the checker")
				}
			})
		}
	}
}
