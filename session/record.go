package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/compaction"
)

// recordContext is the current context of s with, for each message, the
// entry it comes from; fixed is how many leading messages come from the
// latest compaction and the entries it kept (a branch cannot start among
// them without losing the compaction). Called holding s.mu.
func (s *Session) recordContext() (msgs []agentcore.Message, sources []Entry, fixed int) {
	path := s.t.pathSlots(s.t.leaf)
	msgs, sources = projectEntries(s.t.entries(s.t.contextSlots(path)))
	before := map[string]bool{}
	for i := len(path) - 1; i >= 0; i-- {
		if path[i].typ == "compaction" {
			for _, sl := range path[:i+1] {
				before[sl.base.ID] = true
			}
			break
		}
	}
	for fixed < len(sources) && before[sources[fixed].Base().ID] {
		fixed++
	}
	return msgs, sources, fixed
}

// replaceMessage records that the Agent replaced old with m; see
// [Session.recordTranscript].
func (s *Session) replaceMessage(old, m agentcore.Message) error {
	s.mu.Lock()
	msgs, _, _ := s.recordContext()
	s.mu.Unlock()
	// The very message first: of two that read the same, the one replaced.
	i := slices.IndexFunc(msgs, func(c agentcore.Message) bool { return identical(c, old) })
	if i < 0 {
		i = slices.IndexFunc(msgs, func(c agentcore.Message) bool { return sameRecorded(c, old) })
	}
	if i < 0 {
		if _, ok := old.(*agentcore.SystemMessage); ok {
			return nil // the Agent's seeded system message: never recorded
		}
		return fmt.Errorf("%w: the replaced %s message is not in the session's context", ErrNotFound, old.Role())
	}
	next := slices.Clone(msgs)
	next[i] = m
	return s.recordTranscript(next)
}

// recordTranscript brings the session's context to the Agent's transcript
// want, comparing it with the current context ([sameRecorded]) after
// leaving out the leading system messages of want that the context lacks
// (the Agent's seeded system prompt, which no event records):
//
//   - a context that want extends gets the new messages appended;
//   - one message changed in place, in its content only, is a
//     [ContextEdit] of its entry (what pi writes for an edit);
//   - otherwise want's messages from the first that differs are appended
//     on a branch that starts where that message's entry starts (a
//     [TranscriptCut] entry when want ends there): the earlier branch
//     stays in the tree, and the context of the new leaf is want.
//
// A difference among the entries the latest compaction kept is branched
// with a copy of the compaction after them ([Session.recompact]); one in
// its summary, or a transcript cut short among them, is an error.
func (s *Session) recordTranscript(want []agentcore.Message) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	have, sources, fixed := s.recordContext()
	for len(want) > 0 && isSystemMessage(want[0]) && (len(have) == 0 || !sameRecorded(have[0], want[0])) {
		want = want[1:]
	}
	p := 0
	for p < len(have) && p < len(want) && sameRecorded(have[p], want[p]) {
		p++
	}
	if p == len(have) {
		return s.appendMessages(want[p:], s.t.leaf)
	}
	if len(want) == len(have) && sameMessages(have[p+1:], want[p+1:]) {
		if r, ok := contentEdit(have[p], want[p]); ok {
			_, err := s.append(&ContextEdit{TargetID: sources[p].Base().ID, Replacement: r}, s.t.leaf, s.t.leafNoID)
			return err
		}
	}
	if p < fixed {
		if p == 0 || len(want) < fixed {
			return fmt.Errorf("%w: the transcript changed among the compacted messages", ErrInvalid)
		}
		return s.recompact(want, p, fixed, sources)
	}
	return s.branchFrom(p, want, sources)
}

// branchFrom appends, holding s.mu, a branch that starts where the entry of
// the context's message p starts and whose context is want: the path's
// entries from there on are written again in their order, each message
// entry as the message of want at its place (dropped past want's end),
// and the entries that are no message but that readers of the branch
// need (custom entries, model and thinking-level changes, session
// names) as copies, so that the new branch loses none of them; want's
// messages past the context's end come last. Labels, context edits and
// usage entries stay with the branch they belong to.
func (s *Session) branchFrom(p int, want []agentcore.Message, sources []Entry) error {
	start := sources[p].Base()
	path := s.t.pathSlots(s.t.leaf)
	i := slices.IndexFunc(path, func(sl *slot) bool { return sl.base.ID == start.ID })
	var branch []Entry
	k := p
	for _, sl := range path[max(i, 0):] {
		if k < len(sources) && sources[k].Base().ID == sl.base.ID {
			for ; k < len(sources) && sources[k].Base().ID == sl.base.ID; k++ {
				if k < len(want) {
					branch = append(branch, &MessageEntry{Message: want[k]})
				}
			}
		} else if c := carriedCopy(s.t.entries([]*slot{sl})[0]); c != nil {
			branch = append(branch, c)
		}
	}
	for ; k < len(want); k++ {
		branch = append(branch, &MessageEntry{Message: want[k]})
	}
	if len(branch) == 0 {
		// Nothing to append: a marker starts the branch, so that the
		// shorter context is the file's leaf when reopened.
		_, err := s.append(&CustomEntry{CustomType: TranscriptCut}, start.ParentID, false)
		return err
	}
	parent := start.ParentID
	for _, e := range branch {
		if err := s.appendAfter(e, &parent); err != nil {
			return err
		}
	}
	return nil
}

// appendAfter appends e as a child of *parent, holding s.mu, and makes it
// the parent of what comes next.
func (s *Session) appendAfter(e Entry, parent *string) error {
	id, err := s.append(e, *parent, *parent == s.t.leaf && s.t.leafNoID)
	if err != nil {
		return err
	}
	*parent = id
	return nil
}

