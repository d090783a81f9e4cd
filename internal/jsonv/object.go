package jsonv

import "sort"

// ArrayIndex reports whether key is an array index as JavaScript defines it:
// the canonical decimal form of an integer from 0 to 2^32-2. Object keys that
// are array indexes enumerate first, in ascending order.
func ArrayIndex(key string) (uint32, bool) {
	n := len(key)
	if n == 0 || n > 10 || (key[0] == '0' && n > 1) {
		return 0, false
	}
	var x uint64
	for i := 0; i < n; i++ {
		c := key[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		x = x*10 + uint64(c-'0')
	}
	if x >= 1<<32-1 {
		return 0, false
	}
	return uint32(x), true
}

// dedupe merges repeated keys: the first position, the last value.
func dedupe(members []Member) []Member {
	if len(members) < 2 {
		return members
	}
	if len(members) < indexThreshold {
		out := members[:0]
	small:
		for _, m := range members {
			for j := range out {
				if out[j].Key == m.Key {
					out[j].Value = m.Value
					continue small
				}
			}
			out = append(out, m)
		}
		return out
	}
	seen := make(map[string]int, len(members))
	out := members[:0]
	for _, m := range members {
		if j, ok := seen[m.Key]; ok {
			out[j].Value = m.Value
			continue
		}
		seen[m.Key] = len(out)
		out = append(out, m)
	}
	return out
}

// orderMembers moves array-index keys to the front in ascending order, keeping
// the other keys in their order (a stable sort by that rank).
func orderMembers(members []Member) {
	if ordered(members) {
		return
	}
	sort.SliceStable(members, func(i, j int) bool {
		a, aok := ArrayIndex(members[i].Key)
		b, bok := ArrayIndex(members[j].Key)
		if aok && bok {
			return a < b
		}
		return aok && !bok
	})
}

// Editor builds a changed copy of an array or an object, copy-on-write: the
// storage is copied on the first change only, and Result returns the original
// value when nothing changed. The zero Editor is not usable; call Edit.
type Editor struct {
	orig    Value
	items   []Value
	members []Member
	dead    uint64 // members 0 to 63 deleted, a bit each
	deadAt  []bool // members from 64 on deleted; nil until one is
	deletes int    // how many members were deleted
	changed bool
}

// Edit starts an edit of v, which should be an array or an object.
func Edit(v Value) Editor { return Editor{orig: v} }

// Get returns the current value of item or member i.
func (e *Editor) Get(i int) Value {
	if e.orig.k == Array {
		if e.items != nil {
			return e.items[i]
		}
		return e.orig.c.items[i]
	}
	if e.Deleted(i) {
		return Value{}
	}
	if e.members != nil {
		return e.members[i].Value
	}
	return e.orig.c.members[i].Value
}

// Deleted reports whether member i was deleted.
func (e *Editor) Deleted(i int) bool {
	if e.deletes == 0 {
		return false
	}
	if i < 64 {
		return e.dead&(1<<i) != 0
	}
	return e.deadAt != nil && e.deadAt[i]
}

// Set replaces item or member i with val. A value that is Same as the current
// one changes nothing.
func (e *Editor) Set(i int, val Value) {
	if e.Deleted(i) || Same(e.Get(i), val) {
		return
	}
	e.copyOnce()
	if e.orig.k == Array {
		e.items[i] = val
	} else {
		e.members[i].Value = val
	}
}

// Delete removes member i of an object.
func (e *Editor) Delete(i int) {
	if e.orig.k != Object || e.Deleted(i) {
		return
	}
	e.copyOnce()
	e.deletes++
	if i < 64 {
		e.dead |= 1 << i
		return
	}
	if e.deadAt == nil {
		e.deadAt = make([]bool, len(e.members))
	}
	e.deadAt[i] = true
}

func (e *Editor) copyOnce() {
	if e.changed {
		return
	}
	e.changed = true
	if e.orig.k == Array {
		e.items = append([]Value(nil), e.orig.c.items...)
	} else {
		e.members = append([]Member(nil), e.orig.c.members...)
	}
}

// Result returns the edited value: the original when nothing changed.
func (e *Editor) Result() Value {
	if !e.changed {
		return e.orig
	}
	if e.orig.k == Array {
		return Value{k: Array, c: &container{items: e.items}}
	}
	if e.deletes == 0 {
		return objectOf(e.members)
	}
	out := e.members[:0]
	for i, m := range e.members {
		if !e.Deleted(i) {
			out = append(out, m)
		}
	}
	return objectOf(out)
}

// ordered reports whether unique members are in JavaScript key order:
// array-index keys first, ascending, then the others.
func ordered(members []Member) bool {
	last := int64(-1)
	others := false
	for _, m := range members {
		i, ok := ArrayIndex(m.Key)
		if !ok {
			others = true
			continue
		}
		if others || int64(i) <= last {
			return false
		}
		last = int64(i)
	}
	return true
}
