package session

import (
	"encoding/json"
	"fmt"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/limit"
)

// The entries marshal with their fields in the order pi writes them, so a
// file written here reads like one pi wrote.

// nullable is s as a JSON string, or null when empty.
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

// MarshalJSON writes the entry as it was read, its tree fields updated
// when they changed (a migration gives legacy entries their IDs).
func (e *UnknownEntry) MarshalJSON() ([]byte, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(e.Raw, &fields); err != nil {
		return nil, fmt.Errorf("session: %s entry: %w", e.TypeName, err)
	}
	var base wireBase
	if err := json.Unmarshal(e.Raw, &base); err == nil && base.ID == e.ID && base.parent() == e.ParentID {
		return e.Raw, nil
	}
	// Keys are written sorted: the original order is not kept once the
	// tree fields change.
	fields["id"], _ = json.Marshal(e.ID)
	fields["parentId"], _ = json.Marshal(nullable(e.ParentID))
	return json.Marshal(fields)
}

// wireBase is the part of every entry line this package reads first.
type wireBase struct {
	Type      string  `json:"type"`
	ID        string  `json:"id"`
	ParentID  *string `json:"parentId"`
	Timestamp string  `json:"timestamp"`
}

func (b wireBase) parent() string {
	if b.ParentID == nil {
		return ""
	}
	return *b.ParentID
}

func (b wireBase) entryBase() EntryBase {
	return EntryBase{ID: b.ID, ParentID: b.parent(), Timestamp: b.Timestamp}
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

// decodeEntry decodes one entry line (not the header) of a version 3 file,
// or of an older one before its migration.
func decodeEntry(line []byte, reg *agentcore.MessageRegistry) (Entry, error) {
	var b wireBase
	if err := json.Unmarshal(line, &b); err != nil {
		return nil, err
	}
	base := b.entryBase()
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
		m, err := reg.UnmarshalMessage(w.Message)
		if err != nil {
			return nil, err
		}
		return &MessageEntry{EntryBase: base, Message: m}, nil
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
			TokensBefore     int                      `json:"tokensBefore"`
			Details          json.RawMessage          `json:"details"`
			Usage            *agentcore.Usage         `json:"usage"`
			FromHook         *bool                    `json:"fromHook"`
			SystemMessage    *agentcore.SystemMessage `json:"systemMessage"`
			// FirstKeptEntryIndex is version 1's reference, by line.
			FirstKeptEntryIndex *int `json:"firstKeptEntryIndex"`
		}
		if err := json.Unmarshal(line, &w); err != nil {
			return nil, err
		}
		c := &Compaction{EntryBase: base, Summary: w.Summary, FirstKeptEntryID: w.FirstKeptEntryID,
			TokensBefore: w.TokensBefore, Details: rawOrNil(w.Details), Usage: w.Usage, FromHook: w.FromHook,
			SystemMessage: w.SystemMessage}
		if w.FirstKeptEntryIndex != nil {
			return &legacyCompaction{Compaction: c, index: *w.FirstKeptEntryIndex}, nil
		}
		return c, nil
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
	case "":
		return nil, fmt.Errorf("entry without a type")
	}
	return &UnknownEntry{EntryBase: base, TypeName: b.Type, Raw: append(json.RawMessage(nil), line...)}, nil
}

// rawOrNil returns raw, or nil for an absent member (a JSON null is kept:
// it was written).
func rawOrNil(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	return raw
}

// legacyCompaction is a version 1 compaction that refers to its first kept
// entry by line index; the migration resolves it.
type legacyCompaction struct {
	*Compaction
	index int
}
