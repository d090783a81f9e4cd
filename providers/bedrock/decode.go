package bedrock

import (
	"encoding/base64"
	"encoding/json"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/jsondec"
	"github.com/pi-go/agentcore/internal/partialjson"
	"github.com/pi-go/agentcore/internal/provider"
)

// event is the payload of one ConverseStream event, the members of every
// event type in one struct (each type sets its own).
type event struct {
	Role              string      `json:"role"`
	ContentBlockIndex int         `json:"contentBlockIndex"`
	Start             *blockStart `json:"start"`
	Delta             *blockDelta `json:"delta"`
	StopReason        *string     `json:"stopReason"`
	Usage             *usage      `json:"usage"`
}

type blockStart struct {
	ToolUse *struct {
		ToolUseID string `json:"toolUseId"`
		Name      string `json:"name"`
	} `json:"toolUse"`
}

type blockDelta struct {
	Text    *string `json:"text"`
	ToolUse *struct {
		Input string `json:"input"`
	} `json:"toolUse"`
	ReasoningContent *struct {
		Text            string `json:"text"`
		Signature       string `json:"signature"`
		RedactedContent []byte `json:"redactedContent"` // base64 on the wire
	} `json:"reasoningContent"`
}

type usage struct {
	InputTokens           float64 `json:"inputTokens"`
	OutputTokens          float64 `json:"outputTokens"`
	TotalTokens           float64 `json:"totalTokens"`
	CacheReadInputTokens  float64 `json:"cacheReadInputTokens"`
	CacheWriteInputTokens float64 `json:"cacheWriteInputTokens"`
	CacheDetails          *[]struct {
		TTL         string  `json:"ttl"`
		InputTokens float64 `json:"inputTokens"`
	} `json:"cacheDetails"`
}

// redactedThinkingText stands in a thinking block for encrypted
// reasoning, as pi-ai shows it.
const redactedThinkingText = "[Reasoning redacted]"

// decoder turns the events of one response into assistant stream events,
// building the message as pi-ai does: a block opens with the first delta
// (text, reasoning) or start (tool use) of its server index and ends with
// that index's stop; a delta of another kind than its block is ignored;
// signatures accumulate without events; encrypted reasoning shows as
// [redactedThinkingText] and is kept, base64, as the block's signature
// once it ends.
type decoder struct {
	w     *agentcore.StreamWriter
	model agentcore.Model
	out   *agentcore.AssistantMessage

	// observe, when not nil, sees each event as {"TYPE": payload}; an
	// error ends the response.
	observe func(json.RawMessage) error

	// budget is the content the response may still build; a piece that
	// does not fit is dropped and the reader ends the response.
	budget *provider.Budget

	// open maps a server block index to its open block.
	open map[int]*openBlock

	// stopped once the consumer stopped reading.
	stopped bool

	// ev is the event being applied and start and delta its members,
	// reused from one event to the next (a member the payload lacks is
	// left zero); dec decodes it.
	ev       event
	start    blockStart
	delta    blockDelta
	dec      jsondec.Decoder
	observed []byte
}

// openBlock is a block being streamed: its position in the content, its
// text so far (strings.Builder never changes bytes it handed out, so each
// partial shares them), a tool call's arguments, and the encrypted
// reasoning of a redacted thinking block.
type openBlock struct {
	index    int
	text     strings.Builder
	args     *partialjson.ArgumentsStream
	redacted []byte
}

func newDecoder(w *agentcore.StreamWriter, model agentcore.Model, out *agentcore.AssistantMessage) *decoder {
	return &decoder{w: w, model: model, out: out, open: map[int]*openBlock{}}
}

// push sends ev and notes when the consumer stopped.
func (d *decoder) push(ev agentcore.AssistantEvent) {
	if !d.stopped && !d.w.Push(ev) {
		d.stopped = true
	}
}

// event applies one event of type name with payload data; it returns the
// failure that ends the response, nil to go on. Types pi-ai does not know
// are skipped (after the observer saw them).
func (d *decoder) event(name, data []byte) *failure {
	ev := &d.ev
	d.start, d.delta = blockStart{}, blockDelta{}
	*ev = event{Start: &d.start, Delta: &d.delta}
	if err := d.dec.Decode(data, ev); err != nil {
		f := textFailure(MalformedEventPrefix + string(name) + ": " + err.Error())
		return &f
	}
	if d.observe != nil {
		d.observed = append(append(append(append(d.observed[:0], `{"`...), name...), `":`...), data...)
		d.observed = append(d.observed, '}')
		if err := d.observe(d.observed); err != nil {
			return &failure{Text: err.Error(), Err: err}
		}
	}
	switch string(name) {
	case "messageStart":
		if ev.Role != "assistant" {
			f := textFailure(UserMessageStartText)
			return &f
		}
		d.push(&agentcore.StartEvent{Partial: d.out})
	case "contentBlockStart":
		d.blockStart(ev)
	case "contentBlockDelta":
		d.blockDelta(ev.ContentBlockIndex, ev.Delta)
	case "contentBlockStop":
		d.blockStop(ev.ContentBlockIndex)
	case "messageStop":
		d.messageStop(ev.StopReason)
	case "metadata":
		if ev.Usage != nil {
			setUsage(&d.out.Usage, ev.Usage, d.model)
		}
	}
	return nil
}

