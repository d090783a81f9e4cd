package session

import (
	"encoding/json"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/jsonv"
)

// CurrentVersion is the format version this package writes: pi's version 3.
const CurrentVersion = 3

// Header is the first line of a session file: metadata, not part of the
// tree.
type Header struct {
	// Version is the format version; a file without one is version 1.
	// Opening a file migrates it to [CurrentVersion]. A version read as
	// pi reads it (a string "2" is 2); 0 for one that is no number, which
	// pi leaves as it is.
	Version int
	// ID is the session's ID: a UUIDv7 unless the creator chose one.
	ID string
	// Timestamp is when the session was created, an ISO 8601 string.
	Timestamp string
	// Cwd is the working directory the session belongs to.
	Cwd string
	// ParentSession is the file this session was forked from; "" for none.
	ParentSession string

	// raw is the header as read (and migrated), written back as it is: its
	// members of other types and its unknown members kept. Null for a
	// header made here.
	raw jsonv.Value
}

// MarshalJSON writes the header as pi does: a header read from a file as
// it was read (migrated, and as JSON.stringify writes it), unknown members
// included.
func (h Header) MarshalJSON() ([]byte, error) {
	if h.raw.Kind() == jsonv.Object {
		return h.raw.AppendJSON(nil), nil
	}
	return json.Marshal(struct {
		Type          string `json:"type"`
		Version       int    `json:"version,omitzero"`
		ID            string `json:"id"`
		Timestamp     string `json:"timestamp"`
		Cwd           string `json:"cwd"`
		ParentSession string `json:"parentSession,omitempty"`
	}{"session", h.Version, h.ID, h.Timestamp, h.Cwd, h.ParentSession})
}

// EntryBase is what every entry has: its place in the tree and its time.
type EntryBase struct {
	// ID is the entry's ID, unique in its file: 8 hex digits, or a UUID.
	ID string
	// ParentID is the ID of the entry this one follows; "" for a root
	// (null in the file).
	ParentID string
	// Timestamp is when the entry was written, an ISO 8601 string.
	Timestamp string
}

// Base returns b itself: the common part of every [Entry].
func (b *EntryBase) Base() *EntryBase { return b }

// Entry is one line of a session file after the header. The entries are
// [*MessageEntry], [*ModelChange], [*ThinkingLevelChange], [*UsageEntry],
// [*Compaction], [*ContextEdit], [*BranchSummary], [*CustomEntry],
// [*CustomMessageEntry], [*Label], [*SessionInfo], and [*UnknownEntry] for
// a type this package does not know, kept as read.
type Entry interface {
	// Base returns the entry's ID, parent and timestamp. Changing them
	// changes the entry.
	Base() *EntryBase
	// Type is the entry's "type" field.
	Type() string
}

// MessageEntry holds a message of the conversation.
type MessageEntry struct {
	EntryBase
	// Message is the message; a role nobody registered is an
	// [*agentcore.CustomMessage], kept as read.
	Message agentcore.Message
}

// ModelChange records that the user switched models.
type ModelChange struct {
	EntryBase
	Provider string
	ModelID  string
}

// ThinkingLevelChange records that the user changed the thinking level.
type ThinkingLevelChange struct {
	EntryBase
	ThinkingLevel agentcore.ThinkingLevel
}

// UsageEntry records model usage that is not an assistant message (cache
// warming, for one). It is not part of the context.
type UsageEntry struct {
	EntryBase
	// Kind names the operation; readers treat an unknown kind as usage.
	Kind     string
	Provider string
	Model    string
	Usage    agentcore.Usage
	// Note is free text; "" for none.
	Note string
}

// Compaction records that the context before it was summarized.
type Compaction struct {
	EntryBase
	Summary string
	// FirstKeptEntryID is the first entry before the compaction still in
	// the context; the compaction's own ID keeps none. It is "" only in a
	// migrated version 1 file whose index pointed at no entry.
	FirstKeptEntryID string
	TokensBefore     int
	// Details is implementation data, raw: pi writes {"readFiles":[...],
	// "modifiedFiles":[...]}; nil for none.
	Details json.RawMessage
	// Usage is what generating the summary cost; nil when unknown.
	Usage *agentcore.Usage
	// FromHook is true when an extension wrote the summary; nil when unset.
	FromHook *bool
	// SystemMessage is the replayed system message at the compaction: it
	// heads the compacted context. Nil in older files.
	SystemMessage *agentcore.SystemMessage
}

// ContextEdit changes one earlier entry's contribution to the context of
// the branch it is on, leaving the entry itself unchanged.
type ContextEdit struct {
	EntryBase
	TargetID string
	// Replacement is the new content; nil leaves the target out of the
	// context.
	Replacement *Replacement
}

// Replacement is the content a [ContextEdit] puts in its target's place.
type Replacement struct {
	Content agentcore.Content
}

// BranchSummary summarizes the branch a user left; it starts the branch
// they went to.
type BranchSummary struct {
	EntryBase
	// FromID is the leaf of the branch left ("root" when there was none).
	FromID  string
	Summary string
	// Details, Usage and FromHook are as in [Compaction].
	Details  json.RawMessage
	Usage    *agentcore.Usage
	FromHook *bool
}

// CustomEntry is an extension's state. It is not part of the context.
type CustomEntry struct {
	EntryBase
	CustomType string
	// Data is the extension's value, raw; nil for none.
	Data json.RawMessage
}

// CustomMessageEntry is a message an extension put into the context.
type CustomMessageEntry struct {
	EntryBase
	CustomType string
	Content    agentcore.Content
	// Display says whether a UI shows it.
	Display bool
	// Details is extension data the model never sees, raw; nil for none.
	Details json.RawMessage
}

// Label sets (Label not "") or clears (Label "") the label of an entry.
type Label struct {
	EntryBase
	TargetID string
	Label    string
}

// SessionInfo names the session; the latest one wins, "" clears the name.
type SessionInfo struct {
	EntryBase
	Name string
}

// UnknownEntry is an entry whose type this package does not know. Raw is
// its JSON object as read, written back unchanged; its tree fields are
// decoded into EntryBase and take no part in the context.
type UnknownEntry struct {
	EntryBase
	TypeName string
	Raw      json.RawMessage
}

// Type returns "message".
func (*MessageEntry) Type() string { return "message" }

// Type returns "model_change".
func (*ModelChange) Type() string { return "model_change" }

// Type returns "thinking_level_change".
func (*ThinkingLevelChange) Type() string { return "thinking_level_change" }

// Type returns "usage".
func (*UsageEntry) Type() string { return "usage" }

// Type returns "compaction".
func (*Compaction) Type() string { return "compaction" }

// Type returns "context_edit".
func (*ContextEdit) Type() string { return "context_edit" }

// Type returns "branch_summary".
func (*BranchSummary) Type() string { return "branch_summary" }

// Type returns "custom".
func (*CustomEntry) Type() string { return "custom" }

// Type returns "custom_message".
func (*CustomMessageEntry) Type() string { return "custom_message" }

// Type returns "label".
func (*Label) Type() string { return "label" }

// Type returns "session_info".
func (*SessionInfo) Type() string { return "session_info" }

// Type returns the entry's "type" field.
func (e *UnknownEntry) Type() string { return e.TypeName }
