package openai

import (
	"cmp"
	"encoding/json"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider"
)

// The wire form of a streamed chat.completion.chunk. Servers differ in
// what they send, so every field is read loosely: a field of an unexpected
// type is treated as absent instead of failing the chunk, as pi-ai's
// JavaScript reads them.
type chunk struct {
	ID      loose[string]          `json:"id"`
	Model   loose[string]          `json:"model"`
	Choices loose[[]loose[choice]] `json:"choices"`
	Usage   loose[usageJSON]       `json:"usage"`
	Error   json.RawMessage        `json:"error"`
}

type choice struct {
	Delta        loose[delta]     `json:"delta"`
	FinishReason loose[string]    `json:"finish_reason"`
	Usage        loose[usageJSON] `json:"usage"`
}

type delta struct {
	Content          loose[string]                 `json:"content"`
	ReasoningContent loose[string]                 `json:"reasoning_content"`
	Reasoning        loose[string]                 `json:"reasoning"`
	ReasoningText    loose[string]                 `json:"reasoning_text"`
	ToolCalls        loose[[]loose[toolCallDelta]] `json:"tool_calls"`
}

// reasoning returns the first non-empty reasoning field of d and its name
// (servers name it differently, and some send the same text in two).
func (d delta) reasoning() (field, text string) {
	for i, v := range []loose[string]{d.ReasoningContent, d.Reasoning, d.ReasoningText} {
		if v.v != "" {
			return reasoningFields[i], v.v
		}
	}
	return "", ""
}

type toolCallDelta struct {
	Index    loose[float64]       `json:"index"`
	ID       loose[string]        `json:"id"`
	Function loose[functionDelta] `json:"function"`
}

type functionDelta struct {
	Name      loose[string] `json:"name"`
	Arguments loose[string] `json:"arguments"`
}

type usageJSON struct {
	PromptTokens            loose[float64]               `json:"prompt_tokens"`
	CompletionTokens        loose[float64]               `json:"completion_tokens"`
	PromptTokensDetails     loose[promptTokensDetails]   `json:"prompt_tokens_details"`
	PromptCacheHitTokens    loose[float64]               `json:"prompt_cache_hit_tokens"`
	CachedTokens            loose[float64]               `json:"cached_tokens"`
	CompletionTokensDetails loose[completionTokenDetail] `json:"completion_tokens_details"`
	ReasoningTokens         loose[float64]               `json:"reasoning_tokens"`
	// The cost OpenRouter billed, for its models.
	provider.OpenRouterCost
}

type promptTokensDetails struct {
	CachedTokens     loose[float64] `json:"cached_tokens"`
	CacheWriteTokens loose[float64] `json:"cache_write_tokens"`
}

type completionTokenDetail struct {
	ReasoningTokens loose[float64] `json:"reasoning_tokens"`
}

// loose is a JSON value read if it has type T and treated as absent
// otherwise (null included).
type loose[T any] struct {
	v  T
	ok bool
}

// UnmarshalJSON keeps data when it decodes as T; it never fails.
func (l *loose[T]) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	var v T
	if json.Unmarshal(data, &v) == nil {
		l.v, l.ok = v, true
	}
	return nil
}

// first returns the first of l1, l2, l3 that is present, or zero: the
// JavaScript a ?? b ?? c.
func first(ls ...loose[float64]) float64 {
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
func toUsage(u usageJSON, model agentcore.Model, openRouter bool) agentcore.Usage {
	details := u.PromptTokensDetails.v
	cacheRead := provider.Count(first(details.CachedTokens, u.PromptCacheHitTokens, u.CachedTokens))
	cacheWrite := provider.Count(details.CacheWriteTokens.v)
	out := agentcore.Usage{
		Input:      max(0, provider.Count(u.PromptTokens.v)-provider.Sum(cacheRead, cacheWrite)),
		Output:     provider.Count(u.CompletionTokens.v),
		CacheRead:  cacheRead,
		CacheWrite: cacheWrite,
		Reasoning:  new(provider.Count(cmp.Or(u.CompletionTokensDetails.v.ReasoningTokens.v, u.ReasoningTokens.v))),
	}
	out.TotalTokens = provider.Sum(out.Input, out.Output, out.CacheRead, out.CacheWrite)
	rates := model.Cost
	out.Cost.Input = rates.Input / 1000000 * float64(out.Input)
	out.Cost.Output = rates.Output / 1000000 * float64(out.Output)
	out.Cost.CacheRead = rates.CacheRead / 1000000 * float64(out.CacheRead)
	out.Cost.CacheWrite = rates.CacheWrite * float64(out.CacheWrite) / 1000000
	out.Cost.Total = out.Cost.Input + out.Cost.Output + out.Cost.CacheRead + out.Cost.CacheWrite
	out.Cost.TotalFromProvider = new(false) // computed from the rates, as pi-ai says
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
