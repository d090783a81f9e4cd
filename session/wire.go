package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/jsonv"
	"github.com/pi-go/agentcore/internal/limit"
)

// The entries marshal with their fields in the order pi writes them, so a
// file written here reads like one pi wrote.

// head is the four fields that open most entries' JSON, in pi's order:
// embedded in a struct, they come first.
type head struct {
	Type      string  `json:"type"`
	ID        string  `json:"id"`
	ParentID  *string `json:"parentId"`
	Timestamp string  `json:"timestamp"`
}

// headOf is the head of an entry of type typ.
func headOf(typ string, b EntryBase) head {
	return head{typ, b.ID, nullable(b.ParentID), b.Timestamp}
}

// nullable is s as a JSON string, or null when empty.
func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// MarshalJSON writes the entry as pi does.
func (e *MessageEntry) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		head
		Message agentcore.Message `json:"message"`
	}{headOf(e.Type(), e.EntryBase), e.Message})
}

// MarshalJSON writes the entry as pi does.
func (e *ModelChange) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		head
		Provider string `json:"provider"`
		ModelID  string `json:"modelId"`
	}{headOf(e.Type(), e.EntryBase), e.Provider, e.ModelID})
}

// MarshalJSON writes the entry as pi does.
func (e *ThinkingLevelChange) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		head
		ThinkingLevel agentcore.ThinkingLevel `json:"thinkingLevel"`
	}{headOf(e.Type(), e.EntryBase), e.ThinkingLevel})
}

// MarshalJSON writes the entry as pi does.
func (e *UsageEntry) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		head
		Kind     string          `json:"kind"`
		Provider string          `json:"provider"`
		Model    string          `json:"model"`
		Usage    agentcore.Usage `json:"usage"`
		Note     string          `json:"note,omitempty"`
	}{headOf(e.Type(), e.EntryBase), e.Kind, e.Provider, e.Model, e.Usage, e.Note})
}

// MarshalJSON writes the entry as pi does.
func (e *Compaction) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		head
		Summary          string                   `json:"summary"`
		FirstKeptEntryID string                   `json:"firstKeptEntryId,omitempty"`
		TokensBefore     int                      `json:"tokensBefore"`
		Details          json.RawMessage          `json:"details,omitempty"`
		Usage            *agentcore.Usage         `json:"usage,omitempty"`
		FromHook         *bool                    `json:"fromHook,omitempty"`
		SystemMessage    *agentcore.SystemMessage `json:"systemMessage,omitempty"`
	}{headOf(e.Type(), e.EntryBase), e.Summary, e.FirstKeptEntryID, e.TokensBefore,
		e.Details, e.Usage, e.FromHook, e.SystemMessage})
}

// MarshalJSON writes the entry as pi does; a nil Replacement is null.
func (e *ContextEdit) MarshalJSON() ([]byte, error) {
	type replacement struct {
		Content agentcore.Content `json:"content"`
	}
	var r *replacement
	if e.Replacement != nil {
		r = &replacement{e.Replacement.Content}
	}
	return json.Marshal(struct {
		head
		TargetID    string       `json:"targetId"`
		Replacement *replacement `json:"replacement"`
	}{headOf(e.Type(), e.EntryBase), e.TargetID, r})
}

// MarshalJSON writes the entry as pi does.
func (e *BranchSummary) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		head
		FromID   string           `json:"fromId"`
		Summary  string           `json:"summary"`
		Details  json.RawMessage  `json:"details,omitempty"`
		Usage    *agentcore.Usage `json:"usage,omitempty"`
		FromHook *bool            `json:"fromHook,omitempty"`
	}{headOf(e.Type(), e.EntryBase), e.FromID, e.Summary, e.Details, e.Usage, e.FromHook})
}

// MarshalJSON writes the entry as pi does (its tree fields last).
func (e *CustomEntry) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Type       string          `json:"type"`
		CustomType string          `json:"customType"`
		Data       json.RawMessage `json:"data,omitempty"`
		ID         string          `json:"id"`
		ParentID   *string         `json:"parentId"`
		Timestamp  string          `json:"timestamp"`
	}{e.Type(), e.CustomType, e.Data, e.ID, nullable(e.ParentID), e.Timestamp})
}

