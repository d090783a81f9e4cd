package session

import (
	"encoding/json"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/compaction"
)

// ModelRef names a model: the provider and the model's ID.
type ModelRef struct {
	Provider string `json:"provider"`
	ModelID  string `json:"modelId"`
}

// Context is what a model sees from a leaf of a session, with the model
// and thinking level in effect there.
type Context struct {
	// Messages are the messages of the context, in order: the stored
	// messages, a [*compaction.Summary] (after the compaction's system
	// message) in place of what a compaction summarized, a
	// [*BranchSummaryMessage] and a [*CustomMessage] for the entries of
	// those kinds, and context edits applied. They share the session's
	// messages, which must not be modified.
	Messages []agentcore.Message
	// ThinkingLevel is the last thinking level set on the path; "off"
	// when none was.
	ThinkingLevel agentcore.ThinkingLevel
	// Model is the model of the last model change or assistant message on
	// the path, whichever came later; nil when none.
	Model *ModelRef
}

// BuildContext builds the context a model sees from leafID, as pi's
// buildSessionContext does:
//
//   - the path from the root to the leaf is taken;
//   - the latest compaction on it comes first (its system message, then
//     its summary), followed by the entries from its first kept entry up
//     to it (system messages left out: the compaction's own replays them)
//     and every entry after it;
//   - the latest context edit of each entry on that range replaces its
//     content or, when nil, leaves it out;
//   - model and thinking-level changes are read from the whole path.
//
// entries are all the entries of a session in file order; an empty leafID
// gives an empty context.
func BuildContext(entries []Entry, leafID string) Context {
	return newTree(entries).context(leafID)
}

func (t *tree) context(leafID string) Context {
	path := t.pathSlots(leafID)
	if leafID == "" && t.leafNoID && len(t.slots) > 0 {
		// pi's leaf is undefined: its context is that of the last entry.
		path = t.pathFrom(t.slots[len(t.slots)-1])
	}
	return t.contextOf(path)
}

// contextOf builds the context of path, the slots from a root to a leaf.
func (t *tree) contextOf(path []*slot) Context {
	ctx := Context{ThinkingLevel: agentcore.ThinkingOff}
	for _, sl := range path {
		switch e := sl.entry.(type) {
		case *ThinkingLevelChange:
			ctx.ThinkingLevel = e.ThinkingLevel
		case *ModelChange:
			ctx.Model = &ModelRef{Provider: e.Provider, ModelID: e.ModelID}
		}
		if sl.model != nil {
			m := *sl.model
			ctx.Model = &m
		}
	}
	selected := t.entries(t.contextSlots(path))
	edits := map[string]*ContextEdit{}
	for _, e := range selected {
		if ed, ok := e.(*ContextEdit); ok {
			edits[ed.TargetID] = ed
		}
	}
	for i, e := range selected {
		if _, ok := e.(*Compaction); ok && i > 0 {
			continue // an older compaction kept in the range: only the newest speaks
		}
		ctx.Messages = append(ctx.Messages, project(e, edits[e.Base().ID])...)
	}
	return ctx
}

// contextSlots selects the entries of path that make the context: only
// they are read back from the file.
func (t *tree) contextSlots(path []*slot) []*slot {
	at := -1
	for i, sl := range path {
		if sl.typ == "compaction" {
			at = i
		}
	}
	if at < 0 {
		return path
	}
	c, ok := t.entries(path[at : at+1])[0].(*Compaction)
	if !ok { // not read back: what follows it is all that is known
		return path[at:]
	}
	out := []*slot{path[at]}
	kept := false
	for _, sl := range path[:at] {
		if sl.base.ID == c.FirstKeptEntryID {
			kept = true
		}
		if !kept || sl.role == "system" {
			continue
		}
		out = append(out, sl)
	}
	return append(out, path[at+1:]...)
}

// project returns the messages entry e puts into the context, edit
// applied.
func project(e Entry, edit *ContextEdit) []agentcore.Message {
	msgs := entryMessages(e)
	if edit == nil {
		return msgs
	}
	if edit.Replacement == nil {
		return nil
	}
	out := make([]agentcore.Message, len(msgs))
	for i, m := range msgs {
		out[i] = replaceContent(m, edit.Replacement.Content)
	}
	return out
}

// entryMessages returns the messages an entry contributes before edits.
func entryMessages(e Entry) []agentcore.Message {
	switch e := e.(type) {
	case *MessageEntry:
		return []agentcore.Message{e.Message}
	case *CustomMessageEntry:
		return []agentcore.Message{&CustomMessage{CustomType: e.CustomType, Content: e.Content, Display: e.Display,
			Details: e.Details, Timestamp: millis(e.Timestamp)}}
	case *BranchSummary:
		if e.Summary == "" {
			return nil
		}
		return []agentcore.Message{&BranchSummaryMessage{Summary: e.Summary, FromID: e.FromID, Timestamp: millis(e.Timestamp)}}
	case *Compaction:
		// The file lists feed the next compaction; the message's JSON is
		// pi's, without them (the entry keeps them).
		s := &compaction.Summary{Summary: e.Summary, TokensBefore: e.TokensBefore, Timestamp: millis(e.Timestamp), OmitDetails: true}
		var files struct {
			ReadFiles     []string `json:"readFiles"`
			ModifiedFiles []string `json:"modifiedFiles"`
		}
		if len(e.Details) > 0 && json.Unmarshal(e.Details, &files) == nil {
			s.ReadFiles, s.ModifiedFiles = orNil(files.ReadFiles), orNil(files.ModifiedFiles)
		}
		if e.SystemMessage != nil {
			return []agentcore.Message{e.SystemMessage, s}
		}
		return []agentcore.Message{s}
	}
	return nil
}

func orNil(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

// replaceContent returns m with content c, as pi's context edits replace
// it: for user, assistant, tool-result and custom messages only; a plain
// string becomes one text block for assistant and tool-result messages.
func replaceContent(m agentcore.Message, c agentcore.Content) agentcore.Message {
	blocks := func() []agentcore.ContentBlock {
		if c.Plain {
			return []agentcore.ContentBlock{agentcore.TextBlock{Text: c.Text()}}
		}
		return c.Blocks
	}
	switch m := m.(type) {
	case *agentcore.UserMessage:
		out := *m
		out.Content = c
		return &out
	case *agentcore.AssistantMessage:
		out := m.Clone()
		out.Content = blocks()
		return out
	case *agentcore.ToolResultMessage:
		out := *m
		out.Content = blocks()
		return &out
	case *CustomMessage:
		out := *m
		out.Content = c
		return &out
	}
	return m
}
