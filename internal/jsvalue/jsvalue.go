// Package jsvalue reads JSON values as JavaScript code reads the objects
// JSON.parse makes of them, where a reference's behavior depends on it:
// whether a value is truthy, and the text of a value as JSON.stringify
// writes it back.
package jsvalue

import (
	"bytes"
	"encoding/json"
	"strconv"
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
