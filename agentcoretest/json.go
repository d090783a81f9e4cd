package agentcoretest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/pi-go/agentcore/internal/jsonv"
)

// CanonicalJSON returns data as JavaScript prints an object with sorted
// keys: compact, the members of every object sorted by key, numbers and
// strings as JSON.stringify writes them. Empty data is "{}"; invalid JSON
// comes back unchanged.
func CanonicalJSON(data json.RawMessage) string {
	if len(data) == 0 {
		return "{}"
	}
	v, err := jsonv.Parse(data)
	if err != nil {
		return string(data)
	}
	return string(appendSorted(nil, v))
}

// appendSorted writes v with the members of every object sorted by key.
func appendSorted(dst []byte, v jsonv.Value) []byte {
	switch v.Kind() {
	case jsonv.Array:
		dst = append(dst, '[')
		for i, item := range v.Items() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendSorted(dst, item)
		}
		return append(dst, ']')
	case jsonv.Object:
		members := slices.Clone(v.Members())
		slices.SortFunc(members, func(a, b jsonv.Member) int { return strings.Compare(a.Key, b.Key) })
		dst = append(dst, '{')
		for i, m := range members {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonv.AppendQuote(dst, m.Key)
			dst = append(dst, ':')
			dst = appendSorted(dst, m.Value)
		}
		return append(dst, '}')
	}
	return v.AppendJSON(dst)
}

// MarshalJS marshals v compactly without HTML escaping (maps sort their
// keys), as JSON.stringify would print it. A value that cannot be marshaled
// gives its error as a JSON string.
func MarshalJS(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf("%q", err.Error())
	}
	return strings.TrimSuffix(buf.String(), "\n")
}
