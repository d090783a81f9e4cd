package anthropic

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/pi-go/agentcore/internal/limit"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/jsondec"
	"github.com/pi-go/agentcore/internal/partialjson"
)

// emptyArguments is the arguments of a call before any were read.
var emptyArguments = json.RawMessage("{}")

// decoder turns the events of one response into assistant stream events,
// building the message as pi-ai does: each content block starts, grows and
// ends with the server's block of the same index; thinking signatures
// accumulate without events; tool-call arguments show as partial values
// while they stream and are parsed for good when their block ends.
type decoder struct {
	w     *agentcore.StreamWriter
	model agentcore.Model
	out   *agentcore.AssistantMessage

	// openRouter says the model is served through OpenRouter, whose
	// billed cost replaces the computed one.
	openRouter bool

	// observe, when not nil, sees each parsed event's data first; an
	// error ends the response.
	observe func(json.RawMessage) error

	// budget is the content the response may still build; a block or a
	// delta that does not fit is dropped and the reader ends the response.
	budget *limit.Budget

	// open maps a server block index to the state of its open block.
	open map[int]*openBlock

	// started and ended are set by message_start and message_stop;
	// stopped once the consumer stopped reading.
	started, ended bool
	stopped        bool

	// ev is the event being applied, reused from one event to the next,
	// and dec decodes it.
	ev  event
	dec jsondec.Decoder
}

// openBlock is a block being streamed: its position in the content, its
// text so far (strings.Builder never changes bytes it handed out, so each
// partial shares them), and for a tool call the parser of its arguments.
type openBlock struct {
	index int
	text  strings.Builder
	args  *partialjson.Parser
}

func newDecoder(w *agentcore.StreamWriter, model agentcore.Model, out *agentcore.AssistantMessage) *decoder {
	return &decoder{w: w, model: model, out: out, open: map[int]*openBlock{}}
}

