package agentcore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// ContentBlock is one block of message content: [TextBlock], [ThinkingBlock],
// [ImageBlock], [ToolCall], or [UnknownBlock] for a block type this package
// does not know. The set is closed; switch on the concrete type.
//
// Blocks are values: write TextBlock{...}, not &TextBlock{...}. A pointer
// to a block type satisfies the interface too; a run, the fake model, the
// providers and the proxy use it as the value it points to and refuse a
// nil one ([ValueBlocks]). A block's byte slices (ToolCall.Arguments,
// UnknownBlock.Raw) are shared between copies and must not be modified.
type ContentBlock interface {
	contentBlock()
}

// TextBlock is text content.
type TextBlock struct {
	Text string `json:"text"`
	// TextSignature is an opaque provider signature, kept for replay.
	TextSignature string `json:"textSignature,omitempty"`

	stated statedZeros // optional fields decoded as "" (textSignature)
}

// ThinkingBlock is model reasoning.
type ThinkingBlock struct {
	Thinking          string `json:"thinking"`
	ThinkingSignature string `json:"thinkingSignature,omitempty"`
	// Redacted marks reasoning the provider returned encrypted.
	Redacted bool `json:"redacted,omitempty"`

	stated statedZeros // optional fields decoded as "" or false
}

// ImageBlock is an image, base64-encoded in Data.
type ImageBlock struct {
	Data     string `json:"data"`
	MimeType string `json:"mimeType"`
}

// ToolCall is a model's request to run a tool.
type ToolCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Arguments is the JSON object of arguments as the model sent them. A nil
	// value marshals as {}. It is never modified by this package: tools get a
	// coerced copy.
	Arguments        json.RawMessage `json:"arguments"`
	ThoughtSignature string          `json:"thoughtSignature,omitempty"`
	Namespace        string          `json:"namespace,omitempty"`
	// ArgumentsError, when set, says the arguments could not be parsed; the
	// call then fails validation with this text.
	ArgumentsError string `json:"argumentsError,omitempty"`

	stated statedZeros // optional fields decoded as ""
}

// The optional fields of the blocks, in their statedZeros.
const (
	statedSignature statedZeros = 1 << iota // textSignature, thinkingSignature, thoughtSignature
	statedRedacted
	statedNamespace
	statedArgumentsError
)

// The blocks on the wire, optional fields as pointers: nil is left out.
type (
	textWire struct {
		Text          string  `json:"text"`
		TextSignature *string `json:"textSignature,omitempty"`
	}
	thinkingWire struct {
		Thinking          string  `json:"thinking"`
		ThinkingSignature *string `json:"thinkingSignature,omitempty"`
		Redacted          *bool   `json:"redacted,omitempty"`
	}
	toolCallWire struct {
		ID               string          `json:"id"`
		Name             string          `json:"name"`
		Arguments        json.RawMessage `json:"arguments"`
		ThoughtSignature *string         `json:"thoughtSignature,omitempty"`
		Namespace        *string         `json:"namespace,omitempty"`
		ArgumentsError   *string         `json:"argumentsError,omitempty"`
	}
)

// UnknownBlock keeps a content block of a type this package does not know,
// so that it round-trips unchanged.
type UnknownBlock struct {
	Type string
	// Raw is the block's whole JSON object.
	Raw json.RawMessage
}

func (TextBlock) contentBlock()     {}
func (ThinkingBlock) contentBlock() {}
func (ImageBlock) contentBlock()    {}
func (ToolCall) contentBlock()      {}
func (UnknownBlock) contentBlock()  {}

// MarshalJSON writes the block with "type":"text".
func (b TextBlock) MarshalJSON() ([]byte, error) {
	if b.stated == 0 {
		type plain TextBlock
		return marshalTagged("type", "text", plain(b))
	}
	return marshalTagged("type", "text", textWire{
		Text:          b.Text,
		TextSignature: orStated(b.TextSignature, b.stated, statedSignature),
	})
}

// UnmarshalJSON reads a text block; the "type" field is not checked.
func (b *TextBlock) UnmarshalJSON(data []byte) error {
	var w textWire
	if err := json.Unmarshal(data, &w); err != nil {
		return wrapBlockErr("text", err)
	}
	*b = TextBlock{Text: w.Text}
	b.TextSignature = fromStated(w.TextSignature, &b.stated, statedSignature)
	return nil
}