// carriedCopy is a copy, to append on a new branch, of an entry a branch
// keeps: a custom entry, a model or thinking-level change, a session name;
// nil for every other entry.
func carriedCopy(e Entry) Entry {
	switch e := e.(type) {
	case *CustomEntry:
		return &CustomEntry{CustomType: e.CustomType, Data: e.Data}
	case *ModelChange:
		return &ModelChange{Provider: e.Provider, ModelID: e.ModelID}
	case *ThinkingLevelChange:
		return &ThinkingLevelChange{ThinkingLevel: e.ThinkingLevel}
	case *SessionInfo:
		return &SessionInfo{Name: e.Name}
	}
	return nil
}

// recompact records want, which differs from the context from its
// message p on, a message the latest compaction kept (0 < p < fixed <=
// len(want)), in more than content (a held call's placeholder, an error,
// replaced by the call's result): a branch from that message's entry
// holds want's kept messages from p, a copy of the compaction, and the
// rest of want, so that the branch's context is want with the same
// summary. Holding s.mu.
func (s *Session) recompact(want []agentcore.Message, p, fixed int, sources []Entry) error {
	old, ok := sources[0].(*Compaction)
	if !ok {
		return fmt.Errorf("%w: the transcript changed among the compacted messages", ErrInvalid)
	}
	parent := sources[p].Base().ParentID
	var firstNew string
	for _, m := range want[p:fixed] {
		id, err := s.append(&MessageEntry{Message: m}, parent, false)
		if err != nil {
			return err
		}
		if firstNew == "" {
			firstNew = id
		}
		parent = id
	}
	c := &Compaction{
		Summary: old.Summary, FirstKeptEntryID: old.FirstKeptEntryID, TokensBefore: old.TokensBefore,
		Details: old.Details, Usage: old.Usage, FromHook: old.FromHook, SystemMessage: old.SystemMessage,
	}
	if c.FirstKeptEntryID == sources[p].Base().ID {
		c.FirstKeptEntryID = firstNew
	}
	id, err := s.append(c, parent, false)
	if err != nil {
		return err
	}
	return s.appendMessages(want[fixed:], id)
}

// TranscriptCut is the CustomType of the [CustomEntry] that [Session.Layer]
// appends where an Agent's transcript was cut short (SetMessages of a
// prefix, Reset): the entry starts a branch with the shorter context.
const TranscriptCut = "agentcore.transcript_cut"

// appendMessages appends msgs after the entry parent, holding s.mu.
func (s *Session) appendMessages(msgs []agentcore.Message, parent string) error {
	for _, m := range msgs {
		if err := s.appendAfter(&MessageEntry{Message: m}, &parent); err != nil {
			return err
		}
	}
	return nil
}

// contentEdit returns the replacement of a context edit that turns have
// into want, when they differ in content only (what pi's context edits
// replace).
func contentEdit(have, want agentcore.Message) (*Replacement, bool) {
	var c agentcore.Content
	switch m := want.(type) {
	case *agentcore.UserMessage:
		c = m.Content
	case *agentcore.AssistantMessage:
		c = agentcore.Blocks(m.Content...)
	case *agentcore.ToolResultMessage:
		c = agentcore.Blocks(m.Content...)
	case *CustomMessage:
		c = m.Content
	default:
		return nil, false
	}
	if reflect.TypeOf(have) != reflect.TypeOf(want) || !sameRecorded(replaceContent(have, c), want) {
		return nil, false
	}
	return &Replacement{Content: c}, true
}

func isSystemMessage(m agentcore.Message) bool {
	_, ok := m.(*agentcore.SystemMessage)
	return ok
}

// identical reports whether a and b are the same message: equal pointers.
func identical(a, b agentcore.Message) bool {
	return a != nil && b != nil && reflect.TypeOf(a).Kind() == reflect.Pointer && a == b
}

func sameMessages(a, b []agentcore.Message) bool {
	return slices.EqualFunc(a, b, sameRecorded)
}

// sameRecorded reports whether the recorded message a stands for b: the
// same message, or one of the same type whose JSON is equal but for its
// timestamp (a message read back, a system message or compaction summary
// the session rebuilt).
func sameRecorded(a, b agentcore.Message) bool {
	a, b = asRecorded(a), asRecorded(b)
	if a == nil || b == nil || reflect.TypeOf(a) != reflect.TypeOf(b) {
		return false
	}
	if reflect.TypeOf(a).Kind() == reflect.Pointer && a == b {
		return true
	}
	if sa, ok := a.(*compaction.Summary); ok {
		// The session keeps the summary's usage on its entry, not its message.
		sb := b.(*compaction.Summary)
		return sa.Summary == sb.Summary && sa.TokensBefore == sb.TokensBefore &&
			slices.Equal(sa.ReadFiles, sb.ReadFiles) && slices.Equal(sa.ModifiedFiles, sb.ModifiedFiles)
	}
	ja, erra := json.Marshal(a)
	jb, errb := json.Marshal(b)
	if erra != nil || errb != nil {
		return false
	}
	return bytes.Equal(withoutTimestamp(ja), withoutTimestamp(jb))
}

// withoutTimestamp returns the JSON object data without its top-level
// "timestamp", re-encoded with sorted keys.
func withoutTimestamp(data []byte) []byte {
	var fields map[string]json.RawMessage
	if json.Unmarshal(data, &fields) != nil {
		return data
	}
	delete(fields, "timestamp")
	out, err := json.Marshal(fields)
	if err != nil {
		return data
	}
	return out
}
