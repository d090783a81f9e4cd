package openairesponses

import (
	"encoding/json"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/jsonv"
	"github.com/pi-go/agentcore/internal/partialjson"
	"github.com/pi-go/agentcore/internal/provider"
)

// The kinds of output item this package shows as a content block.
const (
	kindThinking = "reasoning"
	kindText     = "message"
	kindCall     = "function_call"
)

// slot is an output item that is streaming: its content block's position
// and the text or arguments received so far.
type slot struct {
	kind  string // kindThinking, kindText or kindCall
	index int    // of its block in the message's content
	text  strings.Builder
	args  partialjson.ArgumentsStream
	ended bool // a call whose output_item.done arrived
	// size is the content of its block the budget was charged for.
	size int
}

// decoder turns the events of one response into assistant stream events,
// building the message as pi-ai's processResponsesStream does: one block
// per reasoning, message and function-call item, opened when the item is
// added (or done, if it was never added), ended when it is done, found by
// the item's output_index in between.
type decoder struct {
	w     *agentcore.StreamWriter
	model agentcore.Model
	out   *agentcore.AssistantMessage

	// serviceTier is the tier asked for, for pricing when the response
	// names none.
	serviceTier string
	// flatPrice prices every response at the default tier (Azure).
	flatPrice bool

	// observe, when not nil, sees the JSON of each event before it is
	// applied; an error ends the response.
	observe func(json.RawMessage) error

	slots map[slotKey]*slot // open items by output_index
	calls []*slot           // every tool call, in content order
	// unsigned maps the ID of a reasoning item that ended without
	// encrypted content to its block, for the content a terminal response
	// may add.
	unsigned map[string]int

	// budget is the content the response may still build; content that
	// does not fit is not added, and the response ends with its error.
	budget *provider.Budget

	// ev is the event being applied, reused for each.
	ev event

	// terminal is set once a response.completed, response.incomplete or
	// response.failed arrived.
	terminal bool
}

func newDecoder(w *agentcore.StreamWriter, model agentcore.Model, out *agentcore.AssistantMessage) *decoder {
	return &decoder{w: w, model: model, out: out, slots: map[slotKey]*slot{}, unsigned: map[string]int{}}
}

// push sends ev, unless the consumer stopped.
func (d *decoder) push(ev agentcore.AssistantEvent) { d.w.Push(ev) }

// apply applies one event, whose JSON is data; it returns the error text
// that ends the response, "" when none. An event without the item or
// response its type needs fails as pi-ai's JavaScript does.
func (d *decoder) apply(ev *event, data []byte) string {
	switch ev.Type {
	case "response.created":
		if ev.Response != nil {
			d.out.ResponseID = ev.Response.ID
		}
	case "response.output_item.added":
		if ev.Item == nil {
			return undefinedText("type")
		}
		d.open(ev.key, ev.Item)
	case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
		d.textDelta(ev, kindThinking, ev.Delta)
	case "response.reasoning_summary_part.done":
		d.textDelta(ev, kindThinking, "\n\n")
	case "response.output_text.delta", "response.refusal.delta":
		d.textDelta(ev, kindText, ev.Delta)
	case "response.function_call_arguments.delta":
		if s := d.slot(ev, kindCall); s != nil && d.fits(s, s.size+len(ev.Delta)) {
			d.setArguments(s, s.args.Append(ev.Delta))
			d.w.ToolCallDelta(s.index, ev.Delta, d.out)
		}
	case "response.function_call_arguments.done":
		if s := d.slot(ev, kindCall); s != nil && ev.Arguments != nil && d.fitsArguments(s, *ev.Arguments) {
			delta, _, args := s.args.Replace(*ev.Arguments)
			d.setArguments(s, args)
			if delta != "" {
				d.w.ToolCallDelta(s.index, delta, d.out)
			}
		}
	case "response.output_item.done":
		if ev.Item == nil {
			return undefinedText("type")
		}
		d.done(ev.key, ev.Item, data)
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
		d.out.RawStopReason = r.Status
		return failedText(r)
	case "error":
		return "Error Code " + jsString(ev.Code) + ": " + jsString(ev.Message)
	}
	return ""
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
	s := &slot{kind: it.Type, index: len(d.out.Content)}
	switch it.Type {
	case kindThinking:
		d.out.Content = append(d.out.Content, agentcore.ThinkingBlock{})
		d.slots[key] = s
		d.push(&agentcore.ThinkingStartEvent{ContentIndex: s.index, Partial: d.out})
	case kindText:
		d.finalAnswer(it)
		d.out.Content = append(d.out.Content, agentcore.TextBlock{})
		d.slots[key] = s
		d.push(&agentcore.TextStartEvent{ContentIndex: s.index, Partial: d.out})
	case kindCall:
		id := deref(it.CallID, "undefined") + "|" + deref(it.ID, "undefined")
		if !d.fits(s, len(id)+len(it.Name)+len(it.Arguments)) {
			return nil
		}
		args := json.RawMessage("{}")
		if it.Arguments != "" {
			args = s.args.Append(it.Arguments)
		}
		call := agentcore.ToolCall{ID: id, Name: it.Name, Arguments: args}
		if it.Namespace != nil {
			call.Namespace = *it.Namespace
		}
		d.out.Content = append(d.out.Content, call)
		d.slots[key] = s
		d.calls = append(d.calls, s)
		d.push(&agentcore.ToolCallStartEvent{ContentIndex: s.index, Partial: d.out})
	default:
		return nil
	}
	return s
}