// MarshalJSON writes the block with "type":"thinking".
func (b ThinkingBlock) MarshalJSON() ([]byte, error) {
	if b.stated == 0 {
		type plain ThinkingBlock
		return marshalTagged("type", "thinking", plain(b))
	}
	return marshalTagged("type", "thinking", thinkingWire{
		Thinking:          b.Thinking,
		ThinkingSignature: orStated(b.ThinkingSignature, b.stated, statedSignature),
		Redacted:          orStated(b.Redacted, b.stated, statedRedacted),
	})
}

// UnmarshalJSON reads a thinking block; the "type" field is not checked.
func (b *ThinkingBlock) UnmarshalJSON(data []byte) error {
	var w thinkingWire
	if err := json.Unmarshal(data, &w); err != nil {
		return wrapBlockErr("thinking", err)
	}
	*b = ThinkingBlock{Thinking: w.Thinking}
	b.ThinkingSignature = fromStated(w.ThinkingSignature, &b.stated, statedSignature)
	b.Redacted = fromStated(w.Redacted, &b.stated, statedRedacted)
	return nil
}

// MarshalJSON writes the block with "type":"image".
func (b ImageBlock) MarshalJSON() ([]byte, error) {
	type plain ImageBlock
	return marshalTagged("type", "image", plain(b))
}

// MarshalJSON writes the block with "type":"toolCall".
func (b ToolCall) MarshalJSON() ([]byte, error) {
	if len(b.Arguments) == 0 {
		b.Arguments = json.RawMessage("{}")
	}
	if b.stated == 0 {
		type plain ToolCall
		return marshalTagged("type", "toolCall", plain(b))
	}
	return marshalTagged("type", "toolCall", toolCallWire{
		ID:               b.ID,
		Name:             b.Name,
		Arguments:        b.Arguments,
		ThoughtSignature: orStated(b.ThoughtSignature, b.stated, statedSignature),
		Namespace:        orStated(b.Namespace, b.stated, statedNamespace),
		ArgumentsError:   orStated(b.ArgumentsError, b.stated, statedArgumentsError),
	})
}

// UnmarshalJSON reads a tool call block; the "type" field is not checked.
// Arguments, when present, must be a JSON object.
func (b *ToolCall) UnmarshalJSON(data []byte) error {
	var w toolCallWire
	if err := json.Unmarshal(data, &w); err != nil {
		return wrapBlockErr("toolCall", err)
	}
	if len(w.Arguments) > 0 && !isJSONObject(w.Arguments) {
		return fmt.Errorf("agentcore: toolCall block: arguments must be a JSON object")
	}
	*b = ToolCall{ID: w.ID, Name: w.Name, Arguments: w.Arguments}
	b.ThoughtSignature = fromStated(w.ThoughtSignature, &b.stated, statedSignature)
	b.Namespace = fromStated(w.Namespace, &b.stated, statedNamespace)
	b.ArgumentsError = fromStated(w.ArgumentsError, &b.stated, statedArgumentsError)
	return nil
}

// MarshalJSON writes the block as it was read.
func (b UnknownBlock) MarshalJSON() ([]byte, error) {
	if len(b.Raw) == 0 {
		return nil, fmt.Errorf("agentcore: unknown content block %q has no JSON", b.Type)
	}
	return b.Raw, nil
}

// marshalTagged marshals v (a struct without MarshalJSON) and puts
// "key":"tag" first.
func marshalTagged(key, tag string, v any) ([]byte, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(len(body) + len(key) + len(tag) + 8)
	buf.WriteString(`{"`)
	buf.WriteString(key)
	buf.WriteString(`":`)
	tagJSON, _ := json.Marshal(tag)
	buf.Write(tagJSON)
	if len(body) > 2 {
		buf.WriteByte(',')
		buf.Write(body[1:])
	} else {
		buf.WriteByte('}')
	}
	return buf.Bytes(), nil
}

// decodeBlock decodes one content block.
func decodeBlock(data []byte) (ContentBlock, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("agentcore: content block: %w", err)
	}
	switch head.Type {
	case "text":
		return decodeAs[TextBlock](data)
	case "thinking":
		return decodeAs[ThinkingBlock](data)
	case "image":
		var b ImageBlock
		if err := json.Unmarshal(data, &b); err != nil {
			return nil, wrapBlockErr(head.Type, err)
		}
		return b, nil
	case "toolCall":
		return decodeAs[ToolCall](data)
	case "":
		return nil, fmt.Errorf("agentcore: content block without a type")
	default:
		return UnknownBlock{Type: head.Type, Raw: bytes.Clone(data)}, nil
	}
}

