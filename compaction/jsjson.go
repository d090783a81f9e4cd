package compaction

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
)

// jsMember is one member of a JSON object, in the order JavaScript keeps
// it.
type jsMember struct {
	key   string
	value any
}

// jsObject is a JSON object as JavaScript holds one: its integer-like keys
// first in ascending order, then the others in the order they first
// appeared, a repeated key taking its last value.
type jsObject []jsMember

// formatArgs writes a tool call's arguments as pi's summary record shows
// them: each member of the object as key=value, in JavaScript's member
// order, the value as JavaScript's JSON.stringify writes it (characters
// unescaped, numbers normalized). Anything but an object is written as
// it is.
func formatArgs(raw json.RawMessage) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := decodeJS(dec)
	obj, ok := v.(jsObject)
	if err != nil || !ok || dec.More() {
		return string(raw)
	}
	out := make([]string, len(obj))
	for i, m := range obj {
		var b strings.Builder
		writeJS(&b, m.value)
		out[i] = m.key + "=" + b.String()
	}
	return strings.Join(out, ", ")
}

// decodeJS reads one JSON value: nil, bool, json.Number, string, []any or
// jsObject.
func decodeJS(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('['):
		list := []any{}
		for dec.More() {
			v, err := decodeJS(dec)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		_, err := dec.Token()
		return list, err
	case json.Delim('{'):
		var obj jsObject
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeJS(dec)
			if err != nil {
				return nil, err
			}
			key, _ := k.(string)
			if i := slices.IndexFunc(obj, func(m jsMember) bool { return m.key == key }); i >= 0 {
				obj[i].value = v
			} else {
				obj = append(obj, jsMember{key, v})
			}
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		index := func(m jsMember) bool { _, ok := arrayIndex(m.key); return ok }
		ints := slices.DeleteFunc(slices.Clone(obj), func(m jsMember) bool { return !index(m) })
		slices.SortStableFunc(ints, func(a, b jsMember) int {
			x, _ := arrayIndex(a.key)
			y, _ := arrayIndex(b.key)
			return int(x) - int(y)
		})
		return append(ints, slices.DeleteFunc(obj, index)...), nil
	}
	return tok, nil
}

// arrayIndex reports whether key is a canonical array index, which
// JavaScript orders before an object's other keys.
func arrayIndex(key string) (uint32, bool) {
	if key == "" || len(key) > 1 && key[0] == '0' {
		return 0, false
	}
	n, err := strconv.ParseUint(key, 10, 32)
	if err != nil || n == math.MaxUint32 {
		return 0, false
	}
	return uint32(n), true
}

// writeJS writes v as JSON.stringify would.
func writeJS(b *strings.Builder, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case json.Number:
		b.WriteString(jsNumber(string(v)))
	case string:
		writeJSString(b, v)
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJS(b, e)
		}
		b.WriteByte(']')
	case jsObject:
		b.WriteByte('{')
		for i, m := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSString(b, m.key)
			b.WriteByte(':')
			writeJS(b, m.value)
		}
		b.WriteByte('}')
	}
}

// jsNumber is the JSON number text as JavaScript writes the number it
// parses to: shortest digits, an exponent from 1e21 up and below 1e-6,
// infinities as null.
func jsNumber(text string) string {
	f, err := strconv.ParseFloat(text, 64)
	switch {
	case math.IsInf(f, 0):
		return "null"
	case err != nil:
		return text
	case f == 0:
		return "0"
	}
	if a := math.Abs(f); a >= 1e21 || a < 1e-6 {
		s := strconv.FormatFloat(f, 'e', -1, 64)
		mant, exp, _ := strings.Cut(s, "e")
		sign := exp[:1]
		return mant + "e" + sign + strings.TrimLeft(exp[1:], "0")
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// writeJSString writes s quoted as JSON.stringify does: only the quote,
// the backslash and control characters are escaped.
func writeJSString(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				b.WriteString(`\u00` + string(hex[r>>4]) + string(hex[r&0xf]))
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// compareJS compares a and b as JavaScript's default sort does: by UTF-16
// code units.
func compareJS(a, b string) int {
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}
