package mistral

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/limit"
	"github.com/pi-go/agentcore/internal/provider"
	"github.com/pi-go/agentcore/internal/sse"
)

// wireChunk is one streamed completion chunk, its parts kept raw to be
// read as pi-ai reads them.
type wireChunk struct {
	ID      string            `json:"id"`
	Choices []json.RawMessage `json:"choices"`
	Usage   json.RawMessage   `json:"usage"`
}

type wireChoice struct {
	FinishReason *string         `json:"finish_reason"`
	Delta        json.RawMessage `json:"delta"`
}

type wireDelta struct {
	Content   json.RawMessage `json:"content"`
	ToolCalls []wireCallDelta `json:"tool_calls"`
}

type wireCallDelta struct {
	ID       *string  `json:"id"`
	Index    *float64 `json:"index"`
	Function struct {
		Name      string          `json:"name"`
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
	PromptTokens          float64  `json:"prompt_tokens"`
	CompletionTokens      float64  `json:"completion_tokens"`
	TotalTokens           float64  `json:"total_tokens"`
	PromptTokensDetailsJS *details `json:"promptTokensDetails"`
	PromptTokensDetails   *details `json:"prompt_tokens_details"`
	PromptTokenDetailsJS  *details `json:"promptTokenDetails"`
	PromptTokenDetails    *details `json:"prompt_token_details"`
	NumCachedTokensJS     *float64 `json:"numCachedTokens"`
	NumCachedTokens       *float64 `json:"num_cached_tokens"`
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

// decoder turns the chunks of one response into assistant stream events
// with a [provider.Builder], building the message as pi-ai does: one text
// or thinking block open at a time (the other kind, or a tool call, ends
// it), tool calls found by their stream index (else their ID) and ended,
// in order, after it when the stream ends.
type decoder struct {
	b       *provider.Builder
	model   agentcore.Model
	cur     *provider.Block // the open text or thinking block
	calls   map[string]*provider.Block
	observe func(json.RawMessage) error
}

// Event handles one server-sent event: a [provider.Decoder].
func (d *decoder) Event(ev sse.Event) (bool, *provider.Failure) {
	done, text := d.event(ev.Data)
	if text != "" {
		return done, provider.TextFailure(text)
	}
	return done, nil
}

// event handles the data of one event. It reports done at [DONE], and
// the error text of data that fails the response.
func (d *decoder) event(data []byte) (done bool, failure string) {
	data = bytes.TrimSpace(data)
	switch {
	case len(data) == 0:
		return false, ""
	case string(data) == "[DONE]":
		return true, ""
	}
	data = dropLoneSurrogates(data)
	var c wireChunk
	if err := json.Unmarshal(data, &c); err != nil || c.Choices == nil {
		if !json.Valid(data) {
			return false, MalformedChunkPrefix + ": " + parseError(data)
		}
		return false, InvalidEventText
	}
	if d.observe != nil {
		if err := d.observe(data); err != nil {
			return false, err.Error()
		}
	}
	return false, d.chunk(&c)
}

// parseError describes why data is no JSON.
func parseError(data []byte) string {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err.Error()
	}
	return "invalid JSON"
}

// chunk applies one chunk: its ID, usage, finish reason and delta.
func (d *decoder) chunk(c *wireChunk) string {
	if d.b.Out.ResponseID == "" {
		d.b.Out.ResponseID = c.ID
	}
	if len(c.Usage) > 0 && string(c.Usage) != "null" {
		var u wireUsage
		if json.Unmarshal(c.Usage, &u) == nil {
			d.usage(&u)
		}
	}
	if len(c.Choices) == 0 {
		return ""
	}
	var ch wireChoice
	if json.Unmarshal(c.Choices[0], &ch) != nil || string(c.Choices[0]) == "null" {
		return "Cannot read properties of null (reading 'finish_reason')"
	}
	if r := ch.FinishReason; r != nil && *r != "" {
		out := d.b.Out
		out.RawStopReason = *r
		out.StopReason, out.ErrorMessage = mapFinishReason(*r, out.ErrorMessage)
	}
	if len(ch.Delta) == 0 || string(ch.Delta) == "null" {
		return "Cannot read properties of undefined (reading 'content')"
	}
	var dl wireDelta
	if json.Unmarshal(ch.Delta, &dl) != nil {
		return ""
	}
	if !d.content(dl.Content) {
		return ""
	}
	for i := range dl.ToolCalls {
		if !d.toolCall(&dl.ToolCalls[i]) {
			return ""
		}
	}
	return ""
}

// usage applies a chunk's usage, as pi-ai counts it: the cached tokens
// (at most the prompt's) out of the input, the total as reported else
// summed.
func (d *decoder) usage(w *wireUsage) {
	prompt := limit.Count(float64(w.PromptTokens))
	cached := min(prompt, limit.Count(w.cached()))
	u := &d.b.Out.Usage
	u.Input = prompt - cached
	u.Output = limit.Count(float64(w.CompletionTokens))
	u.CacheRead, u.CacheWrite = cached, 0
	u.TotalTokens = limit.Count(float64(w.TotalTokens))
	if u.TotalTokens == 0 {
		u.TotalTokens = limit.Sum(u.Input, u.Output, u.CacheRead)
	}
	rates := d.model.Cost
	u.Cost.Input = rates.Input / 1000000 * float64(u.Input)
	u.Cost.Output = rates.Output / 1000000 * float64(u.Output)
	u.Cost.CacheRead = rates.CacheRead / 1000000 * float64(u.CacheRead)
	u.Cost.CacheWrite = 0
	u.Cost.Total = u.Cost.Input + u.Cost.Output + u.Cost.CacheRead + u.Cost.CacheWrite
	u.Cost.TotalFromProvider = new(false)
}

// mapFinishReason maps a finish reason onto a stop reason and the error
// text it sets (prev, the message's, when none).
func mapFinishReason(reason, prev string) (agentcore.StopReason, string) {
	switch reason {
	case "stop":
		return agentcore.StopStop, prev
	case "length", "model_length":
		return agentcore.StopLength, prev
	case "tool_calls":
		return agentcore.StopToolUse, prev
	case "error":
		return agentcore.StopError, providerStoppedPrefix + "error (server error)"
	}
	return agentcore.StopError, providerStoppedPrefix + reason
}

// content applies a delta's content: a string, or a list of strings,
// text items and thinking items; empty pieces open no block. It reports
// false once the consumer stopped or the content cap was reached.
func (d *decoder) content(raw json.RawMessage) bool {
	if len(raw) == 0 || string(raw) == "null" {
		return true
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return d.delta(false, s)
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return true
	}
	for _, item := range items {
		if json.Unmarshal(item, &s) == nil {
			if !d.delta(false, s) {
				return false
			}
			continue
		}
		var it contentItem
		if json.Unmarshal(item, &it) != nil {
			continue
		}
		ok := true
		switch it.Type {
		case "thinking":
			var b strings.Builder
			for _, p := range it.Thinking {
				b.WriteString(p.Text)
			}
			ok = d.delta(true, b.String())
		case "text":
			ok = d.delta(false, it.Text)
		}
		if !ok {
			return false
		}
	}
	return true
}

// delta appends piece to the open block of its kind (thinking or text),
// ending the open block of the other kind and opening one first when
// needed.
func (d *decoder) delta(thinking bool, piece string) bool {
	if piece == "" {
		return true
	}
	if d.cur != nil && d.cur.IsThinking() != thinking && !d.endBlock() {
		return false
	}
	if d.cur == nil {
		if thinking {
			d.cur = d.b.OpenThinking(agentcore.ThinkingBlock{})
		} else {
			d.cur = d.b.OpenText(agentcore.TextBlock{})
		}
		if d.cur == nil || d.b.Stopped() {
			return false
		}
	}
	return d.b.AppendText(d.cur, piece)
}

// endBlock ends the open text or thinking block.
func (d *decoder) endBlock() bool {
	blk := d.cur
	d.cur = nil
	return blk == nil || d.b.End(blk)
}

// toolCall applies one entry of a delta's tool_calls: it ends the open
// block, finds or opens the call's block (by its stream index, else its
// ID; a missing or "null" ID is made up from the index), and appends the
// arguments piece (an object's JSON when the server sent an object).
func (d *decoder) toolCall(tc *wireCallDelta) bool {
	if !d.endBlock() {
		return false
	}
	index := 0.0
	if tc.Index != nil {
		index = *tc.Index
	}
	id := ""
	if tc.ID != nil && *tc.ID != "" && *tc.ID != "null" {
		id = *tc.ID
	} else {
		id = deriveToolCallID("toolcall:"+jsNumber(index), 0)
	}
	key := "id:" + id
	if tc.Index != nil {
		key = "index:" + jsNumber(index)
	}
	blk, ok := d.calls[key]
	if !ok {
		if blk = d.b.OpenToolCall(agentcore.ToolCall{ID: id, Name: tc.Function.Name}, ""); blk == nil || d.b.Stopped() {
			return false
		}
		d.calls[key] = blk
	}
	return d.b.AppendArguments(blk, argumentsPiece(tc.Function.Arguments))
}

// argumentsPiece is the text of an arguments piece: a string as is, any
// other value as its JSON ("{}" for none, null or false).
func argumentsPiece(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	switch t := string(bytes.TrimSpace(raw)); t {
	case "", "null", "false", "0", `""`:
		return "{}"
	default:
		var b bytes.Buffer
		if json.Compact(&b, raw) != nil {
			return "{}"
		}
		return b.String()
	}
}

// jsNumber writes n as JavaScript writes a number in a string.
func jsNumber(n float64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// finish ends the open block, then every tool call in the order they
// opened, as pi-ai does once the stream ended. It reports false when the
// consumer stopped.
func (d *decoder) finish() bool {
	return d.endBlock() && d.b.EndAll()
}

// dropLoneSurrogates removes from JSON text the \u escapes of UTF-16
// surrogates that are not part of a pair, as pi-ai drops lone surrogates
// from the text it streams (Go would decode each as U+FFFD).
func dropLoneSurrogates(data []byte) []byte {
	if !bytes.Contains(data, []byte(`\u`)) {
		return data
	}
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		c := data[i]
		if c != '\\' || i+1 >= len(data) {
			out = append(out, c)
			continue
		}
		r, ok := escape(data, i)
		switch {
		case !ok || r < 0xd800 || r >= 0xe000:
			out = append(out, data[i], data[i+1]) // any other escape, kept whole
			i++
			continue
		case r < 0xdc00:
			if lo, ok := escape(data, i+6); ok && lo >= 0xdc00 && lo < 0xe000 {
				out = append(out, data[i:i+12]...)
				i += 11
				continue
			}
		}
		i += 5 // a lone surrogate: dropped
	}
	return out
}

// escape reads the \uXXXX escape at data[i:], if there is one.
func escape(data []byte, i int) (rune, bool) {
	if i+6 > len(data) || data[i] != '\\' || data[i+1] != 'u' {
		return 0, false
	}
	n, err := strconv.ParseUint(string(data[i+2:i+6]), 16, 32)
	return rune(n), err == nil
}
