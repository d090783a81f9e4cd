package agentcore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/pi-go/agentcore/internal/jsonscan"
)

// Message is one entry of a transcript. The built-in messages are
// [*SystemMessage], [*UserMessage], [*AssistantMessage] and
// [*ToolResultMessage], the four roles a model understands. Any other type
// implementing Message is an app-defined message (pi's custom agent
// messages): it lives in the transcript and in events, and a
// [Hooks.ConvertToLLM] hook decides what the model sees of it. Its JSON must
// carry its role in a "role" field so that a [MessageRegistry] can decode it.
// A role nobody registered decodes to a [*CustomMessage] that keeps every field.
//
// Messages are shared, not copied, between the loop, events and the
// [Agent]'s transcript: treat a message as immutable once it has been emitted.
type Message interface {
	// Role is the message's role as written in its JSON "role" field.
	Role() string
}

// ErrNilMessage is reported for a nil [Message] (or a nil pointer of a
// message type) where a message is taken:
// a prompt of [Agent.PromptMessages] or [RunLoop] (a refusal: the run does
// not start), or a message a hook or a queue poll returned (the run fails
// with it). [Agent.Steer], [Agent.FollowUp] and [Agent.AppendMessage]
// ignore a nil; [New] and [Agent.SetMessages] drop them.
var ErrNilMessage = errors.New("agentcore: nil message")

// isNilMessage reports whether m is nil, or a nil pointer (map, slice,
// func) of a message type: a message that carries nothing.
func isNilMessage(m Message) bool {
	if m == nil {
		return true
	}
	switch v := reflect.ValueOf(m); v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface:
		return v.IsNil()
	}
	return false
}

// checkMessages returns an error wrapping [ErrNilMessage] that names the
// first nil of msgs, what they are, or nil when there is none.
func checkMessages(what string, msgs []Message) error {
	if i := slices.IndexFunc(msgs, isNilMessage); i >= 0 {
		return fmt.Errorf("%w: %s %d of %d", ErrNilMessage, what, i, len(msgs))
	}
	return nil
}

// withoutNil returns a copy of msgs without its nil messages.
func withoutNil(msgs []Message) []Message {
	return slices.DeleteFunc(slices.Clone(msgs), isNilMessage)
}

// isSystem reports whether m is a system message, without calling a
// method of an app-defined message.
func isSystem(m Message) bool {
	_, ok := m.(*SystemMessage)
	return ok
}

// builtin is the marker of the four standard roles.
type builtin interface {
	Message
	builtinMessage()
}

// IsStandard reports whether m is one of the four built-in messages a model
// understands.
func IsStandard(m Message) bool {
	_, ok := m.(builtin)
	return ok
}

// SystemMessage carries the system prompt and the tools the model may call.
// The leading system message of a transcript is the base prompt; later ones
// append Content, patch Sections by name, and add or remove tools by name
// (see [CurrentSystemMessage]).
type SystemMessage struct {
	Content Content `json:"content"`
	// Sections, ToolsAdded and ToolsRemoved are left out of the JSON when
	// nil; empty but not nil they are written as {} and [] (a decoded
	// message keeps them as it read them).
	Sections     Sections          `json:"sections,omitzero"`
	ToolsAdded   []ToolDeclaration `json:"toolsAdded,omitzero"`
	ToolsRemoved []ToolReference   `json:"toolsRemoved,omitzero"`
	Timestamp    int64             `json:"timestamp"`
}

// UserMessage is user input: text and images.
type UserMessage struct {
	Content   Content `json:"content"`
	Timestamp int64   `json:"timestamp"`
}

