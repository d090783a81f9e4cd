package mistral

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/pi-go/agentcore/internal/provider"
)

// wireChunk is one streamed completion chunk, decoded in one pass; a
// member of an unexpected type reads as its zero value, as in pi-ai's
// JavaScript, except choices, which must be a list.
type wireChunk struct {
	ID      string       `json:"id"`
	Choices []wireChoice `json:"choices"`
	Usage   *wireUsage   `json:"usage"`
}

// reset empties c for the next chunk. Its choices start nil, so that a
// chunk without a list of them tells.
func (c *wireChunk) reset() *wireChunk {
	*c = wireChunk{}
	return c
}

type wireChoice struct {
	FinishReason string     `json:"finish_reason"`
	Delta        *wireDelta `json:"delta"`
}

type wireDelta struct {
	// Content is a string or a list of strings and content items.
	Content   json.RawMessage `json:"content"`
	ToolCalls []wireCallDelta `json:"tool_calls"`
}

type wireCallDelta struct {
	ID       *string          `json:"id"`
	Index    *provider.Number `json:"index"`
	Function struct {
		Name string `json:"name"`
		// Arguments is a string, or an object sent whole.
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// contentItem is an item of a delta's content list: text, or thinking
// made of text chunks.
type contentItem struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	Thinking []struct {
		Text string `json:"text"`
	} `json:"thinking"`
}

// wireUsage holds the counts pi-ai reads, the cached ones under every
// name it knows.
type wireUsage struct {
	PromptTokens          provider.Number `json:"prompt_tokens"`
	CompletionTokens      provider.Number `json:"completion_tokens"`
	TotalTokens           provider.Number `json:"total_tokens"`
	PromptTokensDetailsJS *details        `json:"promptTokensDetails"`
	PromptTokensDetails   *details        `json:"prompt_tokens_details"`
	PromptTokenDetailsJS  *details        `json:"promptTokenDetails"`
	PromptTokenDetails    *details        `json:"prompt_token_details"`
	NumCachedTokensJS     *float64        `json:"numCachedTokens"`
	NumCachedTokens       *float64        `json:"num_cached_tokens"`
}

// details are the prompt's token details, in either spelling.
type details struct {
	CachedJS *float64 `json:"cachedTokens"`
	Cached   *float64 `json:"cached_tokens"`
}

func (d *details) camel() *float64 {
	if d == nil {
		return nil
	}
	return d.CachedJS
}

func (d *details) snake() *float64 {
	if d == nil {
		return nil
	}
	return d.Cached
}

// cached is the first cached count of u pi-ai finds, in its order.
func (u *wireUsage) cached() float64 {
	for _, v := range []*float64{
		u.PromptTokensDetailsJS.camel(), u.PromptTokensDetails.snake(),
		u.PromptTokenDetailsJS.camel(), u.PromptTokenDetails.snake(),
		u.NumCachedTokensJS, u.NumCachedTokens,
	} {
		if v != nil {
			return *v
		}
	}
	return 0
}

// jsonString returns the string raw holds, and whether it is one; a
// string without escapes is read in place.
func jsonString(raw json.RawMessage) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if inner := raw[1 : len(raw)-1]; bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner), true
	}
	var s string
	return s, json.Unmarshal(raw, &s) == nil
}
