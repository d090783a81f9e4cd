package agentcore

import (
	"encoding/json"
	"math"
	"strconv"
	"time"

	"github.com/pi-go/agentcore/internal/jsondec"
	"github.com/pi-go/agentcore/internal/limit"
)

// The proxy's wire format, shared by [StreamProxy] and [ProxyHandler]: the
// JSON body of a POST to /api/stream, and the events of the server-sent
// answer, which are pi-ai's assistant events without their partial message.

// proxyRequestBody is the body [StreamProxy] posts, field for field the
// reference client's: {model, context: {messages}, options}.
type proxyRequestBody struct {
	Model   Model        `json:"model"`
	Context proxyContext `json:"context"`
	Options proxyOptions `json:"options"`
}

type proxyContext struct {
	Messages []Message `json:"messages"`
}

// proxyOptions are the request options the reference client forwards (its
// buildProxyRequestOptions), each left out when zero. The API key is never
// part of it: the proxy server holds the keys.
type proxyOptions struct {
	Temperature         *float64              `json:"temperature,omitempty"`
	SamplingParams      json.RawMessage       `json:"samplingParams,omitempty"`
	MaxTokens           *int                  `json:"maxTokens,omitempty"`
	Reasoning           ThinkingLevel         `json:"reasoning,omitempty"`
	CacheRetention      json.RawMessage       `json:"cacheRetention,omitempty"`
	SessionID           string                `json:"sessionId,omitempty"`
	DisableContinuation json.RawMessage       `json:"disableContinuation,omitempty"`
	Headers             map[string]string     `json:"headers,omitempty"`
	Metadata            json.RawMessage       `json:"metadata,omitempty"`
	Transport           string                `json:"transport,omitempty"`
	ThinkingBudgets     map[ThinkingLevel]int `json:"thinkingBudgets,omitempty"`
	MaxRetryDelayMs     *int64                `json:"maxRetryDelayMs,omitempty"`
}

// wireOptions returns the options of o that go on the wire; zero values are
// left out, as JSON.stringify leaves out undefined ones.
func wireOptions(o StreamOptions) proxyOptions {
	w := proxyOptions{
		Temperature:     o.Temperature,
		Reasoning:       o.Reasoning,
		SessionID:       o.SessionID,
		Headers:         o.Headers,
		Transport:       o.Transport,
		ThinkingBudgets: o.ThinkingBudgets,
		SamplingParams:  o.SamplingParams,
		Metadata:        o.Metadata,
	}
	if o.CacheRetention != "" {
		w.CacheRetention, _ = json.Marshal(o.CacheRetention)
	}
	if o.DisableContinuation {
		w.DisableContinuation = json.RawMessage("true")
	}
	if o.MaxTokens > 0 {
		n := o.MaxTokens
		w.MaxTokens = &n
	}
	if o.MaxRetryDelay != 0 {
		ms := max(o.MaxRetryDelay.Milliseconds(), 0) // pi's 0 is no cap
		w.MaxRetryDelayMs = &ms
	}
	return w
}

// streamOptions returns the stream options w carries; APIKey stays empty.
func (w proxyOptions) streamOptions() StreamOptions {
	o := StreamOptions{
		Reasoning:       w.Reasoning,
		SessionID:       w.SessionID,
		Temperature:     w.Temperature,
		Headers:         w.Headers,
		ThinkingBudgets: w.ThinkingBudgets,
		Transport:       w.Transport,
		SamplingParams:  w.SamplingParams,
		Metadata:        w.Metadata,
	}
	_ = json.Unmarshal(w.CacheRetention, &o.CacheRetention)
	_ = json.Unmarshal(w.DisableContinuation, &o.DisableContinuation)
	if w.MaxTokens != nil && *w.MaxTokens > 0 {
		o.MaxTokens = *w.MaxTokens
	}
	switch ms := w.MaxRetryDelayMs; {
	case ms == nil:
	case *ms <= 0:
		o.MaxRetryDelay = -1 // pi's 0: no cap
	default:
		o.MaxRetryDelay = time.Duration(min(*ms, math.MaxInt64/int64(time.Millisecond))) * time.Millisecond
	}
	return o
}

// proxyEvent is one event on the wire: an [AssistantEvent] without its
// partial message. Pointer fields distinguish absent from zero.
type proxyEvent struct {
	Type                  string          `json:"type"`
	ContentIndex          *int            `json:"contentIndex,omitempty"`
	Delta                 *string         `json:"delta,omitempty"`
	ContentSignature      string          `json:"contentSignature,omitempty"`
	ID                    *string         `json:"id,omitempty"`
	ToolName              *string         `json:"toolName,omitempty"`
	ToolCall              json.RawMessage `json:"toolCall,omitempty"`
	Reason                StopReason      `json:"reason,omitempty"`
	ErrorMessage          *string         `json:"errorMessage,omitempty"`
	Usage                 *proxyUsage     `json:"usage,omitempty"`
	ProviderThinkingLevel *string         `json:"providerThinkingLevel,omitempty"`
}

// proxyUsage is the usage of a done or error event. It is written as the
// [Usage] it holds; reading it clamps what the server sent as the
// providers of this module clamp a provider's usage: counts to
// 0…math.MaxInt64 ([limit.Count]) and costs to 0…math.MaxFloat64, so
// that no count sent out of range fails the event or turns a total
// negative.
type proxyUsage struct{ Usage }