// AssistantMessage is a model response.
type AssistantMessage struct {
	Content  []ContentBlock `json:"content"`
	API      string         `json:"api"`
	Provider string         `json:"provider"`
	Model    string         `json:"model"`
	// ResponseModel is the model the provider says answered, when it differs.
	ResponseModel string `json:"responseModel,omitempty"`
	// ResponseID is the provider's response ID.
	ResponseID string `json:"responseId,omitempty"`
	// ProviderThinkingLevel is the provider's own name for the level used.
	ProviderThinkingLevel string `json:"providerThinkingLevel,omitempty"`
	// ThinkingLevel is the level the request asked for; the loop sets it on
	// every final message, whatever the stream function wrote.
	ThinkingLevel ThinkingLevel `json:"thinkingLevel,omitempty"`
	// Diagnostics are provider diagnostics, raw.
	Diagnostics json.RawMessage `json:"diagnostics,omitempty"`
	Usage       Usage           `json:"usage"`
	StopReason  StopReason      `json:"stopReason"`
	// Deferred is the handle of a deferred (batch) response, raw.
	Deferred json.RawMessage `json:"deferred,omitempty"`
	// ErrorMessage says why, when StopReason is error or aborted.
	ErrorMessage string `json:"errorMessage,omitempty"`
	// RawStopReason is the provider's own stop reason.
	RawStopReason string `json:"rawStopReason,omitempty"`
	// EndTurn is the provider's end-of-turn flag, when it sends one.
	EndTurn   *bool `json:"endTurn,omitempty"`
	Timestamp int64 `json:"timestamp"`
	// DurationMs is how long the response took, from a monotonic clock; nil
	// when not measured.
	DurationMs *int64 `json:"durationMs,omitempty"`

	// Err is, for a failed response, the Go error behind ErrorMessage when
	// the stream function knows it: a [*ProviderError] from this module's
	// providers. It is never on the wire: a transcript read from JSON has
	// none.
	Err error `json:"-"`

	stated statedZeros // optional string fields decoded as ""
}

// The optional string fields of AssistantMessage, in its statedZeros.
const (
	statedResponseModel statedZeros = 1 << iota
	statedResponseID
	statedProviderThinkingLevel
	statedThinkingLevel
	statedErrorMessage
	statedRawStopReason
)

// assistantWire is an AssistantMessage on the wire with its optional string
// fields as pointers (nil is left out), for a message that states some of
// them as "".
type assistantWire struct {
	Content               []ContentBlock  `json:"content"`
	API                   string          `json:"api"`
	Provider              string          `json:"provider"`
	Model                 string          `json:"model"`
	ResponseModel         *string         `json:"responseModel,omitempty"`
	ResponseID            *string         `json:"responseId,omitempty"`
	ProviderThinkingLevel *string         `json:"providerThinkingLevel,omitempty"`
	ThinkingLevel         *ThinkingLevel  `json:"thinkingLevel,omitempty"`
	Diagnostics           json.RawMessage `json:"diagnostics,omitempty"`
	Usage                 Usage           `json:"usage"`
	StopReason            StopReason      `json:"stopReason"`
	Deferred              json.RawMessage `json:"deferred,omitempty"`
	ErrorMessage          *string         `json:"errorMessage,omitempty"`
	RawStopReason         *string         `json:"rawStopReason,omitempty"`
	EndTurn               *bool           `json:"endTurn,omitempty"`
	Timestamp             int64           `json:"timestamp"`
	DurationMs            *int64          `json:"durationMs,omitempty"`
}

// ToolResultMessage is the result of one tool call, as the model sees it.
type ToolResultMessage struct {
	ToolCallID string `json:"toolCallId"`
	ToolName   string `json:"toolName"`
	// Content holds text and image blocks.
	Content []ContentBlock `json:"content"`
	// Details is structured data for logs and UIs; the model never sees it.
	// It holds the tool's own value in a live run and a json.RawMessage in a
	// decoded transcript; nil is omitted.
	Details any    `json:"details,omitempty"`
	Usage   *Usage `json:"usage,omitempty"`
	// NestedCalls records tool calls made inside this one (pi's codemode),
	// raw; this package keeps it but never sets it.
	NestedCalls json.RawMessage `json:"nestedCalls,omitempty"`
	IsError     bool            `json:"isError"`
	Timestamp   int64           `json:"timestamp"`
	// DurationMs is how long Execute took; nil when the tool did not run.
	DurationMs *int64 `json:"durationMs,omitempty"`
}