// push sends ev and notes when the consumer stopped.
func (d *decoder) push(ev agentcore.AssistantEvent) bool {
	if !d.stopped && !d.w.Push(ev) {
		d.stopped = true
	}
	return !d.stopped
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
func parseEvent(dec *jsondec.Decoder, name string, data []byte, ev *event) ([]byte, *failure) {
	err := dec.Decode(data, ev)
	if _, malformed := errors.AsType[*json.SyntaxError](err); malformed {
		if repaired := []byte(partialjson.Repair(string(data))); json.Valid(repaired) {
			data = repaired
			err = json.Unmarshal(data, ev.reset())
		}
	}
	if err != nil {
		f := textFailure(fmt.Sprintf("%s %s: %v; data=%s", MalformedEventPrefix, name, err, limit.Truncate(string(data), limit.MaxErrorData)))
		return data, &f
	}
	return data, nil
}

// event applies one server-sent event, told apart by its name as pi-ai
// does: an "error" event fails the response with its data as sent, the
// events of [messageEvents] are parsed and applied by the type of their
// data, and the others are skipped. It returns the failure the event ends
// the response with, if any.
func (d *decoder) event(name string, data []byte) *failure {
	switch {
	case name == "error":
		f := streamFailure(data)
		return &f
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
			return &failure{Text: err.Error(), Err: err}
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
	d.out.ResponseID = m.ID
	if m.Model != "" && m.Model != d.model.ID {
		d.out.ResponseModel = m.Model
	}
	setStartUsage(&d.out.Usage, m.Usage, d.model)
}

// blockStart opens a content block. A server-side fallback block is
// allowed only before any content.
func (d *decoder) blockStart(index int, b *startBlock) *failure {
	var block agentcore.ContentBlock
	var start agentcore.AssistantEvent
	ob := &openBlock{index: len(d.out.Content)}
	if !d.budget.Take(len(b.Text) + len(b.Thinking) + len(b.Signature) + len(b.Data) + len(b.ID) + len(b.Name) + len(b.Input)) {
		return nil
	}
	switch b.Type {
	case "fallback":
		if len(d.out.Content) > 0 {
			f := textFailure(FallbackText)
			return &f
		}
		return nil
	case "text":
		ob.text.WriteString(b.Text)
		block = agentcore.TextBlock{Text: ob.text.String()}
		start = &agentcore.TextStartEvent{ContentIndex: ob.index, Partial: d.out}
	case "thinking":
		ob.text.WriteString(b.Thinking)
		block = agentcore.ThinkingBlock{Thinking: ob.text.String(), ThinkingSignature: b.Signature}
		start = &agentcore.ThinkingStartEvent{ContentIndex: ob.index, Partial: d.out}
	case "redacted_thinking":
		ob.text.WriteString(redactedThinkingText)
		block = agentcore.ThinkingBlock{Thinking: ob.text.String(), ThinkingSignature: b.Data, Redacted: true}
		start = &agentcore.ThinkingStartEvent{ContentIndex: ob.index, Partial: d.out}
	case "tool_use":
		args := b.Input
		if !isObject(args) {
			args = emptyArguments
		}
		ob.args = &partialjson.Parser{}
		block = agentcore.ToolCall{ID: b.ID, Name: b.Name, Arguments: args}
		start = &agentcore.ToolCallStartEvent{ContentIndex: ob.index, Partial: d.out}
	default:
		return nil
	}
	d.out.Content = append(d.out.Content, block)
	d.open[index] = ob
	d.push(start)
	return nil
}

// blockDelta grows an open block; a delta of another kind than its block
// is ignored.
func (d *decoder) blockDelta(index int, delta *eventDelta) {
	ob, ok := d.open[index]
	if !ok || !d.budget.Take(len(delta.Text)+len(delta.Thinking)+len(delta.PartialJSON)+len(delta.Signature)) {
		return
	}
	switch b := d.out.Content[ob.index].(type) {
	case agentcore.TextBlock:
		if delta.Type == "text_delta" {
			ob.text.WriteString(delta.Text)
			b.Text = ob.text.String()
			d.out.Content[ob.index] = b
			d.push(&agentcore.TextDeltaEvent{ContentIndex: ob.index, Delta: delta.Text, Partial: d.out})
		}
	case agentcore.ThinkingBlock:
		switch delta.Type {
		case "thinking_delta":
			ob.text.WriteString(delta.Thinking)
			b.Thinking = ob.text.String()
			d.out.Content[ob.index] = b
			d.push(&agentcore.ThinkingDeltaEvent{ContentIndex: ob.index, Delta: delta.Thinking, Partial: d.out})
		case "signature_delta":
			b.ThinkingSignature += delta.Signature
			d.out.Content[ob.index] = b
		}
	case agentcore.ToolCall:
		if delta.Type == "input_json_delta" && ob.args != nil {
			ob.text.WriteString(delta.PartialJSON)
			ob.args.Append(delta.PartialJSON)
			b.Arguments = emptyArguments
			if snap := ob.args.Snapshot(); isObject(snap) {
				b.Arguments = snap
			}
			d.out.Content[ob.index] = b
			d.push(&agentcore.ToolCallDeltaEvent{ContentIndex: ob.index, Delta: delta.PartialJSON, Partial: d.out})
		}
	}
}

// blockStop ends an open block: a tool call's arguments are parsed for
// good (text that is no JSON object sets ArgumentsError).
func (d *decoder) blockStop(index int) {
	ob, ok := d.open[index]
	if !ok {
		return
	}
	delete(d.open, index)
	switch b := d.out.Content[ob.index].(type) {
	case agentcore.TextBlock:
		d.push(&agentcore.TextEndEvent{ContentIndex: ob.index, Content: b.Text, Partial: d.out})
	case agentcore.ThinkingBlock:
		d.push(&agentcore.ThinkingEndEvent{ContentIndex: ob.index, Content: b.Thinking, Partial: d.out})
	case agentcore.ToolCall:
		if ob.args == nil {
			return
		}
		b.Arguments, b.ArgumentsError = partialjson.Arguments(ob.text.String())
		d.out.Content[ob.index] = b
		d.push(&agentcore.ToolCallEndEvent{ContentIndex: ob.index, ToolCall: b, Partial: d.out})
	}
}

// messageDelta takes the stop reason and the final usage.
func (d *decoder) messageDelta(ev *event) *failure {
	if ev.Delta.StopReason != "" {
		d.out.RawStopReason = ev.Delta.StopReason
		stop, text, known := mapStopReason(ev.Delta.StopReason, ev.Delta.StopDetails)
		if !known {
			f := textFailure(text)
			return &f
		}
		d.out.StopReason = stop
		if text != "" {
			d.out.ErrorMessage = text
		}
	}
	applyDeltaUsage(&d.out.Usage, ev.Usage, d.model)
	if d.openRouter && ev.Usage != nil {
		ev.Usage.OpenRouterCost.Apply(&d.out.Usage)
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
