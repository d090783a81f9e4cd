package agui

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pi-go/agentcore"
)

// The roles of AG-UI messages.
const (
	roleUser      = "user"
	roleAssistant = "assistant"
	roleTool      = "tool"
	roleSystem    = "system"
	roleDeveloper = "developer"
	roleReasoning = "reasoning"
	roleActivity  = "activity"
)

// clientRolePrefix names the [agentcore.CustomMessage] roles that keep a
// client's system and developer messages in a transcript: the model never
// sees them (the server owns the system prompt), and snapshots give them
// back to the client as it sent them.
const clientRolePrefix = "agui."

// wireMessage is an AG-UI message as a client sends it, every role's
// fields together.
type wireMessage struct {
	ID             string          `json:"id"`
	Role           string          `json:"role"`
	Content        json.RawMessage `json:"content"`
	ToolCalls      []wireToolCall  `json:"toolCalls"`
	ToolCallID     string          `json:"toolCallId"`
	Error          *string         `json:"error"`
	EncryptedValue string          `json:"encryptedValue"`

	raw json.RawMessage
}

type wireToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// wirePart is a content part: text, or media from a source.
type wirePart struct {
	Type   string `json:"type"`
	Text   string `json:"text,omitempty"`
	Source *struct {
		Type     string `json:"type"`
		Value    string `json:"value"`
		MimeType string `json:"mimeType,omitempty"`
	} `json:"source,omitempty"`
}

// decode reads one message and checks what its role requires.
func (m *wireMessage) decode(raw json.RawMessage) error {
	if err := json.Unmarshal(raw, m); err != nil {
		return jsonError(err)
	}
	m.raw = raw
	if m.ID == "" {
		return errors.New("id is required")
	}
	switch m.Role {
	case roleUser, roleSystem, roleDeveloper, roleReasoning, roleActivity:
	case roleAssistant:
		for i, c := range m.ToolCalls {
			if c.ID == "" || c.Function.Name == "" {
				return fmt.Errorf("toolCalls[%d]: id and function.name are required", i)
			}
		}
	case roleTool:
		if m.ToolCallID == "" {
			return errors.New("toolCallId is required")
		}
	case "":
		return errors.New("role is required")
	default:
		return fmt.Errorf("unknown role %q", m.Role)
	}
	if m.Role == roleUser || m.Role == roleTool {
		if _, err := decodeContent(m.Content); err != nil {
			return err
		}
	}
	return nil
}

// decodeContent reads a content that is a string or an array of parts;
// only text parts and images carried inline are understood.
func decodeContent(raw json.RawMessage) ([]agentcore.ContentBlock, error) {
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return []agentcore.ContentBlock{agentcore.TextBlock{Text: text}}, nil
	}
	var parts []wirePart
	if err := json.Unmarshal(raw, &parts); err != nil {
		return nil, errors.New("content: want a string or an array of content parts")
	}
	blocks := make([]agentcore.ContentBlock, 0, len(parts))
	for i, p := range parts {
		switch {
		case p.Type == "text":
			blocks = append(blocks, agentcore.TextBlock{Text: p.Text})
		case p.Type == "image" && p.Source != nil && p.Source.Type == "data" && p.Source.MimeType != "":
			blocks = append(blocks, agentcore.ImageBlock{Data: p.Source.Value, MimeType: p.Source.MimeType})
		default:
			return nil, fmt.Errorf("content[%d]: parts of type %q are not supported (text, and images carried inline as data, are)", i, p.Type)
		}
	}
	return blocks, nil
}