// CustomMessage is an app-defined message whose role no [MessageRegistry]
// knows. It keeps its JSON object as read, so it round-trips unchanged.
type CustomMessage struct {
	// RoleName is the "role" field.
	RoleName string
	// Raw is the message's whole JSON object. It must not be modified.
	Raw json.RawMessage
}

// ToolDeclaration is a tool as the model sees it.
type ToolDeclaration struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	// ConstrainedSampling is pi-ai's constrained sampling setting, raw.
	ConstrainedSampling json.RawMessage `json:"constrainedSampling,omitempty"`
}

// ToolReference names a tool, in [SystemMessage.ToolsRemoved].
type ToolReference struct {
	Name string `json:"name"`
}

// Role returns "system".
func (*SystemMessage) Role() string { return "system" }

// Role returns "user".
func (*UserMessage) Role() string { return "user" }

// Role returns "assistant".
func (*AssistantMessage) Role() string { return "assistant" }

// Role returns "toolResult".
func (*ToolResultMessage) Role() string { return "toolResult" }

// Role returns the message's "role" field.
func (m *CustomMessage) Role() string { return m.RoleName }

func (*SystemMessage) builtinMessage()     {}
func (*UserMessage) builtinMessage()       {}
func (*AssistantMessage) builtinMessage()  {}
func (*ToolResultMessage) builtinMessage() {}

// Field returns the raw JSON of the message's field key, or nil.
func (m *CustomMessage) Field(key string) json.RawMessage {
	var fields map[string]json.RawMessage
	if json.Unmarshal(m.Raw, &fields) != nil {
		return nil
	}
	return fields[key]
}

// MarshalJSON writes the message with "role":"system".
func (m *SystemMessage) MarshalJSON() ([]byte, error) {
	type plain SystemMessage
	return marshalTagged("role", "system", (*plain)(m))
}

// MarshalJSON writes the message with "role":"user".
func (m *UserMessage) MarshalJSON() ([]byte, error) {
	type plain UserMessage
	return marshalTagged("role", "user", (*plain)(m))
}

// MarshalJSON writes the message with "role":"assistant".
func (m *AssistantMessage) MarshalJSON() ([]byte, error) {
	content := m.Content
	if content == nil {
		content = []ContentBlock{}
	}
	if m.stated == 0 {
		type plain AssistantMessage
		p := (*plain)(m)
		if m.Content == nil {
			c := *p
			c.Content = content
			p = &c
		}
		return marshalTagged("role", "assistant", p)
	}
	return marshalTagged("role", "assistant", &assistantWire{
		Content: content, API: m.API, Provider: m.Provider, Model: m.Model,
		ResponseModel:         orStated(m.ResponseModel, m.stated, statedResponseModel),
		ResponseID:            orStated(m.ResponseID, m.stated, statedResponseID),
		ProviderThinkingLevel: orStated(m.ProviderThinkingLevel, m.stated, statedProviderThinkingLevel),
		ThinkingLevel:         orStated(m.ThinkingLevel, m.stated, statedThinkingLevel),
		Diagnostics:           m.Diagnostics, Usage: m.Usage, StopReason: m.StopReason, Deferred: m.Deferred,
		ErrorMessage:  orStated(m.ErrorMessage, m.stated, statedErrorMessage),
		RawStopReason: orStated(m.RawStopReason, m.stated, statedRawStopReason),
		EndTurn:       m.EndTurn, Timestamp: m.Timestamp, DurationMs: m.DurationMs,
	})
}

// MarshalJSON writes the message with "role":"toolResult".
func (m *ToolResultMessage) MarshalJSON() ([]byte, error) {
	type plain ToolResultMessage
	p := (*plain)(m)
	if p.Content == nil {
		c := *p
		c.Content = []ContentBlock{}
		p = &c
	}
	return marshalTagged("role", "toolResult", p)
}

