// Package jsvalue reads JSON values as JavaScript code reads the objects
// JSON.parse makes of them, where a reference's behavior depends on it:
// whether a value is truthy, and the text of a value as JSON.stringify
// writes it back.
package jsvalue

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/pi-go/agentcore/internal/jsonv"
)

// Truthy reports whether a JSON value is present and not null, false, 0 or
// "", as JavaScript would test it.
func Truthy(v json.RawMessage) bool {
	s := string(bytes.TrimSpace(v))
	switch s {
	case "", "null", "false", `""`:
		return false
	}
	if n, err := strconv.ParseFloat(s, 64); err == nil {
		return n != 0
	}
	return true
}

// CompactJSON returns v without insignificant space, or v itself when it
// is not valid JSON.
func CompactJSON(v []byte) string {
	var buf bytes.Buffer
	if json.Compact(&buf, v) != nil {
		return string(v)
	}
	return buf.String()
}

// Template returns a JSON value as a JavaScript template literal (`${v}`)
// writes it: a string as itself, an object as "[object Object]", an array
// as its items joined by commas (null ones empty), other values as JSON
// writes them; "undefined" when v is empty (absent), v itself when it is
// no JSON.
func Template(v json.RawMessage) string {
	if len(v) == 0 {
		return "undefined"
	}
	x, err := jsonv.Parse(v)
	if err != nil {
		return string(v)
	}
	return template(x)
}

func template(v jsonv.Value) string {
	switch v.Kind() {
	case jsonv.String:
		return v.Str()
	case jsonv.Object:
		return "[object Object]"
	case jsonv.Array:
		parts := make([]string, len(v.Items()))
		for i, x := range v.Items() {
			if !x.IsNull() {
				parts[i] = template(x)
			}
		}
		return strings.Join(parts, ",")
	}
	return v.JSON() // numbers, true, false and null as JavaScript writes them
}