// decodeAs decodes a block with its UnmarshalJSON method.
func decodeAs[B ContentBlock, PB interface {
	*B
	json.Unmarshaler
}](data []byte) (ContentBlock, error) {
	var b B
	if err := PB(&b).UnmarshalJSON(data); err != nil {
		return nil, err
	}
	return b, nil
}

func wrapBlockErr(typ string, err error) error {
	if err != nil {
		return fmt.Errorf("agentcore: %s block: %w", typ, err)
	}
	return nil
}

// isJSONObject reports whether data, trimmed, starts an object.
func isJSONObject(data []byte) bool {
	data = bytes.TrimLeft(data, " \t\r\n")
	return len(data) > 0 && data[0] == '{'
}

// decodeBlocks decodes a JSON array of content blocks. allowed, when not
// nil, rejects block kinds a message may not hold.
func decodeBlocks(data []byte, allowed func(ContentBlock) bool) ([]ContentBlock, error) {
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return nil, fmt.Errorf("agentcore: content: %w", err)
	}
	blocks := make([]ContentBlock, 0, len(raws))
	for _, raw := range raws {
		b, err := decodeBlock(raw)
		if err != nil {
			return nil, err
		}
		if allowed != nil && !allowed(b) {
			return nil, fmt.Errorf("agentcore: content block %s not allowed here", blockType(b))
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

// blockType is the wire type of b.
func blockType(b ContentBlock) string {
	switch b := b.(type) {
	case TextBlock:
		return "text"
	case ThinkingBlock:
		return "thinking"
	case ImageBlock:
		return "image"
	case ToolCall:
		return "toolCall"
	case UnknownBlock:
		return b.Type
	}
	return "unknown"
}

// Content is message content that is either a plain string or a list of
// blocks, both of which pi writes on the wire. Plain content marshals as a
// JSON string: the text of its text blocks. Use [Text] or [Blocks] to build one.
type Content struct {
	// Blocks are the content blocks. Plain content holds its string as one
	// [TextBlock] (none for the empty string).
	Blocks []ContentBlock
	// Plain marks content that is written as a JSON string.
	Plain bool
}

// Text returns plain content holding s.
func Text(s string) Content {
	if s == "" {
		return Content{Plain: true}
	}
	return Content{Blocks: []ContentBlock{TextBlock{Text: s}}, Plain: true}
}

// Blocks returns block content holding blocks (the slice is kept).
func Blocks(blocks ...ContentBlock) Content {
	if blocks == nil {
		blocks = []ContentBlock{}
	}
	return Content{Blocks: blocks}
}

// Text joins the text of c's text blocks with newlines.
func (c Content) Text() string { return joinText(c.Blocks, "\n") }

// joinText joins the text of the text blocks in blocks with sep.
func joinText(blocks []ContentBlock, sep string) string {
	if len(blocks) == 1 {
		if t, ok := blocks[0].(TextBlock); ok {
			return t.Text
		}
	}
	var sb strings.Builder
	first := true
	for _, b := range blocks {
		if t, ok := b.(TextBlock); ok {
			if !first {
				sb.WriteString(sep)
			}
			sb.WriteString(t.Text)
			first = false
		}
	}
	return sb.String()
}

// MarshalJSON writes a string for plain content, else the blocks.
func (c Content) MarshalJSON() ([]byte, error) {
	if c.Plain {
		return json.Marshal(c.Text())
	}
	if c.Blocks == nil {
		return []byte("[]"), nil
	}
	return json.Marshal(c.Blocks)
}

// unmarshalContent reads a string or a block list.
func unmarshalContent(data []byte, allowed func(ContentBlock) bool) (Content, error) {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '"' {
		var s string
		if err := json.Unmarshal(trimmed, &s); err != nil {
			return Content{}, fmt.Errorf("agentcore: content: %w", err)
		}
		return Text(s), nil
	}
	blocks, err := decodeBlocks(data, allowed)
	if err != nil {
		return Content{}, err
	}
	return Content{Blocks: blocks}, nil
}

func textOrImage(b ContentBlock) bool {
	switch b.(type) {
	case TextBlock, ImageBlock:
		return true
	}
	return false
}

func textOnly(b ContentBlock) bool {
	_, ok := b.(TextBlock)
	return ok
}

func assistantBlock(b ContentBlock) bool {
	switch b.(type) {
	case TextBlock, ThinkingBlock, ToolCall, UnknownBlock:
		return true
	}
	return false
}
