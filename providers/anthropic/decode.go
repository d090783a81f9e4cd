package anthropic

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/jsondec"
	"github.com/pi-go/agentcore/internal/limit"
	"github.com/pi-go/agentcore/internal/partialjson"
	"github.com/pi-go/agentcore/internal/provider"
	"github.com/pi-go/agentcore/internal/sse"
)

// decoder turns the events of one response into assistant stream events,
// building the message as pi-ai does: each content block starts, grows and
// ends with the server's block of the same index; thinking signatures
// accumulate without events; tool-call arguments show as partial values
// while they stream and are parsed for good when their block ends.
type decoder struct {
	b     *provider.Builder
	model agentcore.Model

	// openRouter says the model is served through OpenRouter, whose
	// billed cost replaces the computed one.
	openRouter bool

	// observe, when not nil, sees each parsed event's data first; an
	// error ends the response.
	observe func(json.RawMessage) error

	// open maps a server block index to its open block.
	open map[int]*provider.Block

	// started and ended are set by message_start and message_stop.
	started, ended bool

	// ev is the event being applied, reused from one event to the next,
	// and dec decodes it.
	ev  event
	dec jsondec.Decoder
}

// messageEvents are the names of the events that build the message; an
// event of another name (ping, an unknown one) is skipped unread.
var messageEvents = map[string]bool{
	"message_start": true, "message_delta": true, "message_stop": true,
	"content_block_start": true, "content_block_delta": true, "content_block_stop": true,
}

// parseEvent decodes the data of the event named name into ev with dec,
// as pi-ai reads it: as JSON, else as JSON after [partialjson.Repair]. Data that is
// neither, or JSON of another shape, is a failure. It returns the JSON it
// read.
func parseEvent(dec *jsondec.Decoder, name string, data []byte, ev *event) ([]byte, *provider.Failure) {
	err := dec.Decode(data, ev)
	if _, malformed := errors.AsType[*json.SyntaxError](err); malformed {
		if repaired := []byte(partialjson.Repair(string(data))); json.Valid(repaired) {
			data = repaired
			err = json.Unmarshal(data, ev.reset())
		}
	}
	if err != nil {
		return data, provider.TextFailure(fmt.Sprintf("%s %s: %v; data=%s", MalformedEventPrefix, name, err, limit.Truncate(string(data), limit.MaxErrorData)))
	}
	return data, nil
}

// event applies one server-sent event, told apart by its name as pi-ai
// does: an "error" event fails the response with its data as sent, the
// events of [messageEvents] are parsed and applied by the type of their
// data, and the others are skipped. It returns the failure the event ends
// the response with, if any.
func (d *decoder) Event(e sse.Event) (done bool, f *provider.Failure) {
	return false, d.event(e.Name, e.Data)
}

func (d *decoder) event(name string, data []byte) *provider.Failure {
	switch {
	case name == "error":
		return streamFailure(data)
	case !messageEvents[name]:
		return nil
	}
	ev := d.ev.reset()
	data, f := parseEvent(&d.dec, name, data, ev)
	if f != nil {
		return f
	}
	if d.observe != nil {
		if err := d.observe(data); err != nil {
			return provider.ErrFailure(err)
		}
	}
	switch ev.Type {
	case "message_start":
		d.started = true
		if ev.Message != nil {
			d.messageStart(ev.Message)
		}
	case "content_block_start":
		if ev.ContentBlock != nil {
			return d.blockStart(ev.Index, ev.ContentBlock)
		}
	case "content_block_delta":
		d.blockDelta(ev.Index, &ev.Delta)
	case "content_block_stop":
		d.blockStop(ev.Index)
	case "message_delta":
		return d.messageDelta(ev)
	case "message_stop":
		d.ended = true
	}
	return nil
}

func (d *decoder) messageStart(m *startMessage) {
	d.b.Out.ResponseID = m.ID
	if m.Model != "" && m.Model != d.model.ID {
		d.b.Out.ResponseModel = m.Model
	}
	setStartUsage(&d.b.Out.Usage, m.Usage, d.model)
}

// blockStart opens a content block. A server-side fallback block is
// allowed only before any content.
func (d *decoder) blockStart(index int, sb *startBlock) *provider.Failure {
	if !d.b.Take(len(sb.Signature) + len(sb.Data) + len(sb.Input)) {
		return nil
	}
	var blk *provider.Block
	switch sb.Type {
	case "fallback":
		if len(d.b.Out.Content) > 0 {
			return provider.TextFailure(FallbackText)
		}
		return nil
	case "text":
		blk = d.b.Open(agentcore.TextBlock{Text: sb.Text})
	case "thinking":
		blk = d.b.Open(agentcore.ThinkingBlock{Thinking: sb.Thinking, ThinkingSignature: sb.Signature})
	case "redacted_thinking":
		blk = d.b.Open(agentcore.ThinkingBlock{Thinking: redactedThinkingText, ThinkingSignature: sb.Data, Redacted: true})
	case "tool_use":
		args := sb.Input
		if !isObject(args) {
			args = nil // shown as {}
		}
		blk = d.b.OpenToolCall(agentcore.ToolCall{ID: sb.ID, Name: sb.Name, Arguments: args}, "")
	}
	if blk != nil {
		d.open[index] = blk
	}
	return nil
}

// blockDelta grows an open block; a delta of another kind than its block
// is ignored.
func (d *decoder) blockDelta(index int, delta *eventDelta) {
	blk, ok := d.open[index]
	if !ok {
		return
	}
	switch b := d.b.Out.Content[blk.Index].(type) {
	case agentcore.TextBlock:
		if delta.Type == "text_delta" {
			d.b.AppendText(blk, delta.Text)
		}
	case agentcore.ThinkingBlock:
		switch delta.Type {
		case "thinking_delta":
			d.b.AppendText(blk, delta.Thinking)
		case "signature_delta":
			if d.b.Take(len(delta.Signature)) {
				b.ThinkingSignature += delta.Signature
				d.b.Out.Content[blk.Index] = b
			}
		}
	case agentcore.ToolCall:
		if delta.Type == "input_json_delta" {
			d.b.AppendArguments(blk, delta.PartialJSON)
		}
	}
}

// blockStop ends an open block: a tool call's arguments are parsed for
// good (text that is no JSON object sets ArgumentsError).
func (d *decoder) blockStop(index int) {
	if blk, ok := d.open[index]; ok {
		delete(d.open, index)
		d.b.End(blk)
	}
}

// messageDelta takes the stop reason and the final usage.
func (d *decoder) messageDelta(ev *event) *provider.Failure {
	if ev.Delta.StopReason != "" {
		d.b.Out.RawStopReason = ev.Delta.StopReason
		stop, text, known := mapStopReason(ev.Delta.StopReason, ev.Delta.StopDetails)
		if !known {
			return provider.TextFailure(text)
		}
		d.b.Out.StopReason = stop
		if text != "" {
			d.b.Out.ErrorMessage = text
		}
	}
	applyDeltaUsage(&d.b.Out.Usage, ev.Usage, d.model)
	if d.openRouter && ev.Usage != nil {
		ev.Usage.OpenRouterCost.Apply(&d.b.Out.Usage)
	}
	return nil
}

// isObject reports whether v is a JSON object's text.
func isObject(v json.RawMessage) bool {
	for _, c := range v {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return c == '{'
	}
	return false
}