// MarshalJSON writes the entry as pi does (its tree fields last).
func (e *CustomMessageEntry) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Type       string            `json:"type"`
		CustomType string            `json:"customType"`
		Content    agentcore.Content `json:"content"`
		Display    bool              `json:"display"`
		Details    json.RawMessage   `json:"details,omitempty"`
		ID         string            `json:"id"`
		ParentID   *string           `json:"parentId"`
		Timestamp  string            `json:"timestamp"`
	}{e.Type(), e.CustomType, e.Content, e.Display, e.Details, e.ID, nullable(e.ParentID), e.Timestamp})
}

// MarshalJSON writes the entry as pi does; an empty Label is left out.
func (e *Label) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		head
		TargetID string `json:"targetId"`
		Label    string `json:"label,omitempty"`
	}{headOf(e.Type(), e.EntryBase), e.TargetID, e.Label})
}

// MarshalJSON writes the entry as pi does.
func (e *SessionInfo) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		head
		Name string `json:"name"`
	}{headOf(e.Type(), e.EntryBase), e.Name})
}

// MarshalJSON writes the entry as it was read (as JSON.stringify writes
// it back), its tree fields updated in place when they changed.
func (e *UnknownEntry) MarshalJSON() ([]byte, error) {
	v, err := jsonv.Parse(e.Raw)
	if err != nil {
		return nil, fmt.Errorf("session: %s entry: %w", e.TypeName, err)
	}
	if v.Kind() == jsonv.Object {
		b, _ := decodeBase(e.Raw)
		if b.ID != e.ID || (b.noID && e.ID != "") {
			v = setMember(v, "id", jsonv.StringValue(e.ID))
		}
		if b.ParentID != e.ParentID {
			v = setMember(v, "parentId", parentValue(e.ParentID))
		}
	}
	return v.AppendJSON(nil), nil
}

// lineBase is the part of every entry line this package reads first.
type lineBase struct {
	Type string
	EntryBase
	// noID is true when the line has no string "id" (pi's id undefined)
	// and noParent when it has no "parentId" at all (pi's undefined, not
	// null).
	noID, noParent bool
}

// errFalsy is why a line holding null, false, 0 or "" is no entry: pi
// skips such values, and keeps every other JSON line.
var errFalsy = errors.New("a JSON value JavaScript takes as false")

// decodeBase reads the tree fields of an entry line; a member of the
// wrong type reads as absent.
func decodeBase(line []byte) (lineBase, error) {
	var w struct {
		Type      *string         `json:"type"`
		ID        *string         `json:"id"`
		ParentID  json.RawMessage `json:"parentId"`
		Timestamp string          `json:"timestamp"`
	}
	if err := json.Unmarshal(line, &w); err != nil {
		var raw struct {
			Type, ID, ParentID, Timestamp json.RawMessage
		}
		if err := json.Unmarshal(line, &raw); err != nil {
			return lineBase{}, err
		}
		w.Type, w.ID, w.ParentID = stringOf(raw.Type), stringOf(raw.ID), raw.ParentID
		if ts := stringOf(raw.Timestamp); ts != nil {
			w.Timestamp = *ts
		}
	}
	b := lineBase{EntryBase: EntryBase{Timestamp: w.Timestamp}, noID: w.ID == nil, noParent: len(w.ParentID) == 0}
	if w.Type != nil {
		b.Type = *w.Type
	}
	if w.ID != nil {
		b.ID = *w.ID
	}
	if p := stringOf(w.ParentID); p != nil {
		b.ParentID = *p
	}
	return b, nil
}

// stringOf returns the JSON string raw holds; nil for anything else.
func stringOf(raw json.RawMessage) *string {
	if len(raw) < 2 || raw[0] != '"' {
		return nil
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		s := string(raw[1 : len(raw)-1])
		return &s
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return nil
	}
	return &s
}

