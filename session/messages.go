package session

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/compaction"
	"github.com/pi-go/agentcore/internal/jsonv"
	"github.com/pi-go/agentcore/internal/jsvalue"
)

// The roles of the messages a session's context holds besides the
// standard ones, as pi names them.
const (
	RoleBranchSummary = "branchSummary"
	RoleCustom        = "custom"
)

// BranchSummaryMessage is a [BranchSummary] entry as its context holds
// it. The model sees it as a user message ([ConvertMessages]).
type BranchSummaryMessage struct {
	Summary string
	// FromID is the leaf of the branch the summary is of.
	FromID    string
	Timestamp int64
}

// Role returns [RoleBranchSummary].
func (*BranchSummaryMessage) Role() string { return RoleBranchSummary }

// MarshalJSON writes the message as pi does.
func (m *BranchSummaryMessage) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Role      string `json:"role"`
		Summary   string `json:"summary"`
		FromID    string `json:"fromId"`
		Timestamp int64  `json:"timestamp"`
	}{RoleBranchSummary, m.Summary, m.FromID, m.Timestamp})
}

// CustomMessage is a [CustomMessageEntry] as its context holds it, pi's
// custom message. The model sees it as a user message ([ConvertMessages]).
type CustomMessage struct {
	CustomType string
	Content    agentcore.Content
	Display    bool
	// Details is extension data the model never sees, raw; nil for none.
	Details   json.RawMessage
	Timestamp int64
}

// Role returns [RoleCustom].
func (*CustomMessage) Role() string { return RoleCustom }

// MarshalJSON writes the message as pi does.
func (m *CustomMessage) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Role       string            `json:"role"`
		CustomType string            `json:"customType"`
		Content    agentcore.Content `json:"content"`
		Display    bool              `json:"display"`
		Details    json.RawMessage   `json:"details,omitempty"`
		Timestamp  int64             `json:"timestamp"`
	}{RoleCustom, m.CustomType, m.Content, m.Display, m.Details, m.Timestamp})
}

// Register makes r decode the roles of a session's context: pi's
// "branchSummary" and "custom" messages as [*BranchSummaryMessage] and
// [*CustomMessage], and compaction summaries ([compaction.Register]).
func Register(r *agentcore.MessageRegistry) {
	compaction.Register(r)
	r.Register(RoleBranchSummary, func(data []byte) (agentcore.Message, error) {
		var w struct {
			Summary   string `json:"summary"`
			FromID    string `json:"fromId"`
			Timestamp jsInt  `json:"timestamp"`
		}
		if err := json.Unmarshal(data, &w); err != nil {
			return nil, err
		}
		return &BranchSummaryMessage{Summary: w.Summary, FromID: w.FromID, Timestamp: int64(w.Timestamp)}, nil
	})
	r.Register(RoleCustom, func(data []byte) (agentcore.Message, error) {
		var w struct {
			CustomType string          `json:"customType"`
			Content    json.RawMessage `json:"content"`
			Display    bool            `json:"display"`
			Details    json.RawMessage `json:"details"`
			Timestamp  jsInt           `json:"timestamp"`
		}
		if err := json.Unmarshal(data, &w); err != nil {
			return nil, err
		}
		content, err := decodeContent(w.Content)
		if err != nil {
			return nil, fmt.Errorf("custom message: %w", err)
		}
		return &CustomMessage{CustomType: w.CustomType, Content: content, Display: w.Display,
			Details: rawOrNil(w.Details), Timestamp: int64(w.Timestamp)}, nil
	})
}

// contextRegistry decodes the app-defined roles of a context.
var contextRegistry = func() *agentcore.MessageRegistry {
	r := &agentcore.MessageRegistry{}
	Register(r)
	return r
}()

// The text around a branch summary in the user message the model sees.
const (
	branchPrefix = "The conversation returned here from another branch, summarized below; treat it as work already explored:\n\n<summary>\n"
	branchSuffix = "\n</summary>"
)

// UserMessage is m as the model sees it: a user message of one text
// block holding the summary in <summary> tags.
func (m *BranchSummaryMessage) UserMessage() *agentcore.UserMessage {
	return &agentcore.UserMessage{
		Content:   agentcore.Blocks(agentcore.TextBlock{Text: branchPrefix + m.Summary + branchSuffix}),
		Timestamp: m.Timestamp,
	}
}

