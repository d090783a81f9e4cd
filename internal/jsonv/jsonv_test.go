package jsonv

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The expected strings in this file are what Node.js 20 prints for the same
// input (String(n), Number(s), JSON.stringify(JSON.parse(text), null, 2)).

func TestFormatNumber(t *testing.T) {
	tests := []struct {
		name string
		in   float64
		want string
	}{
		{"zero", 0, "0"},
		{"negative zero", math.Copysign(0, -1), "0"},
		{"one", 1, "1"},
		{"minus one", -1, "-1"},
		{"fraction", 1.5, "1.5"},
		{"tenth", 0.1, "0.1"},
		{"float sum", add(0.1, 0.2), "0.30000000000000004"},
		{"hundred", 100, "100"},
		{"1e21 switches to exponent", 1e21, "1e+21"},
		{"1e20 stays fixed", 1e20, "100000000000000000000"},
		{"large fixed", 123456789012345680000, "123456789012345680000"},
		{"small exponent", 1.5e-7, "1.5e-7"},
		{"1e-7", 1e-7, "1e-7"},
		{"1e-6 fixed", 1e-6, "0.000001"},
		{"small fixed", 0.000001234, "0.000001234"},
		{"min subnormal", 5e-324, "5e-324"},
		{"max double", math.MaxFloat64, "1.7976931348623157e+308"},
		{"2^53", 1 << 53, "9007199254740992"},
		{"2^60", 1 << 60, "1152921504606847000"},
		{"-2^70", -(1 << 70), "-1.1805916207174113e+21"},
		{"3.9", 3.9, "3.9"},
		{"42", 42, "42"},
		{"1e100", 1e100, "1e+100"},
		{"negative small", -1.25e-10, "-1.25e-10"},
		{"decimal", 123.456, "123.456"},
		{"third", 1.0 / 3, "0.3333333333333333"},
		{"infinity", math.Inf(1), "Infinity"},
		{"minus infinity", math.Inf(-1), "-Infinity"},
		{"nan", math.NaN(), "NaN"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, FormatNumber(tt.in), "FormatNumber(%v)", tt.in)
		})
	}
}

// add adds at run time (constant arithmetic is exact).
func add(a, b float64) float64 { return a + b }

func TestStringToNumber(t *testing.T) {
	tests := []struct {
		in   string
		want string // FormatNumber of the result
	}{
		{"", "0"}, {"  ", "0"}, {" 12 ", "12"}, {"1.5", "1.5"}, {".5", "0.5"}, {"5.", "5"}, {".", "NaN"},
		{"+3", "3"}, {"-3", "-3"}, {"--3", "NaN"}, {"1e3", "1000"}, {"1E-2", "0.01"}, {"1e", "NaN"},
		{"0x1F", "31"}, {"0X1f", "31"}, {"-0x10", "NaN"}, {"0o17", "15"}, {"0b101", "5"}, {"0b2", "NaN"},
		{"Infinity", "Infinity"}, {"-Infinity", "-Infinity"}, {"+Infinity", "Infinity"}, {"infinity", "NaN"},
		{"1_000", "NaN"}, {"12n", "NaN"}, {"\u00a012\u2028", "12"}, {"\ufeff7", "7"}, {"\u00857", "NaN"},
		{"1e400", "Infinity"}, {"0x", "NaN"}, {"00012", "12"}, {"1.2.3", "NaN"}, {"abc", "NaN"},
		{"NaN", "NaN"}, {"0.0000001", "1e-7"}, {"\t\n5\r", "5"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, FormatNumber(StringToNumber(tt.in)), "Number(%q)", tt.in)
		})
	}
}

func TestParseAndStringify(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		want   string // compact
		indent string // JSON.stringify(v, null, 2); "" to skip
	}{
		{"key order kept", `{"b":1,"a":2}`, `{"b":1,"a":2}`, "{\n  \"b\": 1,\n  \"a\": 2\n}"},
		{"array index keys first", `{"z":1,"5":2,"a":3,"1":4,"01":5,"4294967295":6,"4294967294":7}`,
			`{"1":4,"5":2,"4294967294":7,"z":1,"a":3,"01":5,"4294967295":6}`, ""},
		{"duplicate keys", `{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}`, ""},
		{"empty containers", `{"a":{},"b":[]}`, `{"a":{},"b":[]}`, "{\n  \"a\": {},\n  \"b\": []\n}"},
		{"nested indent", `[1,[2,{"x":null}]]`, `[1,[2,{"x":null}]]`, "[\n  1,\n  [\n    2,\n    {\n      \"x\": null\n    }\n  ]\n]"},
		{"numbers", `[1.0,1E2,-0,0.1e-6,123e-20,1e21,999999999999999999999,1e400,-1e400]`,
			`[1,100,0,1e-7,1.23e-18,1e+21,1e+21,null,null]`, ""},
		{"big integer rounds", `12345678901234567890`, `12345678901234567000`, ""},
		{"escapes", `"\u0000\b\f\n\r\t\u001f\u007f\"\\\/\u2028<>&"`, "\"\\u0000\\b\\f\\n\\r\\t\\u001f\u007f\\\"\\\\/\u2028<>&\"", ""},
		{"surrogate pair", `"\ud83d\ude00"`, "\"\U0001F600\"", ""},
		{"lone surrogates", `"\ud800x\udfff"`, `"\ud800x\udfff"`, ""},
		{"invalid utf8", "\"a\xffb\"", "\"a\ufffdb\"", ""},
		{"whitespace", " \t\n\r{ \"a\" : [ true , false , null ] } \n", `{"a":[true,false,null]}`, ""},
		{"scalars", `"x"`, `"x"`, `"x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Stringify([]byte(tt.in), "")
			require.NoError(t, err)
			assert.Equal(t, tt.want, got, "compact")
			if tt.indent != "" {
				got, err := Stringify([]byte(tt.in), "  ")
				require.NoError(t, err)
				assert.Equal(t, tt.indent, got, "indented")
			}
		})
	}
}

func TestParseRejects(t *testing.T) {
	type test struct{ name, in string }
	var tests []test
	for _, in := range []string{
		``, ` `, `{`, `}`, `[1,]`, `{"a":1,}`, `{"a"}`, `{a:1}`, `'x'`, `"x`, `"\x"`, `"\u12"`, `"\u12g4"`,
		"\"a\nb\"", `01`, `1.`, `.5`, `-`, `1e`, `1e+`, `+1`, `NaN`, `Infinity`, `tru`, `nul`, `[1 2]`,
		`{"a":1 "b":2}`, `1 2`, `[`, `[[]`, "\"\x01\"", `{"a":}`,
	} {
		tests = append(tests, test{strconv.Quote(in), in})
	}
	tests = append(tests, test{"deeper than MaxDepth", strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseString(tt.in)
			assert.Error(t, err, "ParseString(%q) accepted invalid JSON", tt.in)
		})
	}
	t.Run("MaxDepth deep", func(t *testing.T) {
		deep := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
		_, err := ParseString(deep)
		assert.NoError(t, err, "depth %d rejected", MaxDepth)
	})
}

