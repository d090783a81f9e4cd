package mistral

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/jsondec"
	"github.com/pi-go/agentcore/internal/limit"
	"github.com/pi-go/agentcore/internal/pricing"
	"github.com/pi-go/agentcore/internal/provider"
	"github.com/pi-go/agentcore/internal/sse"
)

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

	// c is the chunk being applied and items the content list being
	// read, reused from one event to the next; dec decodes them.
	c     wireChunk
	items []json.RawMessage
	dec   jsondec.Decoder
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
// the error text of data that fails the response: data that is no JSON,
// or JSON that is no chunk (an object with a list of choices).
func (d *decoder) event(data []byte) (done bool, failure string) {
	data = bytes.TrimSpace(data)
	switch {
	case len(data) == 0:
		return false, ""
	case string(data) == "[DONE]":
		return true, ""
	}
	data = dropLoneSurrogates(data)
	c := d.c.reset()
	err := d.dec.Decode(data, c)
	if _, typeErr := errors.AsType[*json.UnmarshalTypeError](err); err != nil && !typeErr {
		return false, MalformedChunkPrefix + ": " + err.Error()
	}
	if c.Choices == nil {
		return false, InvalidEventText
	}
	if d.observe != nil {
		if err := d.observe(data); err != nil {
			return false, err.Error()
		}
	}
	return false, d.chunk(c)
}

// chunk applies one chunk: its ID, usage, finish reason and delta.
func (d *decoder) chunk(c *wireChunk) string {
	out := d.b.Out
	if out.ResponseID == "" {
		out.ResponseID = c.ID
	}
	if c.Usage != nil {
		d.usage(c.Usage)
	}
	if len(c.Choices) == 0 {
		return ""
	}
	ch := &c.Choices[0]
	if r := ch.FinishReason; r != "" {
		out.RawStopReason = r
		out.StopReason, out.ErrorMessage = mapFinishReason(r, out.ErrorMessage)
	}
	if ch.Delta == nil {
		return "Cannot read properties of undefined (reading 'content')"
	}
	if !d.content(ch.Delta.Content) {
		return ""
	}
	for i := range ch.Delta.ToolCalls {
		if !d.toolCall(&ch.Delta.ToolCalls[i]) {
			return ""
		}
	}
	return ""
}

// usage applies a chunk's usage, as pi-ai counts it: the cached tokens
// (at most the prompt's) out of the input, the total as reported else
// summed, priced at the model's rates ([pricing.Cost]).
func (d *decoder) usage(w *wireUsage) {
	prompt := w.PromptTokens.Count()
	cached := min(prompt, limit.Count(w.cached()))
	u := &d.b.Out.Usage
	u.Input = prompt - cached
	u.Output = w.CompletionTokens.Count()
	u.CacheRead, u.CacheWrite = cached, 0
	u.TotalTokens = w.TotalTokens.Count()
	if u.TotalTokens == 0 {
		u.TotalTokens = limit.Sum(u.Input, u.Output, u.CacheRead)
	}
	u.Cost = pricing.Cost(d.model, *u)
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
	if s, ok := jsonString(raw); ok {
		return d.delta(false, s)
	}
	if len(raw) == 0 || raw[0] != '[' {
		return true
	}
	d.items = d.items[:0]
	if d.dec.Decode(raw, &d.items) != nil {
		return true
	}
	for _, item := range d.items {
		if s, ok := jsonString(item); ok {
			if !d.delta(false, s) {
				return false
			}
			continue
		}
		var it contentItem
		if d.dec.Decode(item, &it) != nil {
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
		var block agentcore.ContentBlock = agentcore.TextBlock{}
		if thinking {
			block = agentcore.ThinkingBlock{}
		}
		d.cur = d.b.Open(block)
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
		index = float64(*tc.Index)
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
	if s, ok := jsonString(raw); ok {
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
