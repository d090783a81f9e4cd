package compaction

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/jsvalue"
)

// Role is the role of a [Summary] message in a transcript's JSON, the
// role pi's coding agent gives its compaction summaries.
const Role = "compactionSummary"

// Summary is the message a compaction puts at the head of the transcript,
// after the system message and before the kept messages: pi's
// compactionSummary message. The model sees it as a user message (see
// [ConvertMessages]); a transcript holding it round-trips through JSON
// once the role is registered ([Register]).
//
// Its JSON is pi's message, {"role":"compactionSummary","summary":...,
// "tokensBefore":...,"timestamp":...}, plus two optional members pi keeps
// on its compaction entry instead, which pi's readers ignore: "details"
// with the files read and modified so far (carried into the next
// compaction) and "usage", what the summary calls cost.
type Summary struct {
	// Summary is the summary text, the file lists appended.
	Summary string
	// TokensBefore is the estimated context size the compaction replaced.
	TokensBefore int
	// Timestamp is when the compaction finished, in Unix milliseconds.
	Timestamp int64
	// ReadFiles are the files read and not modified, sorted, over every
	// compaction of the transcript so far.
	ReadFiles []string
	// ModifiedFiles are the files written or edited, sorted, likewise.
	ModifiedFiles []string
	// Usage is the usage of the summary calls; nil when unknown.
	Usage *agentcore.Usage
	// OmitDetails leaves "details" out of the JSON whatever the file
	// lists: their holder keeps them elsewhere (a session's compaction
	// entry), and the message is then pi's context message exactly. The
	// lists still feed the next compaction.
	OmitDetails bool
}

// Role returns [Role].
func (*Summary) Role() string { return Role }

// summaryDetails is the "details" member of a Summary's JSON.
type summaryDetails struct {
	ReadFiles     []string `json:"readFiles"`
	ModifiedFiles []string `json:"modifiedFiles"`
}

// summaryWire is a Summary on the wire, in pi's field order.
type summaryWire struct {
	Role         string           `json:"role"`
	Summary      string           `json:"summary"`
	TokensBefore int              `json:"tokensBefore"`
	Timestamp    int64            `json:"timestamp"`
	Details      *summaryDetails  `json:"details,omitempty"`
	Usage        *agentcore.Usage `json:"usage,omitempty"`
}

// MarshalJSON writes the message with "role":"compactionSummary"; details
// are written when a file list is not empty, unless OmitDetails is set.
func (s *Summary) MarshalJSON() ([]byte, error) {
	w := summaryWire{Role: Role, Summary: s.Summary, TokensBefore: s.TokensBefore, Timestamp: s.Timestamp, Usage: s.Usage}
	if !s.OmitDetails && (len(s.ReadFiles) > 0 || len(s.ModifiedFiles) > 0) {
		w.Details = &summaryDetails{ReadFiles: nonNil(s.ReadFiles), ModifiedFiles: nonNil(s.ModifiedFiles)}
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads a summary message; a role other than
// "compactionSummary" is an error.
func (s *Summary) UnmarshalJSON(data []byte) error {
	// The numbers are read as JavaScript wrote them, any JSON number: a
	// fraction is truncated, a value beyond int64 saturates.
	var w struct {
		summaryWire
		TokensBefore jsvalue.Int `json:"tokensBefore"`
		Timestamp    jsvalue.Int `json:"timestamp"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("compaction: summary message: %w", err)
	}
	if w.Role != Role {
		return fmt.Errorf("compaction: summary message with role %q", w.Role)
	}
	*s = Summary{Summary: w.Summary, TokensBefore: int(w.TokensBefore), Timestamp: int64(w.Timestamp), Usage: w.Usage}
	if w.Details != nil {
		s.ReadFiles = orNil(w.Details.ReadFiles)
		s.ModifiedFiles = orNil(w.Details.ModifiedFiles)
	}
	return nil
}

// orNil is s clipped, or nil when empty.
func orNil(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return slices.Clip(s)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Register makes r decode "compactionSummary" messages as [*Summary]. Call
// it before decoding a transcript a compaction may have written; without
// it, a summary decodes as an [*agentcore.CustomMessage], which this
// package still recognizes.
func Register(r *agentcore.MessageRegistry) {
	r.Register(Role, func(data []byte) (agentcore.Message, error) {
		s := new(Summary)
		if err := s.UnmarshalJSON(data); err != nil {
			return nil, err
		}
		return s, nil
	})
}

// AsSummary returns m as a summary: m itself when it is a [*Summary], the
// decoded message when it is an [*agentcore.CustomMessage] of role
// "compactionSummary" (a transcript decoded without [Register]), else
// nil and false.
func AsSummary(m agentcore.Message) (*Summary, bool) {
	switch m := m.(type) {
	case *Summary:
		return m, m != nil
	case *agentcore.CustomMessage:
		if m == nil || m.RoleName != Role {
			return nil, false
		}
		s := new(Summary)
		if s.UnmarshalJSON(m.Raw) != nil {
			return nil, false
		}
		return s, true
	}
	return nil, false
}

// The text around a summary in the user message the model sees.
const (
	summaryPrefix = "Earlier turns of this conversation were condensed into the summary below to save context. Treat it as what happened so far:\n\n<summary>\n"
	summarySuffix = "\n</summary>"
)

// UserMessage is s as the model sees it, as pi maps its compaction
// summaries: a user message of one text block holding the summary between
// <summary> tags after a line saying what it is, with s's timestamp.
func (s *Summary) UserMessage() *agentcore.UserMessage {
	return &agentcore.UserMessage{
		Content:   agentcore.Blocks(agentcore.TextBlock{Text: summaryPrefix + s.Summary + summarySuffix}),
		Timestamp: s.Timestamp,
	}
}

// ConvertMessages returns messages with every summary (see [AsSummary])
// replaced by its [Summary.UserMessage] and every other message kept. It
// returns messages itself when they hold no summary. Use it at the start
// of an [agentcore.Hooks.ConvertToLLM] hook; the [Compactor] of this
// package installs it.
func ConvertMessages(messages []agentcore.Message) []agentcore.Message {
	var out []agentcore.Message
	for i, m := range messages {
		s, ok := AsSummary(m)
		if !ok {
			if out != nil {
				out = append(out, m)
			}
			continue
		}
		if out == nil {
			out = make([]agentcore.Message, i, len(messages))
			copy(out, messages[:i])
		}
		out = append(out, s.UserMessage())
	}
	if out == nil {
		return messages
	}
	return out
}
