package agentotel

import (
	"encoding/json"
	"io"
	"maps"
	"slices"
	"strings"

	"go.opentelemetry.io/otel/attribute"
)

// jsonValue decodes s, a JSON object or array, into an attribute value:
// objects become maps, arrays slices, integers int64 values, other numbers
// float64 ones, null an empty value. ok is false when s is not one JSON
// object or array.
func jsonValue(s string) (v attribute.Value, ok bool) {
	trimmed := strings.TrimLeft(s, " \t\r\n") // JSON's white space
	if trimmed == "" || (trimmed[0] != '{' && trimmed[0] != '[') {
		return attribute.Value{}, false
	}
	dec := json.NewDecoder(strings.NewReader(trimmed))
	dec.UseNumber()
	var decoded any
	if err := dec.Decode(&decoded); err != nil {
		return attribute.Value{}, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return attribute.Value{}, false // trailing data
	}
	return anyValue(decoded), true
}

// anyValue converts a value decoded by encoding/json with UseNumber.
func anyValue(v any) attribute.Value {
	switch v := v.(type) {
	case bool:
		return attribute.BoolValue(v)
	case string:
		return attribute.StringValue(v)
	case json.Number:
		if n, err := v.Int64(); err == nil {
			return attribute.Int64Value(n)
		}
		f, _ := v.Float64()
		return attribute.Float64Value(f)
	case []any:
		items := make([]attribute.Value, len(v))
		for i, item := range v {
			items[i] = anyValue(item)
		}
		return attribute.SliceValue(items...)
	case map[string]any:
		fields := make([]attribute.KeyValue, 0, len(v))
		for _, k := range slices.Sorted(maps.Keys(v)) {
			fields = append(fields, attribute.KeyValue{Key: attribute.Key(k), Value: anyValue(v[k])})
		}
		return attribute.MapValue(fields...)
	}
	return attribute.Value{} // null
}