func (u *proxyUsage) UnmarshalJSON(data []byte) error {
	var w struct {
		Input        json.Number  `json:"input"`
		Output       json.Number  `json:"output"`
		CacheRead    json.Number  `json:"cacheRead"`
		CacheWrite   json.Number  `json:"cacheWrite"`
		CacheWrite1h *json.Number `json:"cacheWrite1h"`
		Reasoning    *json.Number `json:"reasoning"`
		TotalTokens  json.Number  `json:"totalTokens"`
		Cost         struct {
			Input             json.Number `json:"input"`
			Output            json.Number `json:"output"`
			CacheRead         json.Number `json:"cacheRead"`
			CacheWrite        json.Number `json:"cacheWrite"`
			Total             json.Number `json:"total"`
			TotalFromProvider *bool       `json:"totalFromProvider"`
		} `json:"cost"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	count := func(n json.Number) int64 { return limit.Count(number(n)) }
	optional := func(n *json.Number) *int64 {
		if n == nil {
			return nil
		}
		return new(count(*n))
	}
	cost := func(n json.Number) float64 { return min(max(number(n), 0), math.MaxFloat64) }
	u.Usage = Usage{
		Input: count(w.Input), Output: count(w.Output), CacheRead: count(w.CacheRead), CacheWrite: count(w.CacheWrite),
		CacheWrite1h: optional(w.CacheWrite1h), Reasoning: optional(w.Reasoning), TotalTokens: count(w.TotalTokens),
		Cost: Cost{
			Input: cost(w.Cost.Input), Output: cost(w.Cost.Output), CacheRead: cost(w.Cost.CacheRead),
			CacheWrite: cost(w.Cost.CacheWrite), Total: cost(w.Cost.Total), TotalFromProvider: w.Cost.TotalFromProvider,
		},
	}
	return nil
}

// number is the value of a JSON number, ±Inf past float64's range; 0 when
// absent.
func number(n json.Number) float64 {
	f, _ := strconv.ParseFloat(string(n), 64)
	return f
}

// decodeProxyEvent decodes one wire event into e with dec, emptying e
// first.
func decodeProxyEvent(dec *jsondec.Decoder, data []byte, e *proxyEvent) error {
	*e = proxyEvent{}
	return dec.Decode(data, e)
}

// deref returns *s, or "" when s is nil.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// encodeProxyEvent returns the wire JSON of ev, as a pi proxy server sends
// it: the partial is dropped, and what the client needs from it (a block's
// signature at its end, a tool call's id and name at its start, usage and
// the error text at the end) is sent instead. ok is false for an event
// that has no wire form.
func encodeProxyEvent(ev AssistantEvent) (data []byte, ok bool, err error) {
	var w proxyEvent
	w.Type = ev.Type()
	switch e := ev.(type) {
	case *StartEvent:
	case *TextStartEvent:
		w.ContentIndex = &e.ContentIndex
	case *TextDeltaEvent:
		w.ContentIndex, w.Delta = &e.ContentIndex, &e.Delta
	case *TextEndEvent:
		w.ContentIndex = &e.ContentIndex
		w.ContentSignature = textStream.signature(e.Partial, e.ContentIndex)
	case *ThinkingStartEvent:
		w.ContentIndex = &e.ContentIndex
	case *ThinkingDeltaEvent:
		w.ContentIndex, w.Delta = &e.ContentIndex, &e.Delta
	case *ThinkingEndEvent:
		w.ContentIndex = &e.ContentIndex
		w.ContentSignature = thinkingStream.signature(e.Partial, e.ContentIndex)
	case *ToolCallStartEvent:
		w.ContentIndex = &e.ContentIndex
		b, _ := blockAt(e.Partial, e.ContentIndex).(ToolCall)
		w.ID, w.ToolName = &b.ID, &b.Name
	case *ToolCallDeltaEvent:
		w.ContentIndex, w.Delta = &e.ContentIndex, &e.Delta
	case *ToolCallEndEvent:
		w.ContentIndex = &e.ContentIndex
		if w.ToolCall, err = json.Marshal(e.ToolCall); err != nil {
			return nil, false, err
		}
	case *DoneEvent:
		w.finalFields(e.Reason, e.Message, false)
	case *ErrorEvent:
		w.finalFields(e.Reason, e.Message, true)
	default:
		return nil, false, nil
	}
	data, err = json.Marshal(w)
	return data, err == nil, err
}

// finalFields fills the fields of a done or error event from its message.
func (w *proxyEvent) finalFields(reason StopReason, msg *AssistantMessage, failed bool) {
	var m AssistantMessage
	if msg != nil {
		m = *msg
	}
	if reason == "" {
		reason = m.StopReason
	}
	w.Reason = reason
	w.Usage = &proxyUsage{m.Usage}
	if failed {
		w.ErrorMessage = &m.ErrorMessage
	}
	if m.ProviderThinkingLevel != "" {
		w.ProviderThinkingLevel = &m.ProviderThinkingLevel
	}
}

// blockAt returns block i of msg's content, or nil.
func blockAt(msg *AssistantMessage, i int) ContentBlock {
	if msg == nil || i < 0 || i >= len(msg.Content) {
		return nil
	}
	return msg.Content[i]
}
