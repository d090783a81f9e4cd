package session

import (
	"bytes"
	"encoding/json"
	"math"

	"github.com/pi-go/agentcore/internal/jsonv"
	"github.com/pi-go/agentcore/internal/jsvalue"
)

// pi holds each line of a session file as the value JSON.parse makes of
// it and writes a line as JSON.stringify writes that value. This file
// writes lines the same way, so that a file written here is byte for
// byte the file pi writes.

// jsLine returns a line as pi writes it back after reading it:
// JSON.stringify(JSON.parse(line)). Numbers keep their JavaScript values
// (1.0 is 1, 1e400 is null), keys take JavaScript's order and escapes
// become the characters JSON.stringify writes raw.
func jsLine(line []byte) ([]byte, error) {
	v, err := jsonv.Parse(line)
	if err != nil {
		return nil, err
	}
	return v.AppendJSON(make([]byte, 0, len(line))), nil
}

// jsRaw is raw as pi would hold it: JSON.stringify(JSON.parse(raw)), or
// raw itself when it is not JSON; nil stays nil.
func jsRaw(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return raw
	}
	out, err := jsLine(raw)
	if err != nil {
		return raw
	}
	return out
}

// marshalLine writes v with encoding/json, then writes as JSON.stringify
// does the characters encoding/json escapes and JavaScript does not: '<',
// '>', '&', U+2028 and U+2029.
func marshalLine(v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return unescapeJS(data), nil
}

// unescapeJS replaces, in JSON text written by encoding/json, the escapes
// \u003c, \u003e, \u0026, \u2028 and \u2029 by their characters.
func unescapeJS(data []byte) []byte {
	if !bytes.Contains(data, []byte(`\u`)) {
		return data
	}
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		c := data[i]
		if c != '\\' || i+1 >= len(data) {
			out = append(out, c)
			continue
		}
		if data[i+1] != 'u' || i+6 > len(data) {
			out = append(out, c, data[i+1])
			i++
			continue
		}
		switch string(data[i+2 : i+6]) {
		case "003c":
			out = append(out, '<')
		case "003e":
			out = append(out, '>')
		case "0026":
			out = append(out, '&')
		case "2028":
			out = append(out, "\u2028"...)
		case "2029":
			out = append(out, "\u2029"...)
		default:
			out = append(out, data[i:i+6]...)
		}
		i += 5
	}
	return out
}

// setMember returns object v with key set to val: in its place when v has
// it, else added last, as a JavaScript assignment does.
func setMember(v jsonv.Value, key string, val jsonv.Value) jsonv.Value {
	members := append([]jsonv.Member(nil), v.Members()...)
	for i := range members {
		if members[i].Key == key {
			members[i].Value = val
			return jsonv.ObjectValue(members)
		}
	}
	return jsonv.ObjectValue(append(members, jsonv.Member{Key: key, Value: val}))
}

// deleteMember returns object v without key.
func deleteMember(v jsonv.Value, key string) jsonv.Value {
	if !v.Has(key) {
		return v
	}
	var members []jsonv.Member
	for _, m := range v.Members() {
		if m.Key != key {
			members = append(members, m)
		}
	}
	return jsonv.ObjectValue(members)
}

// parentValue is a parent ID as pi writes it: null for a root.
func parentValue(id string) jsonv.Value {
	if id == "" {
		return jsonv.NullValue()
	}
	return jsonv.StringValue(id)
}

// toNumber converts v as JavaScript's relational operators convert their
// operands: numbers as they are, strings as Number(s), booleans as 0 or 1,
// null as 0, an array through its string form, an object to NaN.
func toNumber(v jsonv.Value) float64 {
	switch v.Kind() {
	case jsonv.Number:
		return v.Num()
	case jsonv.String:
		return jsonv.StringToNumber(v.Str())
	case jsonv.Bool:
		if v.Bool() {
			return 1
		}
		return 0
	case jsonv.Null:
		return 0
	case jsonv.Array:
		switch items := v.Items(); len(items) {
		case 0:
			return 0
		case 1:
			if k := items[0].Kind(); k == jsonv.Array || k == jsonv.Object {
				return toNumber(items[0])
			}
			if items[0].Kind() == jsonv.Null {
				return 0
			}
			if items[0].Kind() == jsonv.Bool {
				return math.NaN()
			}
			return toNumber(items[0])
		}
	}
	return math.NaN()
}

// truthy reports whether JavaScript takes v as true.
func truthy(v jsonv.Value) bool {
	switch v.Kind() {
	case jsonv.Null:
		return false
	case jsonv.Bool:
		return v.Bool()
	case jsonv.Number:
		return v.Num() != 0 && !math.IsNaN(v.Num())
	case jsonv.String:
		return v.Str() != ""
	}
	return true
}

// arrayIndex returns the index n names in a JavaScript array of length
// size, or false when entries[n] is undefined.
func arrayIndex(n float64, size int) (int, bool) {
	if n != math.Trunc(n) || n < 0 || n >= float64(size) {
		return 0, false
	}
	return int(n), true
}

// jsInt is an integer member of an entry as pi wrote it: any JSON number,
// a fraction truncated and a value beyond int64 saturated, null left zero
// (the file keeps the number as written; see [jsvalue.Int]).
type jsInt = jsvalue.Int