// MarshalJSON writes the message as it was read.
func (m *CustomMessage) MarshalJSON() ([]byte, error) {
	if len(m.Raw) == 0 {
		return marshalTagged("role", m.RoleName, struct{}{})
	}
	return m.Raw, nil
}

// UnmarshalJSON reads a system message. Its timestamp is read as a
// JavaScript number, as [Usage.UnmarshalJSON] reads a count.
func (m *SystemMessage) UnmarshalJSON(data []byte) error { return m.unmarshalJSON(data) }

func (m *SystemMessage) unmarshalJSON(data []byte) error {
	var w struct {
		Content      json.RawMessage   `json:"content"`
		Sections     Sections          `json:"sections"`
		ToolsAdded   []ToolDeclaration `json:"toolsAdded"`
		ToolsRemoved []ToolReference   `json:"toolsRemoved"`
		Timestamp    jsInt             `json:"timestamp"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("agentcore: system message: %w", err)
	}
	content, err := unmarshalContent(orEmptyString(w.Content), textOnly)
	if err != nil {
		return err
	}
	*m = SystemMessage{Content: content, Sections: w.Sections, ToolsAdded: w.ToolsAdded, ToolsRemoved: w.ToolsRemoved, Timestamp: int64(w.Timestamp)}
	return nil
}

// UnmarshalJSON reads a user message. Its timestamp is read as a
// JavaScript number, as [Usage.UnmarshalJSON] reads a count.
func (m *UserMessage) UnmarshalJSON(data []byte) error {
	var out UserMessage
	if scan(data, func(s *jsonscan.Scanner) bool { return s.Object() && out.scan(s, true, 0) }) {
		*m = out
		return nil
	}
	return m.unmarshalJSON(data)
}

// unmarshalJSON is UnmarshalJSON with encoding/json alone.
func (m *UserMessage) unmarshalJSON(data []byte) error {
	var w struct {
		Content   json.RawMessage `json:"content"`
		Timestamp jsInt           `json:"timestamp"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("agentcore: user message: %w", err)
	}
	content, err := unmarshalContent(orEmptyString(w.Content), textOrImage)
	if err != nil {
		return err
	}
	*m = UserMessage{Content: content, Timestamp: int64(w.Timestamp)}
	return nil
}

// UnmarshalJSON reads an assistant message. Its timestamp and duration
// are read as JavaScript numbers, as [Usage.UnmarshalJSON] reads a count.
func (m *AssistantMessage) UnmarshalJSON(data []byte) error {
	var out AssistantMessage
	if scan(data, func(s *jsonscan.Scanner) bool { return s.Object() && out.scan(s, true, 0) }) {
		*m = out
		return nil
	}
	return m.unmarshalJSON(data)
}

