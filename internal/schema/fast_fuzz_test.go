package schema

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore/internal/jsonv"
)

// gen draws choices from fuzz bytes; past their end every choice is 0.
type gen struct {
	data []byte
	i    int
}

func (g *gen) n(k int) int {
	if g.i >= len(g.data) {
		return 0
	}
	b := g.data[g.i]
	g.i++
	return int(b) % k
}

func (g *gen) pick(list []string) string { return list[g.n(len(list))] }

// Pools of JSON texts the generators draw from: names, strings and numbers
// chosen to meet the checks' edge cases (code points, lone surrogates,
// integer-valued doubles, negative zero, overflow, formats).
var (
	genNames   = []string{`"a"`, `"b"`, `"c"`, `"0"`, `"1"`, `"é"`, `"a/b"`, `"~x"`, `""`}
	genStrings = []string{`""`, `"a"`, `"ab"`, `"abc"`, `"é"`, `"😀"`, `"2024-01-02"`, `"2024-02-30"`, `"a@b.co"`,
		`"123"`, `"true"`, `"12:00:00Z"`, `"192.168.0.1"`, `"x y"`, `"0f8fad5b-d9cb-469f-a165-70867728950e"`,
		`"http://x.io/a"`, `"A1"`}
	genValueStrings = append([]string{`"\ud800"`, `"a\udc00b"`}, genStrings...)
	genNumbers      = []string{`0`, `-0`, `1`, `-1`, `1.5`, `2`, `3`, `10`, `1e21`, `0.1`, `0.30000000000000004`, `5e-324`, `-2.5`, `9007199254740993`}
	genValueNumbers = append([]string{`1e400`, `-1e400`}, genNumbers...)
	genTypes        = []string{`"null"`, `"boolean"`, `"number"`, `"integer"`, `"string"`, `"array"`, `"object"`, `"any"`}
	genPatterns     = []string{`"^a"`, `"b$"`, `"^[a-z]+$"`, `"\\d"`, `"^.{2}$"`, `"é"`, `"^\\S+$"`, `"[^]"`}
	genFormats      = []string{`"date"`, `"date-time"`, `"time"`, `"email"`, `"uuid"`, `"ipv4"`, `"ipv6"`, `"hostname"`,
		`"uri"`, `"url"`, `"regex"`, `"json-pointer"`, `"x-custom"`, `"int32"`}
)

// simpleSchema writes a random simple schema: only the keywords fastSchema
// handles, with values of the kinds the checker reads and some it ignores.
func (g *gen) simpleSchema(depth int) string {
	switch g.n(8) {
	case 0:
		return "true"
	case 1:
		return "false"
	}
	var kw []string
	add := func(key, val string) { kw = append(kw, `"`+key+`":`+val) }
	for k := g.n(5); k > 0; k-- {
		switch g.n(16) {
		case 0:
			if g.n(3) == 0 {
				add("type", "["+g.pick(genTypes)+","+g.pick(genTypes)+"]")
			} else {
				add("type", g.pick(genTypes))
			}
		case 1:
			add("enum", "["+g.literal(depth)+","+g.literal(depth)+"]")
		case 2:
			add("const", g.literal(depth))
		case 3:
			add(g.pick([]string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}), g.pick(genNumbers))
		case 4:
			add(g.pick([]string{"minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"}),
				g.pick([]string{"0", "1", "2", "3", "1.5", `"2"`}))
		case 5:
			add("uniqueItems", g.pick([]string{"true", "false"}))
		case 6:
			add("required", "["+g.pick(genNames)+","+g.pick(genNames)+"]")
		case 7, 8:
			if depth > 0 {
				var props []string
				for p := g.n(4); p > 0; p-- {
					props = append(props, g.pick(genNames)+":"+g.simpleSchema(depth-1))
				}
				add("properties", "{"+strings.Join(props, ",")+"}")
			}
		case 9:
			if depth > 0 {
				add("additionalProperties", g.simpleSchema(depth-1))
			}
		case 10:
			if depth > 0 {
				add("items", g.simpleSchema(depth-1))
			}
		case 11:
			add("pattern", g.pick(genPatterns))
		case 12:
			add("format", g.pick(genFormats))
		case 13:
			add(g.pick([]string{"title", "description", "$comment"}), g.pick([]string{`"x"`, "5"}))
		case 14:
			add(g.pick([]string{"default", "examples", "deprecated", "readOnly", "writeOnly"}), g.literal(depth))
		case 15:
			add("required", g.pick(genNames)) // not a list: ignored
		}
	}
	return "{" + strings.Join(kw, ",") + "}"
}

