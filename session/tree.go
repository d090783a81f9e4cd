package session

import (
	"slices"
	"time"
)

// tree indexes a session's entries. It is not safe for concurrent use;
// [Session] guards it. Each entry has a slot holding its tree fields; the
// entry itself is resident, or read back from the file on demand (see
// [source]).
type tree struct {
	slots  []*slot
	byID   map[string]*slot
	labels map[string]labelState
	leaf   string
	// leafNoID is true when the leaf is an entry without an ID (leaf is
	// then ""): pi's leaf is then undefined, its context that of the last
	// entry, and an entry appended there has no parentId.
	leafNoID bool
	// src reads back the entries that are not resident; nil when every
	// entry is.
	src *source
}

type labelState struct {
	label     string
	timestamp string
}

// slot is one entry of a tree.
type slot struct {
	base EntryBase
	typ  string
	// entry is the entry; nil while it is only on disk.
	entry Entry
	// off and n locate the entry's line in the file; n is 0 for an entry
	// kept in memory for good.
	off int64
	n   int
	// role is a message entry's message role, "custom" for a custom
	// message entry, "" otherwise.
	role string
	// model is an assistant message's model; nil otherwise.
	model *ModelRef
	// raw is the entry's line as read, for an entry read from the file and
	// kept in memory; nil otherwise. A read entry is written back from its
	// line, as pi writes it back, never re-encoded.
	raw []byte
	// noID is true for a line without a string "id", noParent for one
	// without a "parentId" (pi's undefined, not null).
	noID, noParent bool
}

func newTree(entries []Entry) *tree {
	t := &tree{byID: make(map[string]*slot, len(entries)), labels: map[string]labelState{}}
	for _, e := range entries {
		t.add(e)
	}
	return t
}

// add indexes e, kept in memory, and makes it the leaf.
func (t *tree) add(e Entry) {
	sl := &slot{base: *e.Base(), typ: e.Type(), entry: e}
	sl.role, sl.model = summarize(e)
	t.addSlot(sl)
}

// addSlot indexes sl and makes it the leaf.
func (t *tree) addSlot(sl *slot) {
	t.slots = append(t.slots, sl)
	t.byID[sl.base.ID] = sl
	t.leaf = sl.base.ID
	t.leafNoID = sl.noID
	if l, ok := sl.entry.(*Label); ok {
		t.applyLabel(l)
	}
}

func (t *tree) applyLabel(l *Label) {
	if l.Label != "" {
		t.labels[l.TargetID] = labelState{l.Label, l.Timestamp}
	} else {
		delete(t.labels, l.TargetID)
	}
}

// labelRef is a label in force: its target, and the label entry that
// set it.
type labelRef struct {
	target string
	slot   *slot
}

// orderedLabels returns the labels in force in the order pi's label map
// holds them: by the first time each target was labelled since it was
// last cleared.
func (t *tree) orderedLabels() []labelRef {
	var order []labelRef
	at := map[string]int{}
	for _, sl := range t.slots {
		l, ok := sl.entry.(*Label)
		if !ok {
			continue
		}
		i, set := at[l.TargetID]
		switch {
		case l.Label != "" && set:
			order[i].slot = sl
		case l.Label != "":
			at[l.TargetID] = len(order)
			order = append(order, labelRef{l.TargetID, sl})
		case set:
			order[i].slot = nil
			delete(at, l.TargetID)
		}
	}
	out := order[:0]
	for _, l := range order {
		if l.slot != nil {
			out = append(out, l)
		}
	}
	return out
}

// removeLast undoes the add of the last entry, for a write that failed.
func (t *tree) removeLast(previousLeaf string) {
	last := t.slots[len(t.slots)-1]
	t.slots = t.slots[:len(t.slots)-1]
	delete(t.byID, last.base.ID)
	t.leaf = previousLeaf
	if last.typ == "label" {
		clear(t.labels)
		for _, sl := range t.slots {
			if l, ok := sl.entry.(*Label); ok {
				t.applyLabel(l)
			}
		}
	}
}

// has reports whether the tree holds the entry id. "" names no entry,
// though entries without an ID are indexed under it: as in pi, they
// cannot be labelled, edited or branched to.
func (t *tree) has(id string) bool { return id != "" && t.byID[id] != nil }