// blockStart opens a tool call; other starts open nothing.
func (d *decoder) blockStart(ev *event) {
	if ev.Start.ToolUse == nil {
		return
	}
	tu := ev.Start.ToolUse
	if !d.budget.Take(len(tu.ToolUseID) + len(tu.Name)) {
		return
	}
	ob := &openBlock{index: len(d.out.Content), args: &partialjson.ArgumentsStream{}}
	d.out.Content = append(d.out.Content, agentcore.ToolCall{ID: tu.ToolUseID, Name: tu.Name, Arguments: json.RawMessage("{}")})
	d.open[ev.ContentBlockIndex] = ob
	d.push(&agentcore.ToolCallStartEvent{ContentIndex: ob.index, Partial: d.out})
}

// blockDelta grows the block of index, opening a text or thinking block
// on its first delta.
func (d *decoder) blockDelta(index int, delta *blockDelta) {
	ob := d.open[index]
	switch {
	case delta.Text != nil:
		if !d.budget.Take(len(*delta.Text)) {
			return
		}
		if ob == nil {
			ob = d.openBlock(index, agentcore.TextBlock{})
			d.push(&agentcore.TextStartEvent{ContentIndex: ob.index, Partial: d.out})
		}
		if b, ok := d.out.Content[ob.index].(agentcore.TextBlock); ok {
			ob.text.WriteString(*delta.Text)
			b.Text = ob.text.String()
			d.out.Content[ob.index] = b
			d.push(&agentcore.TextDeltaEvent{ContentIndex: ob.index, Delta: *delta.Text, Partial: d.out})
		}
	case delta.ToolUse != nil:
		b, ok := d.blockAt(ob).(agentcore.ToolCall)
		if !ok || ob.args == nil || !d.budget.Take(len(delta.ToolUse.Input)) {
			return
		}
		b.Arguments = ob.args.Append(delta.ToolUse.Input)
		d.out.Content[ob.index] = b
		d.push(&agentcore.ToolCallDeltaEvent{ContentIndex: ob.index, Delta: delta.ToolUse.Input, Partial: d.out})
	case delta.ReasoningContent != nil:
		rc := delta.ReasoningContent
		if !d.budget.Take(len(rc.Text) + len(rc.Signature) + base64.StdEncoding.EncodedLen(len(rc.RedactedContent))) {
			return
		}
		if ob == nil {
			ob = d.openBlock(index, agentcore.ThinkingBlock{})
			d.push(&agentcore.ThinkingStartEvent{ContentIndex: ob.index, Partial: d.out})
		}
		if _, ok := d.out.Content[ob.index].(agentcore.ThinkingBlock); ok {
			d.reasoning(ob, rc.Text, rc.Signature, rc.RedactedContent)
		}
	}
}

// blockAt is the content block of ob, nil when ob is nil.
func (d *decoder) blockAt(ob *openBlock) agentcore.ContentBlock {
	if ob == nil {
		return nil
	}
	return d.out.Content[ob.index]
}

// openBlock appends b and opens it under the server's index.
func (d *decoder) openBlock(index int, b agentcore.ContentBlock) *openBlock {
	ob := &openBlock{index: len(d.out.Content)}
	d.out.Content = append(d.out.Content, b)
	d.open[index] = ob
	return ob
}

// reasoning grows the thinking block of ob: its text, its signature (not
// once it holds encrypted reasoning), and its encrypted reasoning, which
// turns the block redacted.
func (d *decoder) reasoning(ob *openBlock, text, sig string, redacted []byte) {
	b := d.out.Content[ob.index].(agentcore.ThinkingBlock)
	if text != "" {
		ob.text.WriteString(text)
		b.Thinking = ob.text.String()
		d.out.Content[ob.index] = b
		d.push(&agentcore.ThinkingDeltaEvent{ContentIndex: ob.index, Delta: text, Partial: d.out})
	}
	if sig != "" && !b.Redacted {
		b.ThinkingSignature += sig
	}
	if len(redacted) > 0 {
		if !b.Redacted {
			b.Redacted, b.ThinkingSignature = true, ""
			ob.text.WriteString(redactedThinkingText)
			b.Thinking = ob.text.String()
			d.out.Content[ob.index] = b
			d.push(&agentcore.ThinkingDeltaEvent{ContentIndex: ob.index, Delta: redactedThinkingText, Partial: d.out})
		}
		ob.redacted = append(ob.redacted, redacted...)
	}
	d.out.Content[ob.index] = b
}