// UserMessage is m as the model sees it: a user message of its content,
// a string made one text block.
func (m *CustomMessage) UserMessage() *agentcore.UserMessage {
	content := m.Content
	if content.Plain {
		content = agentcore.Blocks(agentcore.TextBlock{Text: content.Text()})
	}
	return &agentcore.UserMessage{Content: content, Timestamp: m.Timestamp}
}

// RoleBashExecution is the role of pi's bashExecution message: a command
// the user ran from the prompt, and its output.
const RoleBashExecution = "bashExecution"

// bashExecution is the part of a bashExecution message the model sees.
type bashExecution struct {
	Command            string          `json:"command"`
	Output             string          `json:"output"`
	ExitCode           *float64        `json:"exitCode"`
	Cancelled          json.RawMessage `json:"cancelled"`
	Truncated          json.RawMessage `json:"truncated"`
	FullOutputPath     string          `json:"fullOutputPath"`
	ExcludeFromContext json.RawMessage `json:"excludeFromContext"`
	Timestamp          json.RawMessage `json:"timestamp"`
}

// bashUserMessage is a bashExecution message as the model sees it, as pi
// converts it: a user message of one text block giving the command, its
// output (or that there was none), and whether it was cancelled, failed
// or cut; nil for one excluded from the context. The words are this
// package's own.
func bashUserMessage(raw json.RawMessage) (*agentcore.UserMessage, error) {
	var b bashExecution
	if err := json.Unmarshal(raw, &b); err != nil {
		return nil, err
	}
	if jsvalue.Truthy(b.ExcludeFromContext) {
		return nil, nil
	}
	var text strings.Builder
	fmt.Fprintf(&text, "The user ran `%s`\n", b.Command)
	if b.Output != "" {
		fmt.Fprintf(&text, "```\n%s\n```", b.Output)
	} else {
		text.WriteString("(it printed nothing)")
	}
	switch {
	case jsvalue.Truthy(b.Cancelled):
		text.WriteString("\n\n(the command was cancelled)")
	case b.ExitCode != nil && *b.ExitCode != 0:
		fmt.Fprintf(&text, "\n\nThe command failed with exit code %s", jsonv.FormatNumber(*b.ExitCode))
	}
	if jsvalue.Truthy(b.Truncated) && b.FullOutputPath != "" {
		fmt.Fprintf(&text, "\n\n[The output was cut; all of it is in %s]", b.FullOutputPath)
	}
	var ts jsInt
	if len(b.Timestamp) > 0 {
		_ = ts.UnmarshalJSON(b.Timestamp)
	}
	return &agentcore.UserMessage{Content: agentcore.Blocks(agentcore.TextBlock{Text: text.String()}), Timestamp: int64(ts)}, nil
}

// ConvertMessages returns messages as the model sees them, as pi's
// coding agent converts a context (its convertToLlm): branch summaries,
// custom messages and bashExecution messages become user messages
// ([BranchSummaryMessage.UserMessage], [CustomMessage.UserMessage]; a
// bashExecution message excluded from the context is left out),
// compaction summaries too ([compaction.ConvertMessages]); the same roles
// decoded as [*agentcore.CustomMessage] are recognized. Other messages
// are kept: the standard roles for the model, other roles for the
// converters after this one (agentcore's default leaves them out, as pi
// does). Use it in an [agentcore.Hooks.ConvertToLLM] hook; [Restore]
// installs it.
//
// The words around a branch or compaction summary and around a command's
// output are this package's own, not pi's: the model reads the same
// facts in other words.
func ConvertMessages(messages []agentcore.Message) []agentcore.Message {
	out := make([]agentcore.Message, 0, len(messages))
	for _, m := range messages {
		if cm, ok := m.(*agentcore.CustomMessage); ok && cm.RoleName == RoleBashExecution {
			if u, err := bashUserMessage(cm.Raw); err == nil {
				if u != nil {
					out = append(out, u)
				}
				continue
			}
		}
		if cm, ok := m.(*agentcore.CustomMessage); ok && (cm.RoleName == RoleBranchSummary || cm.RoleName == RoleCustom) {
			if decoded, err := contextRegistry.UnmarshalMessage(cm.Raw); err == nil {
				m = decoded
			}
		}
		switch m := m.(type) {
		case *BranchSummaryMessage:
			out = append(out, m.UserMessage())
		case *CustomMessage:
			out = append(out, m.UserMessage())
		default:
			out = append(out, m)
		}
	}
	return compaction.ConvertMessages(out)
}
