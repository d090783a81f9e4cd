package session

import (
	"slices"
	"time"
)

// tree indexes a session's entries. It is not safe for concurrent use;
// [Session] guards it.
type tree struct {
	entries []Entry
	byID    map[string]Entry
	labels  map[string]labelState
	leaf    string
}

type labelState struct {
	label     string
	timestamp string
}

func newTree(entries []Entry) *tree {
	t := &tree{byID: make(map[string]Entry, len(entries)), labels: map[string]labelState{}}
	for _, e := range entries {
		t.add(e)
	}
	return t
}

// add indexes e and makes it the leaf.
func (t *tree) add(e Entry) {
	t.entries = append(t.entries, e)
	b := e.Base()
	t.byID[b.ID] = e
	t.leaf = b.ID
	if l, ok := e.(*Label); ok {
		if l.Label != "" {
			t.labels[l.TargetID] = labelState{l.Label, l.Timestamp}
		} else {
			delete(t.labels, l.TargetID)
		}
	}
}

// removeLast undoes the add of the last entry, for a write that failed.
func (t *tree) removeLast(previousLeaf string) {
	last := t.entries[len(t.entries)-1]
	t.entries = t.entries[:len(t.entries)-1]
	delete(t.byID, last.Base().ID)
	t.leaf = previousLeaf
	if _, ok := last.(*Label); ok {
		t.rebuildLabels()
	}
}

func (t *tree) rebuildLabels() {
	clear(t.labels)
	for _, e := range t.entries {
		if l, ok := e.(*Label); ok {
			if l.Label != "" {
				t.labels[l.TargetID] = labelState{l.Label, l.Timestamp}
			} else {
				delete(t.labels, l.TargetID)
			}
		}
	}
}

// path returns the entries from a root to leaf, in order; none for an
// unknown leaf or "".
func (t *tree) path(leaf string) []Entry {
	var out []Entry
	seen := map[string]bool{}
	for e := t.byID[leaf]; e != nil; {
		b := e.Base()
		if seen[b.ID] {
			break // a cycle in a hand-edited file
		}
		seen[b.ID] = true
		out = append(out, e)
		if b.ParentID == "" {
			break
		}
		e = t.byID[b.ParentID]
	}
	slices.Reverse(out)
	return out
}

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
	nodes := make(map[string]*Node, len(t.entries))
	for _, e := range t.entries {
		nodes[e.Base().ID] = &Node{Entry: e, Label: t.labels[e.Base().ID].label}
	}
	var roots []*Node
	for _, e := range t.entries {
		b := e.Base()
		n := nodes[b.ID]
		parent := nodes[b.ParentID]
		if b.ParentID == "" || b.ParentID == b.ID || parent == nil {
			roots = append(roots, n)
			continue
		}
		parent.Children = append(parent.Children, n)
	}
	stack := slices.Clone(roots)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
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
