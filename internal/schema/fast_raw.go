package schema

import "github.com/pi-go/agentcore/internal/jsonv"

// The raw check: most tool calls carry compact, plain arguments that a
// stable simple schema accepts as they are. For those, parsing into values,
// coercing, checking and re-encoding would give the bytes back unchanged;
// acceptsRaw recognizes them on the bytes directly, without building values.
//
// "Plain" is the subset of JSON whose re-encoding (jsonv's AppendJSON, which
// writes as JSON.stringify does) is the text itself: no whitespace; strings
// of printable ASCII without escapes; integers of at most 15 digits without
// a leading zero or a negative zero; object keys that do not start with a
// digit (JavaScript orders integer-like keys first) and do not repeat. The
// schema keywords a plain value is checked against are those of fastSchema
// except format and uniqueItems. Anything else is "not known": the caller
// takes the full path, which decides, so acceptsRaw only ever answers yes
// where the full path would answer "valid, unchanged".

// rawMaxDepth and rawMaxKeys bound the nesting and the members of an object
// the raw check follows; deeper or larger values take the full path.
const (
	rawMaxDepth = 32
	rawMaxKeys  = 16
)

// acceptsRaw reports whether data is plain JSON that s accepts unchanged.
// s must be stable.
func (s *fastSchema) acceptsRaw(data []byte) bool {
	r := rawReader{data: data}
	return r.value(s, 0) && r.pos == len(data)
}

// rawReader reads plain JSON from data.
type rawReader struct {
	data []byte
	pos  int
}

// value reads one value at pos and checks it against s (nil: any value).
func (r *rawReader) value(s *fastSchema, depth int) bool {
	if r.pos >= len(r.data) || depth > rawMaxDepth {
		return false
	}
	switch c := r.data[r.pos]; {
	case c == '{':
		return r.object(s, depth)
	case c == '[':
		return r.array(s, depth)
	case c == '"':
		str, ok := r.str()
		return ok && s.rawString(str)
	case c == '-' || ('0' <= c && c <= '9'):
		n, ok := r.integer()
		return ok && s.rawNumber(n)
	case c == 't':
		return r.literal("true") && s.admits(typeBoolean)
	case c == 'f':
		return r.literal("false") && s.admits(typeBoolean)
	case c == 'n':
		return r.literal("null") && s.admits(typeNull)
	}
	return false
}

// admits reports whether s takes some value of type t on its type alone: it
// has no const or enum (which the raw check compares for strings only).
func (s *fastSchema) admits(t typeSet) bool {
	switch {
	case s == nil || s.always == pass:
		return true
	case s.always == fail || s.hasConst || s.enum != nil:
		return false
	}
	return s.types == 0 || s.types&t != 0
}

