package schema

import (
	"math"

	"github.com/pi-go/agentcore/internal/jsonv"
)

// notJSON stands for a non-finite number in the checker's input. The checker
// rejects it as no JSON type at all, which is what the reference does with
// Infinity: it is neither a number nor an integer there.
type notJSON struct{}

// toAny converts a value to the checker's representation.
func toAny(v jsonv.Value) any {
	switch v.Kind() {
	case jsonv.Null:
		return nil
	case jsonv.Bool:
		return v.Bool()
	case jsonv.Number:
		f := v.Num()
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return notJSON{}
		}
		return f
	case jsonv.String:
		return v.Str()
	case jsonv.Array:
		items := v.Items()
		out := make([]any, len(items))
		for i, it := range items {
			out[i] = toAny(it)
		}
		return out
	default:
		members := v.Members()
		out := make(map[string]any, len(members))
		for _, m := range members {
			out[m.Key] = toAny(m.Value)
		}
		return out
	}
}

// passes reports whether v is valid against the subschema node, and whether
// that could be decided at all (false for a subschema the checker did not
// compile, which the reference also treats as undecided).
func (vd *Validator) passes(node, v jsonv.Value) (ok, known bool) {
	switch node.Kind() {
	case jsonv.Bool:
		return node.Bool(), true
	case jsonv.Object:
	default:
		return false, false
	}
	n, ok := vd.infos[node.ID()]
	if !ok {
		return false, false
	}
	return n.passes(v)
}

// passes is Validator.passes of the subschema n describes.
func (n *nodeInfo) passes(v jsonv.Value) (ok, known bool) {
	if !n.compiled {
		return false, false
	}
	return n.check.Validate(toAny(v)) == nil, true
}

// ok reports whether v is valid against node; an undecidable subschema is
// taken as passing, so it reports nothing.
func (vd *Validator) ok(node, v jsonv.Value) bool {
	ok, known := vd.passes(node, v)
	return ok || !known
}

// passesTrue is the reference's `passes(...) === true`.
func (vd *Validator) passesTrue(node, v jsonv.Value) bool {
	ok, known := vd.passes(node, v)
	return ok && known
}

// passesFalse is the reference's `passes(...) === false`.
func (vd *Validator) passesFalse(node, v jsonv.Value) bool {
	ok, known := vd.passes(node, v)
	return !ok && known
}

// rootCheck validates a whole value against the root schema.
func (vd *Validator) rootCheck(v jsonv.Value) bool {
	if vd.root == nil {
		return vd.doc.root.Bool()
	}
	return vd.root.Validate(toAny(v)) == nil
}
