package schema

import (
	"unicode/utf8"

	"github.com/pi-go/agentcore/internal/jsonv"
)

// verdict is the fast checker's answer for a value.
type verdict uint8

const (
	// undecided: ask the checker.
	undecided verdict = iota
	pass
	fail
)

// uniqueScanMax is the longest array whose uniqueItems the fast checker
// compares pairwise; the checker decides longer ones (it hashes them).
const uniqueScanMax = 64

// check reports whether v passes s exactly as the checker would report it
// for the same value (as toAny converts it), without converting v. It is
// undecided only where the checker's answer hangs on its internals rather
// than on the keywords: uniqueItems over a long array, or over items holding
// a number too large for a double, which the checker rejects (it cannot type
// one) or not depending on which items it happens to compare. A failure of
// any keyword is reported as a failure even then, since the checker fails
// such a value too.
func (s *fastSchema) check(v jsonv.Value) verdict {
	if s.always != undecided {
		return s.always
	}
	if s.types != 0 && !s.types.has(v) {
		return fail
	}
	if s.hasConst && !jsonv.Equal(s.constant, v) {
		return fail
	}
	if s.enum != nil && !inValues(s.enum, v) {
		return fail
	}
	switch v.Kind() {
	case jsonv.String:
		return s.checkString(v.Str())
	case jsonv.Number:
		return s.checkNumber(v)
	case jsonv.Array:
		return s.checkArray(v.Items())
	case jsonv.Object:
		return s.checkObject(v)
	}
	return pass
}

// has reports whether v has one of the types. A number too large for a
// double has none: the checker cannot type it and fails it.
func (t typeSet) has(v jsonv.Value) bool {
	switch v.Kind() {
	case jsonv.Null:
		return t&typeNull != 0
	case jsonv.Bool:
		return t&typeBoolean != 0
	case jsonv.Number:
		return v.IsFinite() && (t&typeNumber != 0 || (t&typeInteger != 0 && v.IsInteger()))
	case jsonv.String:
		return t&typeString != 0
	case jsonv.Array:
		return t&typeArray != 0
	}
	return t&typeObject != 0
}

func (s *fastSchema) checkString(str string) verdict {
	if s.format != nil && !s.format(str) {
		return fail
	}
	if s.minLength != -1 || s.maxLength != -1 {
		// The checker counts UTF-8 code points, a lone surrogate (three
		// invalid bytes to it) as three.
		n := utf8.RuneCountInString(str)
		if (s.minLength != -1 && n < s.minLength) || (s.maxLength != -1 && n > s.maxLength) {
			return fail
		}
	}
	if s.pattern != nil && !s.pattern.MatchString(str) {
		return fail
	}
	return pass
}

func (s *fastSchema) checkNumber(v jsonv.Value) verdict {
	if !v.IsFinite() {
		return pass // the checker applies number keywords to the numbers it can type only
	}
	if !s.inBounds(v.Num()) {
		return fail
	}
	return pass
}

// inBounds reports whether n meets the number keywords. The checker
// compares the shortest decimals of the two doubles exactly, which orders
// them as the doubles themselves are ordered.
func (s *fastSchema) inBounds(n float64) bool {
	for _, b := range s.bounds {
		var ok bool
		switch b.keyword {
		case "minimum":
			ok = n >= b.at
		case "maximum":
			ok = n <= b.at
		case "exclusiveMinimum":
			ok = n > b.at
		default:
			ok = n < b.at
		}
		if !ok {
			return false
		}
	}
	return true
}

func (s *fastSchema) checkArray(items []jsonv.Value) verdict {
	n := len(items)
	if (s.minItems != -1 && n < s.minItems) || (s.maxItems != -1 && n > s.maxItems) {
		return fail
	}
	r := pass
	if s.unique && n >= 2 {
		switch {
		case n > uniqueScanMax:
			r = undecided
		case !unique(items):
			return fail
		case hasNonFinite(items):
			r = undecided
		}
	}
	if s.items != nil {
		for _, it := range items {
			if r = worse(r, s.items.check(it)); r == fail {
				return fail
			}
		}
	}
	return r
}

func (s *fastSchema) checkObject(v jsonv.Value) verdict {
	n := v.Len()
	if (s.minProps != -1 && n < s.minProps) || (s.maxProps != -1 && n > s.maxProps) {
		return fail
	}
	for _, name := range s.required {
		if !v.Has(name) {
			return fail
		}
	}
	if len(s.props) == 0 && s.additional == nil {
		return pass
	}
	r := pass
	for _, m := range v.Members() {
		child := s.props[m.Key]
		if child == nil {
			if child = s.additional; child == nil {
				continue
			}
		}
		if r = worse(r, child.check(m.Value)); r == fail {
			return fail
		}
	}
	return r
}

// worse combines the verdicts of two checks that must both pass.
func worse(a, b verdict) verdict {
	if a == fail || b == fail {
		return fail
	}
	if a == undecided || b == undecided {
		return undecided
	}
	return pass
}

// hasNonFinite reports whether a number too large for a double is anywhere
// in the values.
func hasNonFinite(values []jsonv.Value) bool {
	for _, v := range values {
		if nonFinite(v) {
			return true
		}
	}
	return false
}

func nonFinite(v jsonv.Value) bool {
	switch v.Kind() {
	case jsonv.Number:
		return !v.IsFinite()
	case jsonv.Array:
		return hasNonFinite(v.Items())
	case jsonv.Object:
		for _, m := range v.Members() {
			if nonFinite(m.Value) {
				return true
			}
		}
	}
	return false
}