// get returns the entry id, read back when needed; nil when absent.
func (t *tree) get(id string) Entry {
	sl := t.byID[id]
	if sl == nil {
		return nil
	}
	return t.entries([]*slot{sl})[0]
}

// all returns every entry in file order.
func (t *tree) all() []Entry { return t.entries(t.slots) }

// entries returns the entries of slots, reading back those on disk.
func (t *tree) entries(slots []*slot) []Entry {
	out := make([]Entry, len(slots))
	var missing []int
	for i, sl := range slots {
		if sl.entry != nil {
			out[i] = sl.entry
		} else {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 {
		t.src.load(slots, missing, out)
	}
	return out
}

// pathSlots returns the slots from a root to leaf, in order; none for an
// unknown leaf or "".
func (t *tree) pathSlots(leaf string) []*slot {
	if leaf == "" {
		return nil
	}
	return t.pathFrom(t.byID[leaf])
}

// pathFrom returns the slots from a root to leaf, in order.
func (t *tree) pathFrom(leaf *slot) []*slot {
	var out []*slot
	seen := map[*slot]bool{}
	for sl := leaf; sl != nil; {
		if seen[sl] {
			break // a cycle in a hand-edited file (pi loops forever)
		}
		seen[sl] = true
		out = append(out, sl)
		if sl.base.ParentID == "" {
			break
		}
		sl = t.byID[sl.base.ParentID]
	}
	slices.Reverse(out)
	return out
}

// path returns the entries from a root to leaf, in order.
func (t *tree) path(leaf string) []Entry { return t.entries(t.pathSlots(leaf)) }

// Node is an entry in a session's tree, with its label and children.
type Node struct {
	Entry Entry
	// Label is the entry's label; "" for none.
	Label string
	// Children are the entries that follow this one, oldest first.
	Children []*Node
}

// roots builds the tree: roots in file order, children sorted by time.
// An entry whose parent is missing is a root, as in pi.
func (t *tree) roots() []*Node {
	entries := t.all()
	nodes := make(map[string]*Node, len(t.slots))
	for i, sl := range t.slots {
		nodes[sl.base.ID] = &Node{Entry: entries[i], Label: t.labels[sl.base.ID].label}
	}
	var roots []*Node
	for _, sl := range t.slots {
		b := sl.base
		n := nodes[b.ID]
		parent := nodes[b.ParentID]
		if sl.noParent && !sl.noID {
			// pi looks the undefined parentId up, and finds the last
			// entry without an ID, when there is one.
			parent = nodes[""]
		} else if b.ParentID == "" || b.ParentID == b.ID {
			parent = nil
		}
		if parent == nil {
			roots = append(roots, n)
			continue
		}
		parent.Children = append(parent.Children, n)
	}
	// Entries without an ID share one node, as in pi, and can make a
	// cycle under a root, where pi loops forever: a node already reached
	// is not reached again, so the tree is finite.
	stack := slices.Clone(roots)
	seen := make(map[*Node]bool, len(nodes))
	for _, r := range roots {
		seen[r] = true
	}
	done := make(map[*Node]bool, len(nodes))
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if done[n] {
			continue // a root listed twice
		}
		done[n] = true
		n.Children = slices.DeleteFunc(n.Children, func(c *Node) bool {
			if seen[c] {
				return true
			}
			seen[c] = true
			return false
		})
		slices.SortStableFunc(n.Children, func(a, b *Node) int {
			return compareTime(a.Entry.Base().Timestamp, b.Entry.Base().Timestamp)
		})
		stack = append(stack, n.Children...)
	}
	return roots
}

// compareTime orders ISO timestamps by the instant they name; one that
// does not parse sorts as pi's NaN does: as equal to everything.
func compareTime(a, b string) int {
	ta, erra := time.Parse(time.RFC3339Nano, a)
	tb, errb := time.Parse(time.RFC3339Nano, b)
	if erra != nil || errb != nil {
		return 0
	}
	return ta.Compare(tb)
}

// millis converts an ISO timestamp to Unix milliseconds, as JavaScript's
// Date does; 0 when it does not parse.
func millis(ts string) int64 {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return 0
	}
	return t.UnixMilli()
}
