package anthropic

import (
	"encoding/json"
)

// The wire form of a Messages API request. Field order is pi-ai's, so that
// bodies read alike.

type wireRequest struct {
	Model        string        `json:"model"`
	Messages     []wireMessage `json:"messages"`
	MaxTokens    int           `json:"max_tokens"`
	Stream       bool          `json:"stream"`
	System       []block       `json:"system,omitempty"`
	Temperature  *float64      `json:"temperature,omitempty"`
	Tools        []wireTool    `json:"tools,omitempty"`
	Thinking     *wireThinking `json:"thinking,omitempty"`
	OutputConfig *outputConfig `json:"output_config,omitempty"`
	Metadata     *metadata     `json:"metadata,omitempty"`
}

// wireMessage is one entry of "messages": role user, assistant, or system
// (in place, for models that take it). Content is a string or []block.
type wireMessage struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
}

// block is one content block of a request: [textBlock], [imageBlock],
// [thinkingBlock], [redactedThinkingBlock], [toolUseBlock] or
// [toolResultBlock].
type block interface {
	// withCache returns the block with a cache breakpoint, and whether the
	// block type takes one.
	withCache(cc *cacheControl) (block, bool)
}

type cacheControl struct {
	Type string `json:"type"`
	TTL  string `json:"ttl,omitempty"`
}

type textBlock struct {
	Type         string        `json:"type"` // "text"
	Text         string        `json:"text"`
	CacheControl *cacheControl `json:"cache_control,omitempty"`
}

type imageBlock struct {
	Type         string        `json:"type"` // "image"
	Source       imageSource   `json:"source"`
	CacheControl *cacheControl `json:"cache_control,omitempty"`
}

type imageSource struct {
	Type      string `json:"type"` // "base64"
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
}

type thinkingBlock struct {
	Type      string `json:"type"` // "thinking"
	Thinking  string `json:"thinking"`
	Signature string `json:"signature"`
}

type redactedThinkingBlock struct {
	Type string `json:"type"` // "redacted_thinking"
	Data string `json:"data"`
}

type toolUseBlock struct {
	Type  string          `json:"type"` // "tool_use"
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

type toolResultBlock struct {
	Type      string `json:"type"` // "tool_result"
	ToolUseID string `json:"tool_use_id"`
	// Content is a string or []block of text and images.
	Content      any           `json:"content"`
	IsError      bool          `json:"is_error"`
	CacheControl *cacheControl `json:"cache_control,omitempty"`
}

func (b textBlock) withCache(cc *cacheControl) (block, bool) { b.CacheControl = cc; return b, true }
func (b imageBlock) withCache(cc *cacheControl) (block, bool) {
	b.CacheControl = cc
	return b, true
}
func (b toolResultBlock) withCache(cc *cacheControl) (block, bool) {
	b.CacheControl = cc
	return b, true
}
func (b thinkingBlock) withCache(*cacheControl) (block, bool)         { return b, false }
func (b redactedThinkingBlock) withCache(*cacheControl) (block, bool) { return b, false }
func (b toolUseBlock) withCache(*cacheControl) (block, bool)          { return b, false }

func newText(text string) textBlock { return textBlock{Type: "text", Text: text} }

type wireTool struct {
	Name                string          `json:"name"`
	Description         string          `json:"description"`
	EagerInputStreaming bool            `json:"eager_input_streaming,omitempty"`
	InputSchema         json.RawMessage `json:"input_schema"`
	CacheControl        *cacheControl   `json:"cache_control,omitempty"`
}

type wireThinking struct {
	Type         string `json:"type"` // "enabled", "adaptive" or "disabled"
	BudgetTokens int    `json:"budget_tokens,omitempty"`
	Display      string `json:"display,omitempty"`
}

type outputConfig struct {
	Effort string        `json:"effort,omitempty"`
	Format *outputFormat `json:"format,omitempty"`
}

// outputFormat is output_config.format: a json_schema answer (Anthropic's
// structured outputs, from StreamOptions.ResponseFormat).
type outputFormat struct {
	Type   string          `json:"type"`
	Schema json.RawMessage `json:"schema"`
}

type metadata struct {
	UserID string `json:"user_id"`
}
