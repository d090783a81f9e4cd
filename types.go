package agentcore

import (
	"encoding/json"
	"fmt"
	"time"
)

// StopReason says why a model response ended. It is the stopReason field of
// an assistant message on the wire.
type StopReason string

// The stop reasons of pi-ai. Only [StopStop], [StopLength], [StopToolUse],
// [StopError] and [StopAborted] are produced by this module; [StopPending]
// (a response still open) and [StopDeferred] (a batch response to fetch
// later) come from providers that have them and round-trip.
const (
	StopPending  StopReason = "pending"
	StopStop     StopReason = "stop"
	StopLength   StopReason = "length"
	StopToolUse  StopReason = "toolUse"
	StopError    StopReason = "error"
	StopAborted  StopReason = "aborted"
	StopDeferred StopReason = "deferred"
)

// Failed reports whether r ends a run: [StopError] or [StopAborted].
func (r StopReason) Failed() bool { return r == StopError || r == StopAborted }

// ThinkingLevel is a requested reasoning effort. The zero value means
// [ThinkingOff].
type ThinkingLevel string

// The thinking levels of pi-ai.
const (
	ThinkingOff     ThinkingLevel = "off"
	ThinkingMinimal ThinkingLevel = "minimal"
	ThinkingLow     ThinkingLevel = "low"
	ThinkingMedium  ThinkingLevel = "medium"
	ThinkingHigh    ThinkingLevel = "high"
	ThinkingXHigh   ThinkingLevel = "xhigh"
	ThinkingMax     ThinkingLevel = "max"
)

// orOff returns l, or [ThinkingOff] when l is empty.
func (l ThinkingLevel) orOff() ThinkingLevel {
	if l == "" {
		return ThinkingOff
	}
	return l
}

// reasoning is the level sent to a stream function: empty for off.
func (l ThinkingLevel) reasoning() ThinkingLevel {
	if l == ThinkingOff {
		return ""
	}
	return l
}

// ToolExecutionMode says how the tool calls of one assistant message run.
// The zero value means [ToolsParallel].
type ToolExecutionMode string

// The tool execution modes.
const (
	// ToolsParallel prepares the calls in order, then executes the allowed
	// ones concurrently.
	ToolsParallel ToolExecutionMode = "parallel"
	// ToolsSequential prepares, executes and finalizes each call before the
	// next one starts.
	ToolsSequential ToolExecutionMode = "sequential"
)

// Model describes the model a request goes to. Its JSON is pi-ai's chat
// Model, fields in the order this struct lists them; an optional field
// stated empty ({}, [], 0) comes back as stated. Fields this package does
// not interpret are carried for stream functions. Package models looks
// models up in pi-ai's catalog; a model it does not know works as a
// hand-written Model.
type Model struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	API      string `json:"api"`
	Provider string `json:"provider"`
	BaseURL  string `json:"baseUrl"`
	// Reasoning says whether the model takes a thinking level.
	Reasoning bool `json:"reasoning"`
	// Input lists the input modalities it takes: "text", "image".
	Input []string  `json:"input"`
	Cost  ModelCost `json:"cost"`
	// ContextWindow is its context size in tokens; 0 when unknown.
	ContextWindow int `json:"contextWindow"`
	// MaxTokens is its output limit in tokens; 0 when unknown.
	MaxTokens int `json:"maxTokens"`
	// Headers are extra HTTP headers its provider needs.
	Headers map[string]string `json:"headers,omitzero"`
	// Compat holds provider-specific compatibility settings, as raw JSON.
	Compat json.RawMessage `json:"compat,omitempty"`
	// ThinkingLevelMap maps thinking levels to the provider's own values;
	// nil when the provider's defaults apply to every level.
	ThinkingLevelMap ThinkingLevelMap `json:"thinkingLevelMap,omitzero"`
	// PromptCache gives how long the provider keeps a cached prompt; nil
	// when unknown.
	PromptCache *ModelPromptCache `json:"promptCache,omitempty"`
	// InputLimits are the provider's limits on a request's size and
	// images; nil when unknown.
	InputLimits *ModelInputLimits `json:"inputLimits,omitempty"`
	// SamplingParams are default sampling parameters (temperature, top_p,
	// ...) a request's own override, as a raw JSON object.
	SamplingParams json.RawMessage `json:"samplingParams,omitempty"`
	// SamplingParamsByThinkingLevel are sampling parameters by effective
	// thinking level, as a raw JSON object of objects.
	SamplingParamsByThinkingLevel json.RawMessage `json:"samplingParamsByThinkingLevel,omitempty"`
	// Type is the catalog's kind of model: "chat", or empty.
	Type string `json:"type,omitempty"`
}

// MarshalJSON writes the model as pi-ai's Model, whose input is always an
// array: a nil Input is written [], since pi's code reads model.input
// without a check (a TypeScript proxy server would fail on null).
func (m Model) MarshalJSON() ([]byte, error) {
	type plain Model
	if m.Input == nil {
		m.Input = []string{}
	}
	return json.Marshal(plain(m))
}

// ModelCost is the price of a model per million tokens.
type ModelCost struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
	// Tiers are the prices that replace these above an input size: the
	// tier with the highest InputTokensAbove below a request's input,
	// cache reads and writes applies.
	Tiers []ModelCostTier `json:"tiers,omitzero"`
}

// Usage counts the tokens of one response and what they cost.
type Usage struct {
	Input      int64 `json:"input"`
	Output     int64 `json:"output"`
	CacheRead  int64 `json:"cacheRead"`
	CacheWrite int64 `json:"cacheWrite"`
	// CacheWrite1h is the part of CacheWrite cached for an hour; nil when
	// the provider does not report it (pi writes 0 when it reports none).
	CacheWrite1h *int64 `json:"cacheWrite1h,omitempty"`
	// Reasoning counts the reasoning tokens, already part of Output; nil
	// when the provider does not report it.
	Reasoning   *int64 `json:"reasoning,omitempty"`
	TotalTokens int64  `json:"totalTokens"`
	Cost        Cost   `json:"cost"`
}

// String writes u as %+v writes a struct, with the optional counts
// written as their values, or <nil> when not reported, rather than as
// addresses.
func (u Usage) String() string {
	return fmt.Sprintf("{Input:%d Output:%d CacheRead:%d CacheWrite:%d CacheWrite1h:%s Reasoning:%s TotalTokens:%d Cost:%v}",
		u.Input, u.Output, u.CacheRead, u.CacheWrite, optional(u.CacheWrite1h), optional(u.Reasoning), u.TotalTokens, u.Cost)
}

// Cost is what a response cost, by token kind.
type Cost struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
	Total      float64 `json:"total"`
	// TotalFromProvider is true when the provider reported the total, false
	// when it was computed from the model's rates (pi-ai states it then), and
	// nil when not said.
	TotalFromProvider *bool `json:"totalFromProvider,omitempty"`
}

// String writes c as %+v writes a struct, with TotalFromProvider written
// as its value, or <nil> when not said, rather than as an address.
func (c Cost) String() string {
	return fmt.Sprintf("{Input:%v Output:%v CacheRead:%v CacheWrite:%v Total:%v TotalFromProvider:%s}",
		c.Input, c.Output, c.CacheRead, c.CacheWrite, c.Total, optional(c.TotalFromProvider))
}

// optional writes the value p points to, or <nil>.
func optional[T any](p *T) string {
	if p == nil {
		return "<nil>"
	}
	return fmt.Sprint(*p)
}

// nowMillis is the current Unix time in milliseconds.
func nowMillis() int64 { return time.Now().UnixMilli() }