// unmarshalJSON is UnmarshalJSON with encoding/json alone.
func (m *AssistantMessage) unmarshalJSON(data []byte) error {
	type plain AssistantMessage
	var w struct {
		plain
		Content               json.RawMessage `json:"content"`
		ResponseModel         *string         `json:"responseModel"`
		ResponseID            *string         `json:"responseId"`
		ProviderThinkingLevel *string         `json:"providerThinkingLevel"`
		ThinkingLevel         *ThinkingLevel  `json:"thinkingLevel"`
		ErrorMessage          *string         `json:"errorMessage"`
		RawStopReason         *string         `json:"rawStopReason"`
		Timestamp             jsInt           `json:"timestamp"`
		DurationMs            *jsInt          `json:"durationMs"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("agentcore: assistant message: %w", err)
	}
	*m = AssistantMessage(w.plain)
	m.Timestamp, m.DurationMs = int64(w.Timestamp), jsIntPtr(w.DurationMs)
	m.stated = 0
	m.ResponseModel = fromStated(w.ResponseModel, &m.stated, statedResponseModel)
	m.ResponseID = fromStated(w.ResponseID, &m.stated, statedResponseID)
	m.ProviderThinkingLevel = fromStated(w.ProviderThinkingLevel, &m.stated, statedProviderThinkingLevel)
	m.ThinkingLevel = fromStated(w.ThinkingLevel, &m.stated, statedThinkingLevel)
	m.ErrorMessage = fromStated(w.ErrorMessage, &m.stated, statedErrorMessage)
	m.RawStopReason = fromStated(w.RawStopReason, &m.stated, statedRawStopReason)
	var err error
	m.Content, err = decodeBlockField(w.Content, assistantBlock)
	return err
}

// UnmarshalJSON reads a tool result message. Its timestamp and duration
// are read as JavaScript numbers, as [Usage.UnmarshalJSON] reads a count.
func (m *ToolResultMessage) UnmarshalJSON(data []byte) error {
	var out ToolResultMessage
	if scan(data, func(s *jsonscan.Scanner) bool { return s.Object() && out.scan(s, true, 0) }) {
		*m = out
		return nil
	}
	return m.unmarshalJSON(data)
}

// unmarshalJSON is UnmarshalJSON with encoding/json alone.
func (m *ToolResultMessage) unmarshalJSON(data []byte) error {
	type plain ToolResultMessage
	var w struct {
		plain
		Content    json.RawMessage `json:"content"`
		Details    json.RawMessage `json:"details"`
		Timestamp  jsInt           `json:"timestamp"`
		DurationMs *jsInt          `json:"durationMs"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("agentcore: toolResult message: %w", err)
	}
	*m = ToolResultMessage(w.plain)
	m.Timestamp, m.DurationMs = int64(w.Timestamp), jsIntPtr(w.DurationMs)
	m.Details = nil
	if len(w.Details) > 0 {
		m.Details = w.Details
	}
	var err error
	m.Content, err = decodeBlockField(w.Content, textOrImage)
	return err
}

// decodeBlockField decodes a content field that holds blocks; absent or
// null is an empty list.
func decodeBlockField(raw json.RawMessage, allowed func(ContentBlock) bool) ([]ContentBlock, error) {
	if len(raw) == 0 || isNull(raw) {
		return []ContentBlock{}, nil
	}
	return decodeBlocks(raw, allowed)
}

func isNull(data []byte) bool { return bytes.Equal(bytes.TrimSpace(data), []byte("null")) }

func orEmptyString(data json.RawMessage) []byte {
	if len(data) == 0 || isNull(data) {
		return []byte(`""`)
	}
	return data
}

// MessageRegistry decodes app-defined messages by role. The zero value and a
// nil *MessageRegistry are ready to use and know no custom roles. Register
// roles before decoding concurrently; decoding is safe for concurrent use,
// and a registered decoder may be called from several goroutines at once
// (package session decodes a file's lines in parallel).
type MessageRegistry struct {
	decoders map[string]func(data []byte) (Message, error)
}

// Register makes r decode messages whose role is role with decode, which
// gets the whole JSON object, a copy the message may keep, and returns the
// message or an error (a nil message without one is an error wrapping
// [ErrNilMessage]). Registering a
// standard role, an empty role or a nil decode panics: it is a programming
// error.
func (r *MessageRegistry) Register(role string, decode func(data []byte) (Message, error)) {
	switch role {
	case "", "system", "user", "assistant", "toolResult":
		panic(fmt.Sprintf("agentcore: cannot register message role %q", role))
	}
	if decode == nil {
		panic("agentcore: nil decode for message role " + role)
	}
	if r.decoders == nil {
		r.decoders = make(map[string]func([]byte) (Message, error))
	}
	r.decoders[role] = decode
}

// UnmarshalMessage decodes one message of any role. A role no decoder is
// registered for becomes a [*CustomMessage].
func (r *MessageRegistry) UnmarshalMessage(data []byte) (Message, error) {
	if m, ok := scanMessage(data); ok {
		return m, nil
	}
	return r.unmarshalMessage(data)
}