// decodeEntry decodes one entry line (not the header) of a version 3
// file. As pi keeps every line that parses, so does this package: a JSON
// value other than an object (and other than null, false, 0 and "", which
// pi skips) is an [*UnknownEntry] with no type and no tree fields, and an
// object whose members do not fit its type is an [*UnknownEntry] of that
// type; both are written back as read and take no part in a context.
func decodeEntry(line []byte, reg *agentcore.MessageRegistry) (Entry, lineBase, error) {
	if e, b, ok := scanMessageEntry(line, reg); ok {
		return e, b, nil
	}
	return decodeEntryJSON(line, reg)
}

// decodeEntryJSON is decodeEntry without its one-pass path for message
// lines.
func decodeEntryJSON(line []byte, reg *agentcore.MessageRegistry) (Entry, lineBase, error) {
	if len(line) > 0 && line[0] != '{' {
		v, err := jsonv.Parse(line)
		if err != nil {
			return nil, lineBase{}, err
		}
		if !truthy(v) {
			return nil, lineBase{}, errFalsy
		}
		return &UnknownEntry{Raw: bytes.Clone(line)}, lineBase{noID: true, noParent: true}, nil
	}
	b, err := decodeBase(line)
	if err != nil {
		return nil, b, err
	}
	e, err := decodeTyped(line, b, reg)
	if err != nil || e == nil {
		e = &UnknownEntry{EntryBase: b.EntryBase, TypeName: b.Type, Raw: bytes.Clone(line)}
	}
	return e, b, nil
}

// decodeMessage decodes the message of a message entry. A message no
// decoder reads (not an object, or members of the wrong type) is kept as
// an [*agentcore.CustomMessage] holding it as pi holds it.
func decodeMessage(raw json.RawMessage, reg *agentcore.MessageRegistry) agentcore.Message {
	if m, err := reg.UnmarshalMessage(raw); err == nil {
		if u, ok := m.(*agentcore.UserMessage); ok && u.Content.Plain && u.Content.Text() == "" && nullContent(raw) {
			// pi's context gives a user message without content an empty
			// list; the line keeps what it holds.
			u.Content = agentcore.Blocks()
		}
		return m
	}
	cm := &agentcore.CustomMessage{Raw: jsRaw(raw)}
	var head struct {
		Role string `json:"role"`
	}
	if json.Unmarshal(raw, &head) == nil {
		cm.RoleName = head.Role
	}
	return cm
}

// nullContent reports whether a message's content is null or absent.
func nullContent(raw json.RawMessage) bool {
	var w struct {
		Content json.RawMessage `json:"content"`
	}
	return json.Unmarshal(raw, &w) == nil && (len(w.Content) == 0 || string(w.Content) == "null")
}

