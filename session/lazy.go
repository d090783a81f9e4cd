package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/limit"
)

// ErrChanged is the error [Session.Err] reports when an entry could not
// be read back from the file: the file was cut, replaced or rewritten
// under the session by a program that ignores its lock.
var ErrChanged = errors.New("session: file changed under the session")

// cacheBytes bounds the lines whose decoded entries a session keeps after
// reading them back: a branch's context read twice costs one read.
const cacheBytes = 4 << 20

// onDisk reports whether an entry of type typ, in a version 3 file, is
// left on disk after open and read back when needed. Entries that are
// large (messages, summaries, extensions' data) are; those the tree and
// every context need (labels, names, model and thinking-level changes,
// context edits, usage) are small and stay in memory.
func onDisk(typ string) bool {
	switch typ {
	case "label", "session_info", "model_change", "thinking_level_change", "context_edit", "usage":
		return false
	}
	return true
}

// summarize returns what the tree keeps of e besides its tree fields: the
// role of a message (or "custom" for a custom message entry) and the
// model of an assistant message.
func summarize(e Entry) (role string, model *ModelRef) {
	switch e := e.(type) {
	case *MessageEntry:
		if e.Message == nil {
			return "", nil
		}
		role = e.Message.Role()
		if a, ok := e.Message.(*agentcore.AssistantMessage); ok {
			model = &ModelRef{Provider: a.Provider, ModelID: a.Model}
		}
	case *CustomMessageEntry:
		role = "custom"
	}
	return role, model
}

// source reads entries back from a session file. Reads are at the byte
// offsets recorded on open: a version 3 file is only ever appended to, so
// they stay valid while the session's lock is held.
type source struct {
	path string
	reg  *agentcore.MessageRegistry
	// f is the file, open from Open to Close; nil after Close, when each
	// read opens the file again.
	f *os.File
	// queue is the slots whose entries are cached, oldest first, and used
	// the bytes of their lines.
	queue []*slot
	used  int
	// err is the first read that failed.
	err error
	// models interns the assistant messages' models.
	models map[ModelRef]*ModelRef
}

// intern returns the shared copy of m.
func (s *source) intern(m *ModelRef) *ModelRef {
	if m == nil {
		return nil
	}
	if shared, ok := s.models[*m]; ok {
		return shared
	}
	if s.models == nil {
		s.models = map[ModelRef]*ModelRef{}
	}
	s.models[*m] = m
	return m
}

// load reads back the entries of slots[i] for each i of idx into out[i].
// An entry that cannot be read is given as an [*UnknownEntry] holding its
// tree fields, which takes no part in a context, and the error is kept
// for [Session.Err].
func (s *source) load(slots []*slot, idx []int, out []Entry) {
	f := s.f
	if f == nil {
		var err error
		if f, err = os.Open(s.path); err != nil {
			s.fail(fmt.Errorf("%w: %w", ErrChanged, err))
		} else {
			defer f.Close()
		}
	}
	// The lines are read and decoded on several goroutines, the cache
	// kept here.
	read := make([]decoded, len(idx))
	forEach(len(idx), func(k int) {
		read[k].e, read[k].err = s.read(f, slots[idx[k]])
	})
	for k, i := range idx {
		sl := slots[i]
		e, err := read[k].e, read[k].err
		read[k] = decoded{}
		if err != nil {
			s.fail(fmt.Errorf("entry %s at byte %d: %w", limit.Quote(sl.base.ID), sl.off, err))
			out[i] = stub(sl)
			continue
		}
		out[i] = e
		sl.entry = e
		s.queue = append(s.queue, sl)
		s.used += sl.n
		for s.used > cacheBytes && len(s.queue) > 1 {
			old := s.queue[0]
			s.queue[0] = nil
			s.queue = s.queue[1:]
			s.used -= old.n
			old.entry = nil
		}
	}
}

// read decodes the line of sl and checks that it is still sl's entry.
func (s *source) read(f *os.File, sl *slot) (Entry, error) {
	line, err := readLine(f, sl)
	if err != nil {
		return nil, err
	}
	e, _, err := decodeEntry(line, s.reg)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrChanged, err)
	}
	if e.Type() != sl.typ || e.Base().ID != sl.base.ID || e.Base().ParentID != sl.base.ParentID {
		return nil, ErrChanged
	}
	return e, nil
}

// readLine reads the line of sl, trimmed.
func readLine(f *os.File, sl *slot) ([]byte, error) {
	if f == nil {
		return nil, ErrChanged
	}
	line := make([]byte, sl.n)
	if _, err := f.ReadAt(line, sl.off); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrChanged, err)
	}
	return trimJSONSpace(line), nil
}

func (s *source) fail(err error) {
	if s.err == nil {
		s.err = fmt.Errorf("session: %s: %w", s.path, err)
	}
}

// stub stands for an entry that could not be read back.
func stub(sl *slot) Entry {
	raw, _ := json.Marshal(headOf(sl.typ, sl.base))
	return &UnknownEntry{EntryBase: sl.base, TypeName: sl.typ, Raw: raw}
}

// close closes the file; later reads open it again.
func (s *source) close() error {
	if s == nil || s.f == nil {
		return nil
	}
	err := s.f.Close()
	s.f = nil
	return err
}