// coreMessages converts a client's history, for a thread the handler does
// not hold, into a transcript: reasoning messages become thinking blocks
// of the assistant message that follows, activity messages are dropped.
// ids receives each message's AG-UI ID, rids the IDs of the reasoning
// messages that became thinking blocks.
func coreMessages(msgs []wireMessage, ids map[agentcore.Message]string, rids map[blockKey]string) ([]agentcore.Message, error) {
	var out []agentcore.Message
	var thinking []agentcore.ContentBlock
	var thinkingIDs []string
	names := map[string]string{} // tool call ID -> tool name
	for i, m := range msgs {
		var msg agentcore.Message
		switch m.Role {
		case roleReasoning:
			var text string
			_ = json.Unmarshal(m.Content, &text)
			thinking = append(thinking, agentcore.ThinkingBlock{Thinking: text, ThinkingSignature: m.EncryptedValue})
			thinkingIDs = append(thinkingIDs, m.ID)
			continue
		case roleActivity:
			continue
		case roleAssistant:
			a := assistantMessage(m, thinking)
			for i, id := range thinkingIDs {
				rids[blockKey{a, i}] = id
			}
			thinking, thinkingIDs = nil, nil
			for _, c := range m.ToolCalls {
				names[c.ID] = c.Function.Name
			}
			msg = a
		default:
			var err error
			if msg, err = clientMessage(m, names[m.ToolCallID]); err != nil {
				return nil, fmt.Errorf("messages[%d]: %w", i, err)
			}
		}
		ids[msg] = m.ID
		out = append(out, msg)
	}
	return out, nil
}

// clientMessage converts a message a client writes: user, tool, system or
// developer. toolName is the name of the call a tool message answers.
func clientMessage(m wireMessage, toolName string) (agentcore.Message, error) {
	switch m.Role {
	case roleUser:
		blocks, err := decodeContent(m.Content)
		if err != nil {
			return nil, err
		}
		return &agentcore.UserMessage{Content: agentcore.Blocks(blocks...), Timestamp: now()}, nil
	case roleTool:
		blocks, err := decodeContent(m.Content)
		if err != nil {
			return nil, err
		}
		if m.Error != nil && *m.Error != "" && agentcore.Blocks(blocks...).Text() == "" {
			blocks = []agentcore.ContentBlock{agentcore.TextBlock{Text: *m.Error}}
		}
		return &agentcore.ToolResultMessage{ToolCallID: m.ToolCallID, ToolName: toolName, Content: blocks, IsError: m.Error != nil, Timestamp: now()}, nil
	case roleSystem, roleDeveloper:
		return &agentcore.CustomMessage{RoleName: clientRolePrefix + m.Role, Raw: m.raw}, nil
	}
	return nil, fmt.Errorf("a client cannot add %s messages to a thread the server holds", m.Role)
}

// assistantMessage converts an assistant message of a client's history,
// with the thinking of the reasoning messages before it.
func assistantMessage(m wireMessage, thinking []agentcore.ContentBlock) *agentcore.AssistantMessage {
	content := thinking
	var text string
	if json.Unmarshal(m.Content, &text) == nil && text != "" {
		content = append(content, agentcore.TextBlock{Text: text})
	}
	stop := agentcore.StopStop
	for _, c := range m.ToolCalls {
		args := json.RawMessage(c.Function.Arguments)
		if !json.Valid(args) {
			args = json.RawMessage("{}")
		}
		content = append(content, agentcore.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: args})
		stop = agentcore.StopToolUse
	}
	if content == nil {
		content = []agentcore.ContentBlock{}
	}
	return &agentcore.AssistantMessage{Content: content, StopReason: stop, Timestamp: now()}
}

// outMessage is an AG-UI message as the handler sends it in a snapshot.
type outMessage struct {
	ID             string          `json:"id"`
	Role           string          `json:"role"`
	Content        json.RawMessage `json:"content,omitempty"`
	ToolCalls      []outToolCall   `json:"toolCalls,omitempty"`
	ToolCallID     string          `json:"toolCallId,omitempty"`
	Error          string          `json:"error,omitempty"`
	EncryptedValue string          `json:"encryptedValue,omitempty"`
}

type outToolCall struct {
	ID       string      `json:"id"`
	Type     string      `json:"type"`
	Function outFunction `json:"function"`
}

type outFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// blockKey names content block i of a transcript message.
type blockKey struct {
	m agentcore.Message
	i int
}

// reasoningID is the ID the handler gives the reasoning message of an
// assistant message's thinking block i, in events and snapshots alike.
func reasoningID(assistantID string, i int) string {
	return fmt.Sprintf("%s-reasoning-%d", assistantID, i)
}

