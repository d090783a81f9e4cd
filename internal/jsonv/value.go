// Package jsonv is an ordered JSON value with JavaScript semantics: objects
// keep their keys in the order a JavaScript engine enumerates them (array-index
// keys first, ascending, then the other keys in insertion order), numbers are
// IEEE-754 doubles, and the text it writes is what JSON.stringify writes.
//
// Values are immutable once built, so one value may be read by many goroutines.
// A value is small and passed by copy; arrays and objects share their storage
// between copies.
package jsonv

import "math"

// Kind is the JSON type of a Value.
type Kind uint8

// The kinds of JSON values. The zero Value is Null.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// String returns the kind's JSON Schema type name: "null", "boolean",
// "number", "string", "array" or "object".
func (k Kind) String() string {
	switch k {
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case Array:
		return "array"
	case Object:
		return "object"
	default:
		return "null"
	}
}

// Value is one JSON value. The zero Value is null.
type Value struct {
	k Kind
	n float64 // a number; a boolean as 0 or 1
	s string
	c *container
}

// container holds an array's items or an object's members.
type container struct {
	items   []Value
	members []Member
	index   map[string]int // for large objects only; nil otherwise
}

// Member is one key and value of an object.
type Member struct {
	Key   string
	Value Value
}

// indexThreshold is the member count from which an object keeps a key index.
const indexThreshold = 12

// NullValue returns JSON null.
func NullValue() Value { return Value{} }

// BoolValue returns a JSON boolean.
func BoolValue(b bool) Value {
	if b {
		return Value{k: Bool, n: 1}
	}
	return Value{k: Bool}
}

// NumberValue returns a JSON number. Non-finite numbers are allowed (they come
// from JSON literals too large for a double, as in JavaScript) and are written
// as null.
func NumberValue(f float64) Value { return Value{k: Number, n: f} }

// StringValue returns a JSON string. s should be UTF-8; lone UTF-16 surrogates
// may be carried as their 3-byte generalized UTF-8 (WTF-8) encoding, which
// Parse produces for them and the writers escape as \uXXXX.
func StringValue(s string) Value { return Value{k: String, s: s} }

// ArrayValue returns a JSON array of items. The slice is kept, not copied: the
// caller must not modify it afterwards.
func ArrayValue(items []Value) Value {
	return Value{k: Array, c: &container{items: items}}
}

// ObjectValue returns a JSON object of members, in JavaScript key order:
// array-index keys ("0", "1", ... below 2^32-1) first in ascending order, then
// the other keys in the given order. A repeated key keeps its first position
// and its last value, as JSON.parse does. The slice may be reordered in place
// and is kept: the caller must not use it afterwards.
func ObjectValue(members []Member) Value {
	members = dedupe(members)
	orderMembers(members)
	return objectOf(members)
}

// objectOf wraps members that are already unique and in JavaScript order.
func objectOf(members []Member) Value {
	c := &container{members: members}
	if len(members) >= indexThreshold {
		c.index = make(map[string]int, len(members))
		for i, m := range members {
			c.index[m.Key] = i
		}
	}
	return Value{k: Object, c: c}
}

// ID is the identity of an array's or an object's storage, a cheap map key:
// the IDs of two arrays or two objects are equal exactly when Same reports
// them the same value. Every other value has the zero ID.
type ID struct{ c *container }

// ID returns the identity of v's storage.
func (v Value) ID() ID { return ID{v.c} }

// Kind returns the value's JSON type.
func (v Value) Kind() Kind { return v.k }

// IsNull reports whether v is JSON null.
func (v Value) IsNull() bool { return v.k == Null }

// Bool returns the boolean; false when v is not a boolean.
func (v Value) Bool() bool { return v.k == Bool && v.n != 0 }

// Num returns the number; 0 when v is not a number.
func (v Value) Num() float64 {
	if v.k != Number {
		return 0
	}
	return v.n
}

// Str returns the string; "" when v is not a string.
func (v Value) Str() string { return v.s }

// Items returns an array's items (nil when v is not an array). The slice is
// shared: the caller must not modify it.
func (v Value) Items() []Value {
	if v.k != Array {
		return nil
	}
	return v.c.items
}

// Len returns the number of items of an array or members of an object; 0
// for other values.
func (v Value) Len() int {
	switch v.k {
	case Array:
		return len(v.c.items)
	case Object:
		return len(v.c.members)
	}
	return 0
}

// Members returns an object's members in order (nil when v is not an
// object). The slice is shared: the caller must not modify it.
func (v Value) Members() []Member {
	if v.k != Object {
		return nil
	}
	return v.c.members
}

// Get returns the value of an object's member named key and whether it is
// present; false when v is not an object.
func (v Value) Get(key string) (Value, bool) {
	i := v.IndexOf(key)
	if i < 0 {
		return Value{}, false
	}
	return v.c.members[i].Value, true
}

// Has reports whether v is an object with a member named key.
func (v Value) Has(key string) bool { return v.IndexOf(key) >= 0 }

// IndexOf returns the position of the member named key in an object's
// members, or -1 when it is absent or v is not an object.
func (v Value) IndexOf(key string) int {
	if v.k != Object {
		return -1
	}
	if v.c.index != nil {
		if i, ok := v.c.index[key]; ok {
			return i
		}
		return -1
	}
	for i := range v.c.members {
		if v.c.members[i].Key == key {
			return i
		}
	}
	return -1
}

// IsInteger reports whether v is a finite number without a fraction, as
// JavaScript's Number.isInteger.
func (v Value) IsInteger() bool {
	return v.k == Number && !math.IsInf(v.n, 0) && v.n == math.Trunc(v.n)
}

// IsFinite reports whether v is a finite number, as Number.isFinite.
func (v Value) IsFinite() bool {
	return v.k == Number && !math.IsInf(v.n, 0) && !math.IsNaN(v.n)
}

// Same reports whether a and b are the same value as JavaScript's Object.is
// sees them: primitives by value (0 and -0 differ), arrays and objects by
// identity (the same storage), not by content.
func Same(a, b Value) bool {
	if a.k != b.k {
		return false
	}
	switch a.k {
	case Null:
		return true
	case Bool:
		return a.n == b.n
	case Number:
		return math.Float64bits(a.n) == math.Float64bits(b.n) || (math.IsNaN(a.n) && math.IsNaN(b.n))
	case String:
		return a.s == b.s
	default:
		return a.c == b.c
	}
}

// StrictEqual reports whether a === b in JavaScript: primitives by value (0
// equals -0), arrays and objects by identity.
func StrictEqual(a, b Value) bool {
	if a.k == Number && b.k == Number {
		return a.n == b.n
	}
	return Same(a, b)
}

// Equal reports JSON equality: the same primitives (0 equals -0), arrays with
// equal items in order, objects with the same keys and equal values in any
// order.
func Equal(a, b Value) bool {
	if a.k != b.k {
		return false
	}
	switch a.k {
	case Null:
		return true
	case Bool, Number:
		return a.n == b.n
	case String:
		return a.s == b.s
	case Array:
		x, y := a.c.items, b.c.items
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	default:
		if a.c == b.c {
			return true
		}
		if len(a.c.members) != len(b.c.members) {
			return false
		}
		for _, m := range a.c.members {
			w, ok := b.Get(m.Key)
			if !ok || !Equal(m.Value, w) {
				return false
			}
		}
		return true
	}
}