// blockStop ends the open block of index: a tool call's arguments are
// parsed for good (text that is no JSON object sets ArgumentsError), a
// redacted thinking block takes its encrypted reasoning as signature.
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
		d.flushRedacted(ob)
		d.push(&agentcore.ThinkingEndEvent{ContentIndex: ob.index, Content: b.Thinking, Partial: d.out})
	case agentcore.ToolCall:
		var errText string
		b.Arguments, errText = ob.args.Finish()
		b.ArgumentsError = errText
		d.out.Content[ob.index] = b
		d.push(&agentcore.ToolCallEndEvent{ContentIndex: ob.index, ToolCall: b, Partial: d.out})
	}
}

// flushRedacted sets the signature of a redacted thinking block to its
// encrypted reasoning, base64.
func (d *decoder) flushRedacted(ob *openBlock) {
	b, ok := d.out.Content[ob.index].(agentcore.ThinkingBlock)
	if !ok || ob.redacted == nil {
		return
	}
	b.ThinkingSignature = base64.StdEncoding.EncodeToString(ob.redacted)
	d.out.Content[ob.index] = b
	ob.redacted = nil
}

// flushOpen settles the blocks the stream left open, without events.
func (d *decoder) flushOpen() {
	for index, ob := range d.open {
		d.flushRedacted(ob)
		delete(d.open, index)
	}
}

// messageStop takes the stop reason.
func (d *decoder) messageStop(reason *string) {
	raw := ""
	if reason != nil {
		raw = *reason
	}
	d.out.RawStopReason = raw
	stop, text := mapStopReason(raw)
	d.out.StopReason = stop
	if text != "" {
		d.out.ErrorMessage = text
	}
}

// mapStopReason maps a Bedrock stop reason onto pi's, with the error text
// of a reason that is an error.
func mapStopReason(reason string) (agentcore.StopReason, string) {
	switch reason {
	case "end_turn", "stop_sequence":
		return agentcore.StopStop, ""
	case "max_tokens", "model_context_window_exceeded":
		return agentcore.StopLength, ""
	case "tool_use":
		return agentcore.StopToolUse, ""
	case "":
		return agentcore.StopError, ""
	}
	return agentcore.StopError, providerStoppedPrefix + reason
}

// setUsage sets u from a metadata event's usage and prices it, as pi-ai
// does: the total is the server's, else input plus output; the cache
// written for an hour is the sum of the 1h cache details (nil without
// details). Every count is clamped to 0…math.MaxInt64 ([provider.Count])
// and the sums saturate, so a hostile server cannot make a count or a
// cost negative.
func setUsage(u *agentcore.Usage, m *usage, model agentcore.Model) {
	*u = agentcore.Usage{
		Input:      provider.Count(m.InputTokens),
		Output:     provider.Count(m.OutputTokens),
		CacheRead:  provider.Count(m.CacheReadInputTokens),
		CacheWrite: provider.Count(m.CacheWriteInputTokens),
	}
	u.TotalTokens = provider.Count(m.TotalTokens)
	if u.TotalTokens == 0 {
		u.TotalTokens = provider.Sum(u.Input, u.Output)
	}
	if m.CacheDetails != nil {
		var long int64
		for _, c := range *m.CacheDetails {
			if c.TTL == "1h" {
				long = provider.Sum(long, provider.Count(c.InputTokens))
			}
		}
		u.CacheWrite1h = &long
	}
	price(u, model.Cost)
}

// price sets u's cost from the model's rates per million tokens; a write
// cached for an hour costs twice the input rate.
func price(u *agentcore.Usage, r agentcore.ModelCost) {
	var long int64
	if u.CacheWrite1h != nil {
		long = *u.CacheWrite1h
	}
	c := &u.Cost
	c.Input = r.Input / 1000000 * float64(u.Input)
	c.Output = r.Output / 1000000 * float64(u.Output)
	c.CacheRead = r.CacheRead / 1000000 * float64(u.CacheRead)
	c.CacheWrite = max(0, r.CacheWrite*float64(u.CacheWrite-long)+r.Input*2*float64(long)) / 1000000
	c.Total = c.Input + c.Output + c.CacheRead + c.CacheWrite
	c.TotalFromProvider = new(false)
}
