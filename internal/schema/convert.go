package schema

import (
	"math"
	"strings"

	"github.com/pi-go/agentcore/internal/jsonv"
)

// convert is pass 2 of coercion: TypeBox's Value.Convert rules keyed on JSON
// Schema structure. A $ref is followed to its target (one that names nothing
// converts nothing).
func (c *coercer) convert(node jsonv.Value, base string, v jsonv.Value) jsonv.Value {
	if node.Kind() != jsonv.Object {
		return v
	}
	n := c.vd.info(node, base)
	if n.ref {
		t := n.refTarget
		if !n.hasTarget || t.unresolved || t.node.Kind() != jsonv.Object {
			return v
		}
		return c.reenter(t.node, t.base, v, true)
	}
	return c.convertNode(n, v)
}

// reenter converts v by node at a point where conversion can meet the same
// node and value again (a $ref, or wrapping a single value into an array): a
// pair already being converted is left unchanged, so a recursive schema ends.
// Results of $ref targets are memoized for the call unless a re-entry was cut
// short while computing them.
func (c *coercer) reenter(node jsonv.Value, base string, v jsonv.Value, memoize bool) jsonv.Value {
	for _, p := range c.entered {
		if jsonv.Same(p.node, node) && jsonv.Same(p.value, v) {
			c.cuts++
			return v
		}
	}
	key := memoKey{node, v}
	if memoize {
		if r, ok := c.memo[key]; ok {
			return r
		}
	}
	cuts := c.cuts
	c.entered = append(c.entered, enteredPair{node, v})
	r := c.convert(node, base, v)
	c.entered = c.entered[:len(c.entered)-1]
	if memoize && c.cuts == cuts {
		if c.memo == nil {
			c.memo = map[memoKey]jsonv.Value{}
		}
		c.memo[key] = r
	}
	return r
}

// convertNode applies the first of a node's const, enum, anyOf, oneOf, allOf
// and type.
func (c *coercer) convertNode(n *nodeInfo, v jsonv.Value) jsonv.Value {
	switch {
	case n.hasConst:
		return convertLiteral(n.constant, v)
	case n.hasEnum:
		return c.convertEnum(n, v)
	case n.hasAnyOf:
		return c.convertUnion(n, n.anyOf, v)
	case n.hasOneOf:
		return c.convertUnion(n, n.oneOf, v)
	case n.hasAllOf:
		next := v
		for _, s := range n.allOf {
			next = c.convert(s, n.base, next)
		}
		return c.convertMembers(n, next)
	case !n.hasType:
		if n.objectKeywords {
			return c.convertObject(n, v)
		}
		if n.arrayKeywords {
			return c.convertArray(n, v)
		}
		return v
	case n.typ.Kind() != jsonv.String:
		return v
	}
	switch n.typ.Str() {
	case "string":
		if s, ok := tryString(v); ok {
			return jsonv.StringValue(s)
		}
	case "number":
		if x, ok := tryNumber(v); ok {
			return jsonv.NumberValue(x)
		}
	case "integer":
		if x, ok := tryNumber(v); ok {
			return jsonv.NumberValue(math.Trunc(x))
		}
	case "boolean":
		if x, ok := tryBoolean(v); ok {
			return jsonv.BoolValue(x)
		}
	case "null":
		if tryNull(v) {
			return jsonv.NullValue()
		}
	case "array":
		return c.convertArray(n, v)
	case "object":
		return c.convertObject(n, v)
	}
	return v
}

// convertEnum treats an enum as a union of its values: a member stays, else
// the first value the input converts to exactly.
func (c *coercer) convertEnum(n *nodeInfo, v jsonv.Value) jsonv.Value {
	for _, m := range n.enum {
		if jsonv.StrictEqual(m, v) {
			return v
		}
	}
	for _, m := range n.enum {
		cand := convertLiteral(m, v)
		if jsonv.StrictEqual(cand, v) {
			continue
		}
		if ok, known := n.passes(cand); ok && known {
			return cand
		}
	}
	return v
}

// convertUnion keeps a value one branch accepts; else takes the first branch
// conversion the whole node accepts. The node's own members convert into
// each candidate before it is checked.
func (c *coercer) convertUnion(n *nodeInfo, branches []jsonv.Value, v jsonv.Value) jsonv.Value {
	for _, s := range branches {
		if c.vd.passesTrue(s, v) {
			return c.convertMembers(n, v)
		}
	}
	for _, s := range branches {
		cand := c.convertMembers(n, c.convert(s, n.base, v))
		if ok, known := n.passes(cand); ok && known {
			return cand
		}
	}
	return c.convertMembers(n, v)
}

// convertMembers converts the object members a union or intersection node
// declares itself, if any.
func (c *coercer) convertMembers(n *nodeInfo, v jsonv.Value) jsonv.Value {
	if n.memberKeywords {
		return c.convertObject(n, v)
	}
	return v
}