func TestEditor(t *testing.T) {
	v, err := ParseString(`{"a":1,"b":2,"c":3}`)
	require.NoError(t, err)
	e := Edit(v)
	e.Set(0, NumberValue(1))
	assert.True(t, Same(e.Result(), v), "an unchanged edit must return the original value")
	e.Set(1, StringValue("x"))
	e.Delete(2)
	assert.Equal(t, `{"a":1,"b":"x"}`, e.Result().JSON(), "edited")
	assert.Equal(t, `{"a":1,"b":2,"c":3}`, v.JSON(), "original modified")
}

func TestEditorDeletes(t *testing.T) {
	tests := []struct {
		name    string
		members int
		delete  []int
	}{
		{"none", 3, nil},
		{"first and last of a small object", 3, []int{0, 2}},
		{"around the 64th member", 70, []int{0, 62, 63, 64, 69}},
		{"twice the same", 5, []int{1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			members := make([]Member, tt.members)
			for i := range members {
				members[i] = Member{Key: "k" + FormatNumber(float64(i)), Value: NumberValue(float64(i))}
			}
			v := ObjectValue(members)
			e := Edit(v)
			gone := map[int]bool{}
			for _, i := range tt.delete {
				e.Delete(i)
				gone[i] = true
			}
			for i := 0; i < tt.members; i++ {
				assert.Equal(t, gone[i], e.Deleted(i), "Deleted(%d)", i)
			}
			r := e.Result()
			assert.Equal(t, tt.members-len(gone), r.Len(), "members left")
			for i := 0; i < tt.members; i++ {
				assert.Equal(t, !gone[i], r.Has("k"+FormatNumber(float64(i))), "member %d present", i)
			}
			if len(tt.delete) == 0 {
				assert.True(t, Same(r, v), "an edit without changes must return the original")
			}
		})
	}
}

func TestEqual(t *testing.T) {
	a, _ := ParseString(`{"x":[1,{"y":null}],"z":"s"}`)
	b, _ := ParseString(`{"z":"s","x":[1.0,{"y":null}]}`)
	c, _ := ParseString(`{"z":"s","x":[1,{"y":false}]}`)
	assert.True(t, Equal(a, b), "Equal compares JSON content regardless of key order")
	assert.False(t, Equal(a, c), "Equal compares JSON content regardless of key order")
	assert.True(t, Equal(NumberValue(0), NumberValue(math.Copysign(0, -1))), "0 equals -0, but is not the same value")
	assert.False(t, Same(NumberValue(0), NumberValue(math.Copysign(0, -1))), "0 equals -0, but is not the same value")
}

// FuzzParse checks that Parse never panics, agrees with encoding/json on what
// is JSON, and that its output reads back to the same output.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `[1,"x",null,true,{"b":[]}]`, `"\ud800"`, `1e400`, `{"1":1,"a":2,"0":3}`, "\"\xff\"", `-0.0e-0`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		require.Equal(t, json.Valid(data), err == nil, "Parse error %v, json.Valid %v for %q", err, json.Valid(data), data)
		if err != nil {
			return
		}
		out := v.AppendJSON(nil)
		w, err := Parse(out)
		require.NoError(t, err, "output %q does not parse", out)
		assert.Equal(t, string(out), string(w.AppendJSON(nil)), "not stable")
		_ = v.Indent()
	})
}

func BenchmarkParse(b *testing.B) {
	data := []byte(`{"query":"go agents","limit":"10","exact":"true","tags":["runtime","agents"],"lang":null,"score":"0.5"}`)
	b.ReportAllocs()
	for b.Loop() {
		// require only on failure: it calls b.Helper, which the loop would measure.
		if _, err := Parse(data); err != nil {
			require.NoError(b, err)
		}
	}
}
