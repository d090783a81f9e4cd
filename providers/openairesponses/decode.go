package openairesponses

import (
	"encoding/json"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/jsondec"
	"github.com/pi-go/agentcore/internal/jsonv"
	"github.com/pi-go/agentcore/internal/jsvalue"
	"github.com/pi-go/agentcore/internal/provider"
)

// The kinds of output item this package shows as a content block.
const (
	kindThinking = "reasoning"
	kindText     = "message"
	kindCall     = "function_call"
)

// slot is an output item that is streaming: its kind and content block.
type slot struct {
	*provider.Block
	kind  string // kindThinking, kindText or kindCall
	ended bool   // a call whose output_item.done arrived
}

// decoder turns the events of one response into assistant stream events,
// building the message as pi-ai's processResponsesStream does: one block
// per reasoning, message and function-call item, opened when the item is
// added (or done, if it was never added), ended when it is done, found by
// the item's output_index in between.
type decoder struct {
	b     *provider.Builder
	model agentcore.Model

	// serviceTier is the tier asked for, for pricing when the response
	// names none.
	serviceTier string
	// flatPrice prices every response at the default tier (Azure).
	flatPrice bool
	// hint adds to an error text the hint of a usage limit it names.
	hint func(string) string

	// observe, when not nil, sees the JSON of each event before it is
	// applied; an error ends the response.
	observe func(json.RawMessage) error

	slots map[slotKey]*slot // open items by output_index
	calls []*slot           // every tool call, in content order
	// unsigned maps the ID of a reasoning item that ended without
	// encrypted content to its block, for the content a terminal response
	// may add.
	unsigned map[string]int

	// ev is the event being applied, reused for each, and dec decodes
	// every event's data.
	ev  event
	dec jsondec.Decoder

	// terminal is set once a response.completed, response.incomplete or
	// response.failed arrived.
	terminal bool
}

// apply applies one event, whose JSON is data; it returns the error text
// that ends the response, "" when none. An event without the item or
// response its type needs fails as pi-ai's JavaScript does.
func (d *decoder) apply(ev *event, data []byte) string {
	switch ev.Type {
	case "response.created":
		if ev.Response == nil {
			return undefinedText("id")
		}
		d.b.Out.ResponseID = ev.Response.ID
	case "response.output_item.added", "response.output_item.done":
		return d.item(ev, data)
	case "response.reasoning_summary_text.delta", "response.reasoning_text.delta", "response.reasoning_summary_part.done",
		"response.output_text.delta", "response.refusal.delta":
		d.textDelta(ev)
	case "response.function_call_arguments.delta", "response.function_call_arguments.done":
		d.arguments(ev)
	case "response.completed", "response.incomplete", "response.failed", "error":
		return d.terminalEvent(ev)
	}
	return ""
}

// item applies output_item.added and output_item.done.
func (d *decoder) item(ev *event, data []byte) string {
	switch {
	case ev.Item == nil:
		return undefinedText("type")
	case ev.Type == "response.output_item.added":
		d.open(ev.key, ev.Item)
	default:
		d.done(ev.key, ev.Item, data)
	}
	return ""
}

// terminalEvent applies the events that end the response.
func (d *decoder) terminalEvent(ev *event) string {
	switch ev.Type {
	case "response.completed", "response.incomplete":
		if ev.Response == nil {
			return undefinedText("output")
		}
		return d.finalize(ev.Response)
	case "response.failed":
		d.terminal = true
		r := ev.Response
		if r == nil {
			r = &response{}
		}
		d.b.Out.RawStopReason = r.Status
		return failedText(r)
	}
	return "Error Code " + jsvalue.Template(ev.Code) + ": " + jsvalue.Template(ev.Message)
}

// undefinedText is JavaScript's error for reading a property of a
// missing value.
func undefinedText(property string) string {
	return "Cannot read properties of undefined (reading '" + property + "')"
}

// slot returns the open item at the event's output_index when it is of
// kind, else nil.
func (d *decoder) slot(ev *event, kind string) *slot {
	if s := d.slots[ev.key]; s != nil && s.kind == kind {
		return s
	}
	return nil
}

// open opens the block of an item at key (replacing any open there); an
// item of another type opens none. It returns the item's slot.
func (d *decoder) open(key slotKey, it *item) *slot {
	var blk *provider.Block
	switch it.Type {
	case kindThinking:
		blk = d.b.Open(agentcore.ThinkingBlock{})
	case kindText:
		d.finalAnswer(it)
		blk = d.b.Open(agentcore.TextBlock{})
	case kindCall:
		call := agentcore.ToolCall{ID: deref(it.CallID, "undefined") + "|" + deref(it.ID, "undefined"), Name: it.Name}
		if it.Namespace != nil {
			call.Namespace = *it.Namespace
		}
		blk = d.b.OpenToolCall(call, it.Arguments)
	}
	if blk == nil {
		return nil
	}
	s := &slot{Block: blk, kind: it.Type}
	d.slots[key] = s
	if it.Type == kindCall {
		d.calls = append(d.calls, s)
	}
	return s
}