func (c *coercer) convertArray(n *nodeInfo, v jsonv.Value) jsonv.Value {
	var prefix []jsonv.Value
	isTuple := false
	if n.hasItems && n.items.Kind() == jsonv.Array {
		prefix, isTuple = n.items.Items(), true
	} else if n.hasPrefix {
		prefix, isTuple = n.prefix, true
	}
	if isTuple {
		// A tuple converts its items and never wraps a single value.
		if v.Kind() != jsonv.Array {
			return v
		}
		restOK := n.hasItems && n.items.Kind() != jsonv.Array
		return mapItems(v, func(item jsonv.Value, i int) jsonv.Value {
			if i < len(prefix) {
				return c.convert(prefix[i], n.base, item)
			}
			if !restOK {
				return item
			}
			return c.convert(n.items, n.base, item)
		})
	}
	if v.Kind() == jsonv.Array {
		if !n.hasItems {
			return v
		}
		return mapItems(v, func(item jsonv.Value, _ int) jsonv.Value { return c.convert(n.items, n.base, item) })
	}
	wrapped := v
	if n.hasItems && n.items.Kind() == jsonv.Object {
		wrapped = c.reenter(n.items, n.base, v, false)
	}
	return jsonv.ArrayValue([]jsonv.Value{wrapped})
}

func (c *coercer) convertObject(n *nodeInfo, v jsonv.Value) jsonv.Value {
	if v.Kind() != jsonv.Object {
		return v
	}
	e := jsonv.Edit(v)
	for i, m := range v.Members() {
		next := m.Value
		p, matched := n.properties.Get(m.Key)
		if matched {
			next = c.convert(p, n.base, next)
		}
		for _, pat := range n.patterns.Members() {
			if !c.vd.matchesPattern(pat.Key, m.Key) {
				continue
			}
			matched = true
			next = c.convert(pat.Value, n.base, next)
		}
		if !matched && n.hasAdditional {
			next = c.convert(n.additional, n.base, next)
		}
		e.Set(i, next)
	}
	return e.Result()
}

// convertLiteral converts v to a literal (a const, an enum value) of another
// type when it converts to exactly that literal; v otherwise.
func convertLiteral(lit, v jsonv.Value) jsonv.Value {
	if jsonv.StrictEqual(lit, v) {
		return v
	}
	switch lit.Kind() {
	case jsonv.String:
		if s, ok := tryString(v); ok && s == lit.Str() {
			return jsonv.StringValue(s)
		}
	case jsonv.Number:
		if n, ok := tryNumber(v); ok && n == lit.Num() {
			return jsonv.NumberValue(n)
		}
	case jsonv.Bool:
		if x, ok := tryBoolean(v); ok && x == lit.Bool() {
			return jsonv.BoolValue(x)
		}
	}
	return v
}

func tryString(v jsonv.Value) (string, bool) {
	switch v.Kind() {
	case jsonv.Bool:
		return boolString(v.Bool()), true
	case jsonv.Number:
		if v.IsFinite() {
			return jsonv.FormatNumber(v.Num()), true
		}
	case jsonv.Null:
		return "null", true
	case jsonv.String:
		return v.Str(), true
	}
	return "", false
}

// maxSafe is Number.MAX_SAFE_INTEGER.
const maxSafe = 1<<53 - 1

func tryNumber(v jsonv.Value) (float64, bool) {
	switch v.Kind() {
	case jsonv.Bool:
		if v.Bool() {
			return 1, true
		}
		return 0, true
	case jsonv.Number:
		return v.Num(), v.IsFinite()
	case jsonv.Null:
		return 0, true
	case jsonv.String:
	default:
		return 0, false
	}
	s := v.Str()
	if n := jsonv.StringToNumber(s); !math.IsInf(n, 0) && !math.IsNaN(n) {
		return n, true
	}
	switch lowerASCII(s) {
	case "false":
		return 0, true
	case "true":
		return 1, true
	}
	// A bigint literal ("12n") within the safe integer range; the other
	// bigint forms are decimal numbers, handled above.
	if body, ok := strings.CutSuffix(s, "n"); ok && isBigIntDigits(body) {
		n := jsonv.StringToNumber(body)
		if math.Abs(n) <= maxSafe {
			return n, true
		}
	}
	return 0, false
}

// isBigIntDigits matches -?(0|[1-9][0-9]*).
func isBigIntDigits(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" || (s[0] == '0' && len(s) > 1) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func tryBoolean(v jsonv.Value) (bool, bool) {
	switch v.Kind() {
	case jsonv.Bool:
		return v.Bool(), true
	case jsonv.Number:
		if v.Num() == 0 {
			return false, true
		}
		if v.Num() == 1 {
			return true, true
		}
	case jsonv.Null:
		return false, true
	case jsonv.String:
		s := v.Str()
		if l := lowerASCII(s); l == "false" || s == "0" {
			return false, true
		} else if l == "true" || s == "1" {
			return true, true
		}
	}
	return false, false
}

func tryNull(v jsonv.Value) bool {
	switch v.Kind() {
	case jsonv.Bool:
		return !v.Bool()
	case jsonv.Number:
		return v.Num() == 0
	case jsonv.Null:
		return true
	case jsonv.String:
		s := v.Str()
		l := lowerASCII(s)
		return l == "undefined" || l == "null" || s == "" || s == "0"
	}
	return false
}

// lowerASCII lowercases ASCII letters only. It is exact for comparing with
// the ASCII words the rules look for: no other character lowercases to one of
// their letters in JavaScript.
func lowerASCII(s string) string {
	if len(s) > 9 {
		return ""
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