// finalAnswer marks the message done when a message item is the final
// answer, as pi-ai does while it streams.
func (d *decoder) finalAnswer(it *item) {
	if it.Type == kindText && it.Phase == "final_answer" {
		d.out.StopReason = agentcore.StopStop
	}
}

// textDelta appends delta to the text or thinking of the open item of
// the event.
func (d *decoder) textDelta(ev *event, kind string, delta string) {
	s := d.slot(ev, kind)
	if s == nil || !d.fits(s, s.size+len(delta)) {
		return
	}
	s.text.WriteString(delta)
	if kind == kindThinking {
		b := d.out.Content[s.index].(agentcore.ThinkingBlock)
		b.Thinking = s.text.String()
		d.out.Content[s.index] = b
		d.w.ThinkingDelta(s.index, delta, d.out)
		return
	}
	d.out.Content[s.index] = agentcore.TextBlock{Text: s.text.String()}
	d.w.TextDelta(s.index, delta, d.out)
}

// setArguments shows args as the arguments of the call of s.
func (d *decoder) setArguments(s *slot, args json.RawMessage) {
	b := d.out.Content[s.index].(agentcore.ToolCall)
	b.Arguments = args
	d.out.Content[s.index] = b
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
		b := d.out.Content[s.index].(agentcore.ThinkingBlock)
		thinking := firstNonEmpty(joinParts(it.Summary, false), joinParts(it.Content, false), s.text.String())
		var raw struct {
			Item lazyRaw `json:"item"`
		}
		json.Unmarshal(data, &raw)
		sig, err := jsonv.Stringify(raw.Item, "")
		if !d.fits(s, len(thinking)+len(sig)) {
			return
		}
		b.Thinking = thinking
		if err == nil {
			b.ThinkingSignature = sig
		}
		d.out.Content[s.index] = b
		switch {
		case it.ID == nil:
		case provider.Truthy(it.EncryptedContent):
			delete(d.unsigned, *it.ID)
		default:
			d.unsigned[*it.ID] = s.index
		}
		d.push(&agentcore.ThinkingEndEvent{ContentIndex: s.index, Content: b.Thinking, Partial: d.out})
	case kindText:
		sig, _ := json.Marshal(textSignature{V: 1, ID: deref(it.ID, ""), Phase: it.Phase})
		b := agentcore.TextBlock{Text: joinParts(it.Content, true), TextSignature: string(sig)}
		if !d.fits(s, len(b.Text)+len(b.TextSignature)) {
			return
		}
		d.out.Content[s.index] = b
		d.push(&agentcore.TextEndEvent{ContentIndex: s.index, Content: b.Text, Partial: d.out})
	case kindCall:
		if it.Arguments != "" {
			if !d.fitsArguments(s, it.Arguments) {
				return
			}
			s.args.Replace(it.Arguments)
		}
		b := d.out.Content[s.index].(agentcore.ToolCall)
		b.Arguments, b.ArgumentsError = s.args.Finish()
		if it.Namespace != nil {
			b.Namespace = *it.Namespace
		}
		d.out.Content[s.index] = b
		s.ended = true
		d.push(&agentcore.ToolCallEndEvent{ContentIndex: s.index, ToolCall: b, Partial: d.out})
	}
}

// fits charges the budget for the block of s growing to n bytes of
// content and reports whether they fit; a block's charge never shrinks.
// Content that does not fit must not be added: the response then ends
// with the budget's error.
func (d *decoder) fits(s *slot, n int) bool {
	if n <= s.size {
		return true
	}
	if !d.budget.Take(n - s.size) {
		return false
	}
	s.size = n
	return true
}

// fitsArguments is [decoder.fits] for the arguments of the call of s
// replaced by text.
func (d *decoder) fitsArguments(s *slot, text string) bool {
	return d.fits(s, s.size+max(0, len(text)-len(s.args.Text())))
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
			b := d.out.Content[s.index].(agentcore.ToolCall)
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

// jsString is a JSON value as a JavaScript template literal shows it:
// "undefined" when absent.
func jsString(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "undefined"
	}
	v, err := jsonv.Parse(raw)
	if err != nil {
		return string(raw)
	}
	switch v.Kind() {
	case jsonv.String:
		return v.Str()
	case jsonv.Object:
		return "[object Object]"
	case jsonv.Array:
		parts := make([]string, len(v.Items()))
		for i, x := range v.Items() {
			if x.Kind() != jsonv.Null {
				parts[i] = jsString(json.RawMessage(x.JSON()))
			}
		}
		return strings.Join(parts, ",")
	}
	return v.JSON() // numbers, true, false and null as JavaScript writes them
}
