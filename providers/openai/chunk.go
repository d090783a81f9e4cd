package openai

import (
	"cmp"
	"encoding/json"
	"errors"
	"math"
	"strconv"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/jsondec"
	"github.com/pi-go/agentcore/internal/limit"
	"github.com/pi-go/agentcore/internal/pricing"
	"github.com/pi-go/agentcore/internal/provider"
)

// The wire form of a streamed chat.completion.chunk, decoded in one pass
// (see [decodeChunk]). Servers differ in what they send, so a field of an
// unexpected type does not fail the chunk: it reads as its zero value, and
// the rest of the chunk is read, close to how pi-ai's JavaScript reads
// them.
type chunk struct {
	ID      string          `json:"id"`
	Model   string          `json:"model"`
	Choices []choice        `json:"choices"`
	Usage   *usageJSON      `json:"usage"`
	Error   json.RawMessage `json:"error"`
}

// reset empties c for the next chunk, keeping the room of its choices,
// and returns it.
func (c *chunk) reset() *chunk {
	clear(c.Choices)
	*c = chunk{Choices: c.Choices[:0]}
	return c
}

type choice struct {
	Delta        delta      `json:"delta"`
	FinishReason string     `json:"finish_reason"`
	Usage        *usageJSON `json:"usage"`
}

type delta struct {
	Content          string          `json:"content"`
	ReasoningContent string          `json:"reasoning_content"`
	Reasoning        string          `json:"reasoning"`
	ReasoningText    string          `json:"reasoning_text"`
	ToolCalls        []toolCallDelta `json:"tool_calls"`
}

// reasoning returns the first non-empty reasoning field of d and its name
// (servers name it differently, and some send the same text in two).
func (d *delta) reasoning() (field, text string) {
	for i, v := range [...]string{d.ReasoningContent, d.Reasoning, d.ReasoningText} {
		if v != "" {
			return reasoningFields[i], v
		}
	}
	return "", ""
}

type toolCallDelta struct {
	Index    number        `json:"index"`
	ID       string        `json:"id"`
	Function functionDelta `json:"function"`
}

type functionDelta struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type usageJSON struct {
	PromptTokens            provider.Number       `json:"prompt_tokens"`
	CompletionTokens        provider.Number       `json:"completion_tokens"`
	PromptTokensDetails     promptTokensDetails   `json:"prompt_tokens_details"`
	PromptCacheHitTokens    number                `json:"prompt_cache_hit_tokens"`
	CachedTokens            number                `json:"cached_tokens"`
	CompletionTokensDetails completionTokenDetail `json:"completion_tokens_details"`
	ReasoningTokens         provider.Number       `json:"reasoning_tokens"`
	// The cost OpenRouter billed, for its models.
	provider.OpenRouterCost
}

type promptTokensDetails struct {
	CachedTokens     number          `json:"cached_tokens"`
	CacheWriteTokens provider.Number `json:"cache_write_tokens"`
}

type completionTokenDetail struct {
	ReasoningTokens provider.Number `json:"reasoning_tokens"`
}

// number is a JSON number that may be absent: a value of another type,
// null included, reads as absent.
type number struct {
	v  float64
	ok bool
}

// UnmarshalJSON keeps data when it is a number (one beyond float64's
// range as ±Inf, as [provider.Number] reads it); it never fails.
func (n *number) UnmarshalJSON(data []byte) error {
	// A number beyond float64's range is ±Inf, JavaScript's ±Infinity.
	if v, err := strconv.ParseFloat(string(data), 64); err == nil || math.IsInf(v, 0) {
		n.v, n.ok = v, true
	}
	return nil
}

// decodeChunk decodes an event's data into c in one pass of dec. It
// reports whether data is JSON (else c is not to be read) and whether it
// is an object (or null, an empty one), the one kind read as a chunk; a
// member of an unexpected type reads as its zero value.
func decodeChunk(dec *jsondec.Decoder, data []byte, c *chunk) (valid, object bool) {
	if _, malformed := errors.AsType[*json.SyntaxError](dec.Decode(data, c)); malformed {
		return false, false
	}
	b := firstByte(data)
	return true, b == '{' || b == 'n'
}

// firstByte returns the first byte of data that is not JSON white space,
// 0 when none.
func firstByte(data []byte) byte {
	for _, b := range data {
		switch b {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return b
	}
	return 0
}

// first returns the first of ls that is present, or zero: the JavaScript
// a ?? b ?? c.
func first(ls ...number) float64 {
	for _, l := range ls {
		if l.ok {
			return l.v
		}
	}
	return 0
}

// toUsage maps reported token counts onto pi's usage and prices them with
// the model's cost per million tokens. Cached prompt tokens are reported
// apart from the input (OpenAI puts them in prompt_tokens_details,
// DeepSeek in prompt_cache_hit_tokens, Kimi in cached_tokens); reasoning
// tokens are already part of the output (OpenAI puts them in
// completion_tokens_details, some servers beside completion_tokens).
func toUsage(u *usageJSON, model agentcore.Model, openRouter bool) agentcore.Usage {
	details := u.PromptTokensDetails
	cacheRead := limit.Count(first(details.CachedTokens, u.PromptCacheHitTokens, u.CachedTokens))
	cacheWrite := details.CacheWriteTokens.Count()
	out := agentcore.Usage{
		Input:      max(0, u.PromptTokens.Count()-limit.Sum(cacheRead, cacheWrite)),
		Output:     u.CompletionTokens.Count(),
		CacheRead:  cacheRead,
		CacheWrite: cacheWrite,
		Reasoning:  new(cmp.Or(u.CompletionTokensDetails.ReasoningTokens, u.ReasoningTokens).Count()),
	}
	out.TotalTokens = limit.Sum(out.Input, out.Output, out.CacheRead, out.CacheWrite)
	out.Cost = pricing.Cost(model, out)
	if openRouter {
		u.OpenRouterCost.Apply(&out)
	}
	return out
}

// mapFinishReason maps a finish_reason onto a stop reason; a reason that
// is no normal end is an error with a message naming it.
func mapFinishReason(reason string) (agentcore.StopReason, string) {
	switch reason {
	case "stop", "end":
		return agentcore.StopStop, ""
	case "length":
		return agentcore.StopLength, ""
	case "tool_calls", "function_call":
		return agentcore.StopToolUse, ""
	}
	return agentcore.StopError, "Provider finish_reason: " + reason
}
