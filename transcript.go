package agentcore

import (
	"bytes"
	"encoding/json"
	"strings"
)

// CurrentTools replays the tool declarations of the system messages in
// messages, in order: removals by name, then additions (a later addition of a
// name replaces the earlier one in place). The result is in first-declaration
// order and shares the declarations of messages.
func CurrentTools(messages []Message) []ToolDeclaration {
	var tools []ToolDeclaration
	for _, m := range messages {
		sys, ok := m.(*SystemMessage)
		if !ok {
			continue
		}
		tools = applyToolChanges(tools, sys)
	}
	return tools
}

// applyToolChanges applies one system message's tool changes to tools.
func applyToolChanges(tools []ToolDeclaration, sys *SystemMessage) []ToolDeclaration {
	for _, r := range sys.ToolsRemoved {
		for i := range tools {
			if tools[i].Name == r.Name {
				tools = append(tools[:i:i], tools[i+1:]...)
				break
			}
		}
	}
	for _, t := range sys.ToolsAdded {
		replaced := false
		for i := range tools {
			if tools[i].Name == t.Name {
				tools[i] = t
				replaced = true
				break
			}
		}
		if !replaced {
			tools = append(tools, t)
		}
	}
	return tools
}

// CurrentSystemMessage replays every system message of messages into one:
// the content texts joined by blank lines, the sections patched by name in
// order (a removal drops a section; re-adding one puts it last), and the
// current tools. It returns nil when messages hold no system message.
func CurrentSystemMessage(messages []Message) *SystemMessage {
	var (
		parts    []string
		sections Sections
		found    bool
		out      SystemMessage
	)
	for _, m := range messages {
		sys, ok := m.(*SystemMessage)
		if !ok {
			continue
		}
		if !found {
			out.Timestamp = sys.Timestamp
			found = true
		}
		if text := sys.Content.Text(); text != "" {
			parts = append(parts, text)
		}
		for _, sec := range sys.Sections {
			i := sections.index(sec.Name)
			switch {
			case sec.Removed && i >= 0:
				sections = append(sections[:i:i], sections[i+1:]...)
			case sec.Removed:
			case i >= 0:
				sections[i].Text = sec.Text
			default:
				sections = append(sections, Section{Name: sec.Name, Text: sec.Text})
			}
		}
		out.ToolsAdded = applyToolChanges(out.ToolsAdded, sys)
	}
	if !found {
		return nil
	}
	out.Content = Text(strings.Join(parts, "\n\n"))
	if len(sections) > 0 {
		out.Sections = sections
	}
	if len(out.ToolsAdded) == 0 {
		out.ToolsAdded = nil // no tools: no toolsAdded field, as in pi
	}
	return &out
}

// SystemPromptText renders a system message as a prompt: its content text,
// then the text of each section, empty parts skipped, joined by blank lines.
func SystemPromptText(m *SystemMessage) string {
	if m == nil {
		return ""
	}
	parts := make([]string, 0, 1+len(m.Sections))
	if text := m.Content.Text(); text != "" {
		parts = append(parts, text)
	}
	for _, sec := range m.Sections {
		if !sec.Removed && sec.Text != "" {
			parts = append(parts, sec.Text)
		}
	}
	return strings.Join(parts, "\n\n")
}

// CollapseSystemMessages returns messages with the replayed system message
// first and every system message dropped: the transcript for APIs that take
// no system messages after the first.
func CollapseSystemMessages(messages []Message) []Message {
	head := CurrentSystemMessage(messages)
	out := make([]Message, 0, len(messages)+1)
	if head != nil {
		out = append(out, head)
	}
	for _, m := range messages {
		if _, ok := m.(*SystemMessage); !ok {
			out = append(out, m)
		}
	}
	return out
}

// InitialSystemMessage builds the leading system message for a prompt and
// tools, or returns nil when both are empty.
func InitialSystemMessage(prompt string, tools []ToolDeclaration) *SystemMessage {
	if prompt == "" && len(tools) == 0 {
		return nil
	}
	if len(tools) == 0 {
		tools = nil // no toolsAdded field, as in pi
	}
	return &SystemMessage{Content: Text(prompt), ToolsAdded: tools}
}

// toolChanges is the difference between two tool sets.
type toolChanges struct {
	Added   []ToolDeclaration
	Removed []ToolReference
}

// Empty reports whether c changes nothing.
func (c toolChanges) Empty() bool { return len(c.Added) == 0 && len(c.Removed) == 0 }

// diffTools compares two complete tool sets. A tool whose declaration
// changed (compared as JSON) is both removed and added.
func diffTools(previous, current []ToolDeclaration) toolChanges {
	var c toolChanges
	for _, t := range current {
		if p := findDeclaration(previous, t.Name); p == nil || !sameDeclaration(*p, t) {
			c.Added = append(c.Added, t)
		}
	}
	for _, p := range previous {
		if t := findDeclaration(current, p.Name); t == nil || !sameDeclaration(p, *t) {
			c.Removed = append(c.Removed, ToolReference{Name: p.Name})
		}
	}
	return c
}

func findDeclaration(tools []ToolDeclaration, name string) *ToolDeclaration {
	for i := range tools {
		if tools[i].Name == name {
			return &tools[i]
		}
	}
	return nil
}

// sameDeclaration reports whether a and b declare the same interface to the
// model: equal names, descriptions, parameter schemas and constrained
// sampling settings, the JSON compared after compaction.
func sameDeclaration(a, b ToolDeclaration) bool {
	return a.Name == b.Name && a.Description == b.Description &&
		sameJSON(a.Parameters, b.Parameters) && sameJSON(a.ConstrainedSampling, b.ConstrainedSampling)
}

// sameJSON compares two JSON texts byte for byte after compaction.
func sameJSON(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return false
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}