// unmarshalMessage is UnmarshalMessage with encoding/json alone (but for
// the usage).
func (r *MessageRegistry) unmarshalMessage(data []byte) (Message, error) {
	var head struct {
		Role *string `json:"role"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("agentcore: message: %w", err)
	}
	if head.Role == nil || *head.Role == "" {
		return nil, fmt.Errorf("agentcore: message without a role")
	}
	var m interface {
		Message
		unmarshalJSON([]byte) error
	}
	switch *head.Role {
	case "system":
		m = new(SystemMessage)
	case "user":
		m = new(UserMessage)
	case "assistant":
		m = new(AssistantMessage)
	case "toolResult":
		m = new(ToolResultMessage)
	default:
		if r != nil {
			if decode := r.decoders[*head.Role]; decode != nil {
				msg, err := decode(bytes.Clone(data))
				if err == nil && isNilMessage(msg) {
					err = fmt.Errorf("%w: the decoder returned none", ErrNilMessage)
				}
				if err != nil {
					return nil, fmt.Errorf("agentcore: %s message: %w", *head.Role, err)
				}
				return msg, nil
			}
		}
		return &CustomMessage{RoleName: *head.Role, Raw: compactClone(data)}, nil
	}
	if err := m.unmarshalJSON(data); err != nil {
		return nil, err
	}
	return m, nil
}

// UnmarshalMessages decodes a JSON array of messages.
func (r *MessageRegistry) UnmarshalMessages(data []byte) ([]Message, error) {
	if out, ok := r.scanMessages(data); ok {
		return out, nil
	}
	return r.unmarshalMessagesJSON(data)
}

// unmarshalMessagesJSON is UnmarshalMessages without its one-pass path.
func (r *MessageRegistry) unmarshalMessagesJSON(data []byte) ([]Message, error) {
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return nil, fmt.Errorf("agentcore: messages: %w", err)
	}
	out := make([]Message, 0, len(raws))
	for i, raw := range raws {
		m, err := r.UnmarshalMessage(raw)
		if err != nil {
			return nil, fmt.Errorf("message %d: %w", i, err)
		}
		out = append(out, m)
	}
	return out, nil
}

// UnmarshalMessage decodes one message with no custom roles registered; see
// [MessageRegistry.UnmarshalMessage].
func UnmarshalMessage(data []byte) (Message, error) {
	return (*MessageRegistry)(nil).UnmarshalMessage(data)
}

// UnmarshalMessages decodes a JSON array of messages with no custom roles
// registered.
func UnmarshalMessages(data []byte) ([]Message, error) {
	return (*MessageRegistry)(nil).UnmarshalMessages(data)
}

func compactClone(data []byte) json.RawMessage {
	var buf bytes.Buffer
	if json.Compact(&buf, data) != nil {
		return bytes.Clone(data)
	}
	return buf.Bytes()
}

// UserText returns a user message holding text as one text block, stamped now.
func UserText(text string) *UserMessage {
	return &UserMessage{Content: Blocks(TextBlock{Text: text}), Timestamp: nowMillis()}
}

// ToolCalls returns the tool calls of m's content, in order.
func (m *AssistantMessage) ToolCalls() []ToolCall {
	var calls []ToolCall
	for _, b := range m.Content {
		if c, ok := b.(ToolCall); ok {
			calls = append(calls, c)
		}
	}
	return calls
}

// hasToolCalls reports whether m's content holds a tool call.
func (m *AssistantMessage) hasToolCalls() bool {
	for _, b := range m.Content {
		if _, ok := b.(ToolCall); ok {
			return true
		}
	}
	return false
}

// Text joins the text blocks of m's content with newlines.
func (m *AssistantMessage) Text() string { return joinText(m.Content, "\n") }

// Text joins the text blocks of m's content with newlines (a string
// content is its own text).
func (m *UserMessage) Text() string { return m.Content.Text() }

// Text joins the text blocks of m's content with newlines.
func (m *ToolResultMessage) Text() string { return joinText(m.Content, "\n") }

// Clone returns a copy of m whose content slice is its own (clipped to its
// length). The blocks themselves are values and are shared, as are the
// byte slices and pointers of the other fields, which must not be modified.
func (m *AssistantMessage) Clone() *AssistantMessage {
	c := *m
	c.Content = slices.Clip(slices.Clone(m.Content))
	return &c
}