// decodeTyped decodes an entry of a type this package knows; nil for
// another type.
func decodeTyped(line []byte, b lineBase, reg *agentcore.MessageRegistry) (Entry, error) {
	base := b.EntryBase
	switch b.Type {
	case "message":
		var w struct {
			Message json.RawMessage `json:"message"`
		}
		if err := json.Unmarshal(line, &w); err != nil {
			return nil, err
		}
		if len(w.Message) == 0 || string(w.Message) == "null" {
			return nil, fmt.Errorf("message entry %s without a message", limit.Quote(b.ID))
		}
		return &MessageEntry{EntryBase: base, Message: decodeMessage(w.Message, reg)}, nil
	case "model_change":
		var w struct {
			Provider string `json:"provider"`
			ModelID  string `json:"modelId"`
		}
		err := json.Unmarshal(line, &w)
		return &ModelChange{EntryBase: base, Provider: w.Provider, ModelID: w.ModelID}, err
	case "thinking_level_change":
		var w struct {
			ThinkingLevel agentcore.ThinkingLevel `json:"thinkingLevel"`
		}
		err := json.Unmarshal(line, &w)
		return &ThinkingLevelChange{EntryBase: base, ThinkingLevel: w.ThinkingLevel}, err
	case "usage":
		var w struct {
			Kind     string          `json:"kind"`
			Provider string          `json:"provider"`
			Model    string          `json:"model"`
			Usage    agentcore.Usage `json:"usage"`
			Note     string          `json:"note"`
		}
		err := json.Unmarshal(line, &w)
		return &UsageEntry{EntryBase: base, Kind: w.Kind, Provider: w.Provider, Model: w.Model, Usage: w.Usage, Note: w.Note}, err
	case "compaction":
		var w struct {
			Summary          string                   `json:"summary"`
			FirstKeptEntryID string                   `json:"firstKeptEntryId"`
			TokensBefore     jsInt                    `json:"tokensBefore"`
			Details          json.RawMessage          `json:"details"`
			Usage            *agentcore.Usage         `json:"usage"`
			FromHook         *bool                    `json:"fromHook"`
			SystemMessage    *agentcore.SystemMessage `json:"systemMessage"`
		}
		err := json.Unmarshal(line, &w)
		return &Compaction{EntryBase: base, Summary: w.Summary, FirstKeptEntryID: w.FirstKeptEntryID,
			TokensBefore: int(w.TokensBefore), Details: rawOrNil(w.Details), Usage: w.Usage, FromHook: w.FromHook,
			SystemMessage: w.SystemMessage}, err
	case "context_edit":
		var w struct {
			TargetID    string          `json:"targetId"`
			Replacement json.RawMessage `json:"replacement"`
		}
		if err := json.Unmarshal(line, &w); err != nil {
			return nil, err
		}
		e := &ContextEdit{EntryBase: base, TargetID: w.TargetID}
		if len(w.Replacement) > 0 && string(w.Replacement) != "null" {
			var r struct {
				Content json.RawMessage `json:"content"`
			}
			if err := json.Unmarshal(w.Replacement, &r); err != nil {
				return nil, err
			}
			content, err := decodeContent(r.Content)
			if err != nil {
				return nil, err
			}
			e.Replacement = &Replacement{Content: content}
		}
		return e, nil
	case "branch_summary":
		var w struct {
			FromID   string           `json:"fromId"`
			Summary  string           `json:"summary"`
			Details  json.RawMessage  `json:"details"`
			Usage    *agentcore.Usage `json:"usage"`
			FromHook *bool            `json:"fromHook"`
		}
		err := json.Unmarshal(line, &w)
		return &BranchSummary{EntryBase: base, FromID: w.FromID, Summary: w.Summary, Details: rawOrNil(w.Details),
			Usage: w.Usage, FromHook: w.FromHook}, err
	case "custom":
		var w struct {
			CustomType string          `json:"customType"`
			Data       json.RawMessage `json:"data"`
		}
		err := json.Unmarshal(line, &w)
		return &CustomEntry{EntryBase: base, CustomType: w.CustomType, Data: rawOrNil(w.Data)}, err
	case "custom_message":
		var w struct {
			CustomType string          `json:"customType"`
			Content    json.RawMessage `json:"content"`
			Display    bool            `json:"display"`
			Details    json.RawMessage `json:"details"`
		}
		if err := json.Unmarshal(line, &w); err != nil {
			return nil, err
		}
		content, err := decodeContent(w.Content)
		return &CustomMessageEntry{EntryBase: base, CustomType: w.CustomType, Content: content, Display: w.Display,
			Details: rawOrNil(w.Details)}, err
	case "label":
		var w struct {
			TargetID string `json:"targetId"`
			Label    string `json:"label"`
		}
		err := json.Unmarshal(line, &w)
		return &Label{EntryBase: base, TargetID: w.TargetID, Label: w.Label}, err
	case "session_info":
		var w struct {
			Name string `json:"name"`
		}
		err := json.Unmarshal(line, &w)
		return &SessionInfo{EntryBase: base, Name: w.Name}, err
	}
	return nil, nil
}

// rawOrNil returns raw as pi holds it, or nil for an absent member (a JSON
// null is kept: it was written).
func rawOrNil(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	return jsRaw(raw)
}

// decodeContent reads a string or a list of text and image blocks; absent
// or null is an empty block list, as pi's readers treat it.
func decodeContent(raw json.RawMessage) (agentcore.Content, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return agentcore.Blocks(), nil
	}
	m, err := agentcore.UnmarshalMessage(append(append([]byte(`{"role":"user","content":`), raw...), '}'))
	if err != nil {
		return agentcore.Content{}, err
	}
	return m.(*agentcore.UserMessage).Content, nil
}
