package session

import (
	"fmt"
	"regexp"

	"github.com/pi-go/agentcore/internal/jsonv"
)

var newlines = regexp.MustCompile(`[\r\n]+`)

// Header returns the session's header.
func (s *Session) Header() Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.header
}

// File returns the path of the session's file.
func (s *Session) File() string { return s.path }

// Leaf returns the ID of the current leaf, the entry the next append
// follows; "" before any entry or after [Session.ResetLeaf].
func (s *Session) Leaf() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.t.leaf
}

// Entry returns the entry with the given ID, or nil. An entry not in
// memory is read back from the file (see the package doc's Safety
// section).
func (s *Session) Entry(id string) Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.t.get(id)
}

// Entries returns every entry in file order, in a new slice; the entries
// are the session's and must not be modified. Those not in memory are
// read back from the file: the slice holds the whole session.
func (s *Session) Entries() []Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.t.all()
}

// Children returns the entries whose parent is id, in file order.
func (s *Session) Children(id string) []Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	var children []*slot
	for _, sl := range s.t.slots {
		if sl.base.ParentID == id {
			children = append(children, sl)
		}
	}
	if children == nil {
		return nil
	}
	return s.t.entries(children)
}

// Label returns the label of the entry id; "" for none.
func (s *Session) Label(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.t.labels[id].label
}

// Name returns the session's name, from its latest [SessionInfo]; "" for
// none.
func (s *Session) Name() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.t.slots) - 1; i >= 0; i-- {
		if info, ok := s.t.slots[i].entry.(*SessionInfo); ok {
			return jsonv.TrimSpace(info.Name)
		}
	}
	return ""
}

// Path returns the entries from the root to leafID, in order: pi's
// getBranch. "" means the current leaf. Those not in memory are read back
// from the file.
func (s *Session) Path(leafID string) []Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	if leafID == "" {
		leafID = s.t.leaf
	}
	return s.t.path(leafID)
}

// Tree returns the session's entries as a tree: the roots in file order
// (an entry whose parent is missing is a root), the children of each
// entry sorted by time. The nodes are new; the entries are the session's,
// every one read back from the file when not in memory.
func (s *Session) Tree() []*Node {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.t.roots()
}

// Context returns what a model sees from the current leaf; see
// [BuildContext].
func (s *Session) Context() Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.t.context(s.t.leaf)
}

// ContextAt returns what a model sees from the entry leafID.
func (s *Session) ContextAt(leafID string) Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.t.context(leafID)
}

// Branch moves the leaf to the entry id: the next append starts a branch
// there. Nothing is written: reopened, a session's leaf is its last entry.
func (s *Session) Branch(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.t.has(id) {
		return fmt.Errorf("%w: %q", ErrNotFound, id)
	}
	s.t.leaf, s.t.leafNoID = id, false
	return nil
}

// ResetLeaf moves the leaf before every entry: the next append is a new
// root.
func (s *Session) ResetLeaf() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.t.leaf, s.t.leafNoID = "", false
}

// BranchWithSummary moves the leaf to the entry id ("" for a new root)
// and appends b there, a summary of the branch left, whose FromID it sets
// to the leaf left ("root" when there was none). It returns b's ID.
func (s *Session) BranchWithSummary(id string, b *BranchSummary) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id != "" && !s.t.has(id) {
		return "", fmt.Errorf("%w: %q", ErrNotFound, id)
	}
	if b == nil {
		return "", fmt.Errorf("%w: nil branch summary", ErrInvalid)
	}
	b.FromID = s.t.leaf
	if b.FromID == "" {
		b.FromID = "root"
	}
	previous, previousNoID := s.t.leaf, s.t.leafNoID
	s.t.leaf, s.t.leafNoID = id, false
	newID, err := s.append(b, id, false)
	if err != nil {
		s.t.leaf, s.t.leafNoID = previous, previousNoID
	}
	return newID, err
}

// Err returns the first failure to read an entry back from the file (see
// the package doc's Safety section), wrapping [ErrChanged]; nil when every
// read succeeded. An entry that could not be read is given, by every
// method, as an [*UnknownEntry] with its tree fields, which takes no part
// in a context.
func (s *Session) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.t.src == nil {
		return nil
	}
	return s.t.src.err
}