// wireMessages converts a transcript message with AG-UI ID id into the
// AG-UI messages that show it: none for a system message, the reasoning
// messages and then the message for an assistant message. rid names the
// reasoning message of thinking block i; nil means [reasoningID].
func wireMessages(m agentcore.Message, id string, rid func(i int) string) []any {
	switch m := m.(type) {
	case *agentcore.UserMessage:
		return []any{outMessage{ID: id, Role: roleUser, Content: contentJSON(m.Content.Blocks)}}
	case *agentcore.AssistantMessage:
		if rid == nil {
			rid = func(i int) string { return reasoningID(id, i) }
		}
		return assistantWire(m, id, rid)
	case *agentcore.ToolResultMessage:
		out := outMessage{ID: id, Role: roleTool, ToolCallID: m.ToolCallID, Content: contentJSON(m.Content)}
		if m.IsError {
			out.Error = agentcore.Blocks(m.Content...).Text()
			if out.Error == "" {
				out.Error = "error"
			}
		}
		return []any{out}
	case *agentcore.CustomMessage:
		if strings.HasPrefix(m.RoleName, clientRolePrefix) {
			return []any{m.Raw}
		}
	}
	return nil
}

// assistantWire is [wireMessages] for an assistant message.
func assistantWire(m *agentcore.AssistantMessage, id string, rid func(int) string) []any {
	var out []any
	msg := outMessage{ID: id, Role: roleAssistant}
	var text strings.Builder
	for i, b := range m.Content {
		switch b := b.(type) {
		case agentcore.ThinkingBlock:
			r := outMessage{ID: rid(i), Role: roleReasoning, Content: stringJSON(""), EncryptedValue: b.ThinkingSignature}
			if !b.Redacted {
				r.Content = stringJSON(b.Thinking)
			} else if r.EncryptedValue == "" {
				r.EncryptedValue = b.Thinking
			}
			out = append(out, r)
		case agentcore.TextBlock:
			text.WriteString(b.Text)
		case agentcore.ToolCall:
			msg.ToolCalls = append(msg.ToolCalls, outToolCall{ID: b.ID, Type: "function", Function: outFunction{Name: b.Name, Arguments: string(argsOrEmpty(b.Arguments))}})
		}
	}
	if text.Len() > 0 {
		msg.Content = stringJSON(text.String())
	}
	return append(out, msg)
}

// contentJSON writes blocks as an AG-UI content: a string when they are
// text only, else an array of text and image parts.
func contentJSON(blocks []agentcore.ContentBlock) json.RawMessage {
	textOnly := true
	for _, b := range blocks {
		if _, ok := b.(agentcore.TextBlock); !ok {
			textOnly = false
		}
	}
	if textOnly {
		return stringJSON(agentcore.Blocks(blocks...).Text())
	}
	parts := make([]any, 0, len(blocks))
	for _, b := range blocks {
		switch b := b.(type) {
		case agentcore.TextBlock:
			parts = append(parts, struct {
				Type string `json:"type"`
				Text string `json:"text"`
			}{"text", b.Text})
		case agentcore.ImageBlock:
			type source struct {
				Type     string `json:"type"`
				Value    string `json:"value"`
				MimeType string `json:"mimeType"`
			}
			parts = append(parts, struct {
				Type   string `json:"type"`
				Source source `json:"source"`
			}{"image", source{"data", b.Data, b.MimeType}})
		}
	}
	data, _ := json.Marshal(parts)
	return data
}

// stringJSON is s as a JSON string.
func stringJSON(s string) json.RawMessage {
	data, _ := json.Marshal(s)
	return data
}

// argsOrEmpty is a tool call's arguments, or {} when it has none.
func argsOrEmpty(args json.RawMessage) json.RawMessage {
	if len(args) == 0 {
		return json.RawMessage("{}")
	}
	return args
}

// now is the time in Unix milliseconds, the transcript's timestamps.
func now() int64 { return time.Now().UnixMilli() }