func (s *fastSchema) rawString(str []byte) bool {
	if s == nil || s.always == pass {
		return true
	}
	if s.always == fail || (s.types != 0 && s.types&typeString == 0) || s.format != nil {
		return false
	}
	if s.hasConst && (s.constant.Kind() != jsonv.String || s.constant.Str() != string(str)) {
		return false
	}
	if s.enum != nil {
		found := false
		for _, e := range s.enum {
			if e.Kind() == jsonv.String && e.Str() == string(str) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	// A plain string is ASCII: its length in code points is its length.
	n := len(str)
	if (s.minLength != -1 && n < s.minLength) || (s.maxLength != -1 && n > s.maxLength) {
		return false
	}
	return s.pattern == nil || s.pattern.Match(str)
}

func (s *fastSchema) rawNumber(n float64) bool {
	if !s.admits(typeNumber | typeInteger) {
		return false
	}
	return s == nil || s.always == pass || s.inBounds(n)
}

func (r *rawReader) array(s *fastSchema, depth int) bool {
	if !s.admits(typeArray) {
		return false
	}
	var items *fastSchema
	if s != nil && s.always != pass {
		if s.unique {
			return false
		}
		items = s.items
	}
	r.pos++ // [
	n := 0
	if r.pos < len(r.data) && r.data[r.pos] == ']' {
		r.pos++
	} else {
		for {
			if !r.value(items, depth+1) {
				return false
			}
			n++
			if more, ok := r.separator(']'); !ok {
				return false
			} else if !more {
				break
			}
		}
	}
	if s == nil || s.always == pass {
		return true
	}
	return (s.minItems == -1 || n >= s.minItems) && (s.maxItems == -1 || n <= s.maxItems)
}

func (r *rawReader) object(s *fastSchema, depth int) bool {
	if !s.admits(typeObject) {
		return false
	}
	checked := s != nil && s.always != pass
	if checked && len(s.required) > 64 {
		return false
	}
	r.pos++ // {
	var keys [rawMaxKeys][]byte
	var required uint64
	n := 0
	if r.pos < len(r.data) && r.data[r.pos] == '}' {
		r.pos++
	} else {
		for {
			key, ok := r.str()
			if !ok || len(key) > 0 && '0' <= key[0] && key[0] <= '9' || n == rawMaxKeys ||
				r.pos >= len(r.data) || r.data[r.pos] != ':' {
				return false
			}
			for _, k := range keys[:n] {
				if string(k) == string(key) {
					return false
				}
			}
			keys[n] = key
			n++
			r.pos++ // :
			var child *fastSchema
			if checked {
				for i, name := range s.required {
					if name == string(key) {
						required |= 1 << i
					}
				}
				if child = s.props[string(key)]; child == nil {
					child = s.additional
				}
			}
			if !r.value(child, depth+1) {
				return false
			}
			if more, ok := r.separator('}'); !ok {
				return false
			} else if !more {
				break
			}
		}
	}
	if !checked {
		return true
	}
	return (s.minProps == -1 || n >= s.minProps) && (s.maxProps == -1 || n <= s.maxProps) &&
		required == 1<<len(s.required)-1
}

// separator reads what follows a member or item: a comma (more) or the
// closing bracket; anything else is not ok.
func (r *rawReader) separator(closing byte) (more, ok bool) {
	if r.pos >= len(r.data) {
		return false, false
	}
	c := r.data[r.pos]
	r.pos++
	return c == ',', c == ',' || c == closing
}

// str reads a plain string and returns its contents.
func (r *rawReader) str() ([]byte, bool) {
	if r.pos >= len(r.data) || r.data[r.pos] != '"' {
		return nil, false
	}
	start := r.pos + 1
	for i := start; i < len(r.data); i++ {
		switch c := r.data[i]; {
		case c == '"':
			r.pos = i + 1
			return r.data[start:i], true
		case c == '\\' || c < 0x20 || c >= 0x7f:
			return nil, false
		}
	}
	return nil, false
}

// integer reads a plain integer: an optional minus, then 1 to 15 digits
// without a leading zero (0 itself is plain, -0 is not).
func (r *rawReader) integer() (float64, bool) {
	neg := r.data[r.pos] == '-'
	if neg {
		r.pos++
	}
	start := r.pos
	var n int64
	for r.pos < len(r.data) && '0' <= r.data[r.pos] && r.data[r.pos] <= '9' {
		n = n*10 + int64(r.data[r.pos]-'0')
		r.pos++
	}
	digits := r.pos - start
	if digits == 0 || digits > 15 || (digits > 1 && r.data[start] == '0') || (neg && n == 0) {
		return 0, false
	}
	if r.pos < len(r.data) {
		if c := r.data[r.pos]; c == '.' || c == 'e' || c == 'E' {
			return 0, false
		}
	}
	if neg {
		n = -n
	}
	return float64(n), true
}

// literal reads word.
func (r *rawReader) literal(word string) bool {
	if len(r.data)-r.pos < len(word) || string(r.data[r.pos:r.pos+len(word)]) != word {
		return false
	}
	r.pos += len(word)
	return true
}