// literal writes a random JSON value for enum and const: no lone surrogates
// or overflowing numbers, which make a schema not simple.
func (g *gen) literal(depth int) string {
	return g.value(depth, genStrings, genNumbers)
}

// value writes a random JSON value drawing on the given pools.
func (g *gen) value(depth int, strs, nums []string) string {
	k := g.n(7)
	if depth <= 0 && k >= 5 {
		k = g.n(5)
	}
	switch k {
	case 0:
		return "null"
	case 1:
		return g.pick([]string{"true", "false"})
	case 2:
		return g.pick(nums)
	case 3, 4:
		return g.pick(strs)
	case 5:
		var items []string
		for i := g.n(4); i > 0; i-- {
			items = append(items, g.value(depth-1, strs, nums))
		}
		return "[" + strings.Join(items, ",") + "]"
	}
	var members []string
	for i := g.n(4); i > 0; i-- {
		members = append(members, g.pick(genNames)+":"+g.value(depth-1, strs, nums))
	}
	return "{" + strings.Join(members, ",") + "}"
}

// FuzzFastChecker draws a simple schema and values, and checks that the fast
// checker agrees with the checker on every subschema and every value, and
// that parsing with the fast path gives what the checker alone gives.
func FuzzFastChecker(f *testing.F) {
	f.Add([]byte{}, []byte{}, []byte(`{}`))
	f.Add([]byte("\x02\x03\x07\x04\x05\x06\x01\x08"), []byte("\x06\x06\x02\x03\x01\x05"), []byte(`{"a":"1","b":[1,1]}`))
	f.Add([]byte("\x04\x07\x07\x01\x02\x00\x0a\x0b\x0c\x03"), []byte("\x05\x04\x03\x02\x01\x00\x06"), []byte(`["x",1e400,null]`))
	f.Add([]byte(searchSchema), []byte(`{"query":"go agents","limit":"10","exact":"true"}`), []byte(`{"query":1,"tags":"x","lang":null}`))
	f.Fuzz(func(t *testing.T, schemaSeed, valueSeed, args []byte) {
		g := &gen{data: schemaSeed}
		schema := g.simpleSchema(3)
		vd, err := Compile(json.RawMessage(schema))
		if err != nil {
			return // a drawn value the checker's meta-schema rejects
		}
		if vd.doc.root.Kind() == jsonv.Object {
			require.NotNil(t, vd.fast, "drawn schema %s is not simple", schema)
		}
		var values []jsonv.Value
		vg := &gen{data: valueSeed}
		for range 4 {
			text := vg.value(3, genValueStrings, genValueNumbers)
			v, err := jsonv.ParseString(text)
			require.NoError(t, err, "drawn value %s", text)
			values = append(values, v)
			assertRawAgrees(t, vd, text)
		}
		if v, err := jsonv.Parse(args); err == nil {
			values = append(values, v)
		}
		assertRawAgrees(t, vd, string(args))
		var all []jsonv.Value
		for _, v := range values {
			all = append(all, subValues(v)...)
		}
		assertFastAgrees(t, vd, all)
		if vd.root == nil {
			return
		}
		t.Logf("schema %s", schema)
		for _, v := range values {
			assertSameAsChecker(t, vd, v)
			if out, errs := vd.ParseValue(v); errs == nil {
				assertPassesKeep(t, vd, out)
			}
		}
	})
}