// finalAnswer marks the message done when a message item is the final
// answer, as pi-ai does while it streams.
func (d *decoder) finalAnswer(it *item) {
	if it.Type == kindText && it.Phase == "final_answer" {
		d.b.Out.StopReason = agentcore.StopStop
	}
}

// textDelta appends an event's text to the text or thinking of its open
// item: a summary part's end adds a blank line.
func (d *decoder) textDelta(ev *event) {
	kind, delta := kindText, ev.Delta
	switch ev.Type {
	case "response.reasoning_summary_part.done":
		kind, delta = kindThinking, "\n\n"
	case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
		kind = kindThinking
	}
	if s := d.slot(ev, kind); s != nil {
		d.b.AppendText(s.Block, delta)
	}
}

// arguments applies a piece of a call's arguments, or their whole text.
func (d *decoder) arguments(ev *event) {
	s := d.slot(ev, kindCall)
	switch {
	case s == nil:
	case ev.Type == "response.function_call_arguments.delta":
		d.b.AppendArguments(s.Block, ev.Delta)
	case ev.Arguments != nil:
		d.b.ReplaceArguments(s.Block, *ev.Arguments)
	}
}

// done ends the block of an item at key, opening it first when it was
// never added: thinking takes the item's summary (else its content, else
// the text streamed) and the item's JSON as its signature; text takes the
// item's text and refusals and its ID and phase as its signature; a call
// takes its final arguments, parsed.
func (d *decoder) done(key slotKey, it *item, data []byte) {
	d.finalAnswer(it)
	s := d.slots[key]
	if s == nil {
		if s = d.open(key, it); s == nil {
			return
		}
	}
	if s.kind != it.Type {
		return
	}
	delete(d.slots, key)
	switch s.kind {
	case kindThinking:
		d.doneThinking(s, it, data)
	case kindText:
		sig, _ := json.Marshal(textSignature{V: 1, ID: it.ID, Phase: it.Phase})
		if !d.b.Take(len(sig)) || !d.b.SetText(s.Block, joinParts(it.Content, true)) {
			return
		}
		b := d.b.Out.Content[s.Index].(agentcore.TextBlock)
		b.TextSignature = string(sig)
		d.b.Out.Content[s.Index] = b
		d.b.End(s.Block)
	case kindCall:
		if it.Arguments != "" && !d.b.SetArguments(s.Block, it.Arguments) {
			return
		}
		if it.Namespace != nil {
			b := d.b.Out.Content[s.Index].(agentcore.ToolCall)
			b.Namespace = *it.Namespace
			d.b.Out.Content[s.Index] = b
		}
		s.ended = true
		d.b.End(s.Block)
	}
}

// doneThinking ends a reasoning item's block.
func (d *decoder) doneThinking(s *slot, it *item, data []byte) {
	thinking := firstNonEmpty(joinParts(it.Summary, false), joinParts(it.Content, false), s.Text())
	var raw struct {
		Item lazyRaw `json:"item"`
	}
	json.Unmarshal(data, &raw)
	sig, err := jsonv.Stringify(raw.Item, "")
	if !d.b.Take(len(sig)) || !d.b.SetText(s.Block, thinking) {
		return
	}
	if err == nil {
		b := d.b.Out.Content[s.Index].(agentcore.ThinkingBlock)
		b.ThinkingSignature = sig
		d.b.Out.Content[s.Index] = b
	}
	switch {
	case it.ID == nil:
	case jsvalue.Truthy(it.EncryptedContent):
		delete(d.unsigned, *it.ID)
	default:
		d.unsigned[*it.ID] = s.Index
	}
	d.b.End(s.Block)
}

// joinParts joins the texts of parts: a reasoning item's, with blank
// lines between them, or a message's (text, else refusal), run together.
func joinParts(parts []itemPart, message bool) string {
	texts := make([]string, len(parts))
	for i, p := range parts {
		texts[i] = p.Text
		if message && p.Type != "output_text" {
			texts[i] = p.Refusal
		}
	}
	if message {
		return strings.Join(texts, "")
	}
	return strings.Join(texts, "\n\n")
}

// unfinishedCall returns the first tool call whose output_item.done never
// arrived, nil when none.
func (d *decoder) unfinishedCall() *agentcore.ToolCall {
	for _, s := range d.calls {
		if !s.ended {
			b := d.b.Out.Content[s.Index].(agentcore.ToolCall)
			return &b
		}
	}
	return nil
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

func deref(p *string, def string) string {
	if p == nil {
		return def
	}
	return *p
}
