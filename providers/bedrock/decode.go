package bedrock

import (
	"encoding/base64"
	"encoding/json"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/jsondec"
	"github.com/pi-go/agentcore/internal/limit"
	"github.com/pi-go/agentcore/internal/pricing"
	"github.com/pi-go/agentcore/internal/provider"
	"github.com/pi-go/agentcore/internal/sse"
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
	InputTokens           provider.Number `json:"inputTokens"`
	OutputTokens          provider.Number `json:"outputTokens"`
	TotalTokens           provider.Number `json:"totalTokens"`
	CacheReadInputTokens  provider.Number `json:"cacheReadInputTokens"`
	CacheWriteInputTokens provider.Number `json:"cacheWriteInputTokens"`
	CacheDetails          *[]struct {
		TTL         string          `json:"ttl"`
		InputTokens provider.Number `json:"inputTokens"`
	} `json:"cacheDetails"`
}

// redactedThinkingText stands in a thinking block for encrypted
// reasoning, as pi-ai shows it.
const redactedThinkingText = "[Reasoning redacted]"

// decoder turns the events of one response into assistant stream events
// on a [provider.Builder], building the message as pi-ai does: a block
// opens with the first delta (text, reasoning) or start (tool use) of its
// server index and ends with that index's stop; a delta of another kind
// than its block is ignored; signatures accumulate without events;
// encrypted reasoning shows as [redactedThinkingText] and is kept, base64,
// as the block's signature once it ends.
type decoder struct {
	b     *provider.Builder
	model agentcore.Model

	// observe, when not nil, sees each event as {"TYPE": payload}; an
	// error ends the response.
	observe func(json.RawMessage) error

	// open maps a server block index to its open block.
	open map[int]*openBlock

	// ev is the event being applied and start and delta its members,
	// reused from one event to the next (a member the payload lacks is
	// left zero); dec decodes it.
	ev       event
	start    blockStart
	delta    blockDelta
	dec      jsondec.Decoder
	observed []byte
}

// openBlock is a block being streamed and, for a redacted thinking block,
// its encrypted reasoning so far.
type openBlock struct {
	*provider.Block
	redacted []byte
}

func newDecoder(b *provider.Builder, model agentcore.Model) *decoder {
	return &decoder{b: b, model: model, open: map[int]*openBlock{}}
}

// Event applies one event of the stream (an event message, its type as
// the name); it returns the failure that ends the response, nil to go on.
// Types pi-ai does not know are skipped (after the observer saw them).
func (d *decoder) Event(e sse.Event) (done bool, f *provider.Failure) {
	ev := &d.ev
	d.start, d.delta = blockStart{}, blockDelta{}
	*ev = event{Start: &d.start, Delta: &d.delta}
	if err := d.dec.Decode(e.Data, ev); err != nil {
		return false, provider.TextFailure(MalformedEventPrefix + e.Name + ": " + err.Error())
	}
	if d.observe != nil {
		d.observed = append(append(append(append(d.observed[:0], `{"`...), e.Name...), `":`...), e.Data...)
		d.observed = append(d.observed, '}')
		if err := d.observe(d.observed); err != nil {
			return false, provider.ErrFailure(err)
		}
	}
	switch e.Name {
	case "messageStart":
		if ev.Role != "assistant" {
			return false, provider.TextFailure(UserMessageStartText)
		}
		d.b.W.Push(&agentcore.StartEvent{Partial: d.b.Out})
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
			setUsage(&d.b.Out.Usage, ev.Usage, d.model)
		}
	}
	return false, nil
}

// blockStart opens a tool call; other starts open nothing.
func (d *decoder) blockStart(ev *event) {
	tu := ev.Start.ToolUse
	if tu == nil {
		return
	}
	if blk := d.b.OpenToolCall(agentcore.ToolCall{ID: tu.ToolUseID, Name: tu.Name}, ""); blk != nil {
		d.open[ev.ContentBlockIndex] = &openBlock{Block: blk}
	}
}

// blockDelta grows the block of index, opening a text or thinking block
// on its first delta.
func (d *decoder) blockDelta(index int, delta *blockDelta) {
	ob := d.open[index]
	switch {
	case delta.Text != nil:
		if ob == nil {
			if ob = d.openBlock(index, d.b.Open(agentcore.TextBlock{})); ob == nil {
				return
			}
		}
		if _, ok := d.b.Out.Content[ob.Index].(agentcore.TextBlock); ok {
			d.b.AppendText(ob.Block, *delta.Text)
		}
	case delta.ToolUse != nil:
		if ob == nil {
			return
		}
		if _, ok := d.b.Out.Content[ob.Index].(agentcore.ToolCall); ok {
			d.b.AppendArguments(ob.Block, delta.ToolUse.Input)
		}
	case delta.ReasoningContent != nil:
		if ob == nil {
			if ob = d.openBlock(index, d.b.Open(agentcore.ThinkingBlock{})); ob == nil {
				return
			}
		}
		if ob.IsThinking() {
			rc := delta.ReasoningContent
			d.reasoning(ob, rc.Text, rc.Signature, rc.RedactedContent)
		}
	}
}

// openBlock keeps blk, just opened (nil when it did not fit), under the
// server's index.
func (d *decoder) openBlock(index int, blk *provider.Block) *openBlock {
	if blk == nil {
		return nil
	}
	ob := &openBlock{Block: blk}
	d.open[index] = ob
	return ob
}

// reasoning grows the thinking block of ob: its text, its signature (not
// once it holds encrypted reasoning), and its encrypted reasoning, which
// turns the block redacted.
func (d *decoder) reasoning(ob *openBlock, text, sig string, redacted []byte) {
	if text != "" && !d.b.AppendText(ob.Block, text) {
		return
	}
	content := d.b.Out.Content
	if b := content[ob.Index].(agentcore.ThinkingBlock); sig != "" && !b.Redacted && d.b.Take(len(sig)) {
		b.ThinkingSignature += sig
		content[ob.Index] = b
	}
	if len(redacted) == 0 || !d.b.Take(base64.StdEncoding.EncodedLen(len(redacted))) {
		return
	}
	if b := content[ob.Index].(agentcore.ThinkingBlock); !b.Redacted {
		b.Redacted, b.ThinkingSignature = true, ""
		content[ob.Index] = b
		if !d.b.AppendText(ob.Block, redactedThinkingText) {
			return
		}
	}
	ob.redacted = append(ob.redacted, redacted...)
}

// blockStop ends the open block of index: a tool call's arguments are
// parsed for good, a redacted thinking block takes its encrypted
// reasoning as signature.
func (d *decoder) blockStop(index int) {
	ob, ok := d.open[index]
	if !ok {
		return
	}
	delete(d.open, index)
	d.flushRedacted(ob)
	d.b.End(ob.Block)
}

// flushRedacted sets the signature of a redacted thinking block to its
// encrypted reasoning, base64.
func (d *decoder) flushRedacted(ob *openBlock) {
	if ob.redacted == nil {
		return
	}
	b := d.b.Out.Content[ob.Index].(agentcore.ThinkingBlock)
	b.ThinkingSignature = base64.StdEncoding.EncodeToString(ob.redacted)
	d.b.Out.Content[ob.Index] = b
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
	out := d.b.Out
	out.RawStopReason = raw
	stop, text := mapStopReason(raw)
	out.StopReason = stop
	if text != "" {
		out.ErrorMessage = text
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
// details). Every count is clamped to 0…math.MaxInt64 ([limit.Count])
// and the sums saturate, so a hostile server cannot make a count or a
// cost negative.
func setUsage(u *agentcore.Usage, m *usage, model agentcore.Model) {
	*u = agentcore.Usage{
		Input:      m.InputTokens.Count(),
		Output:     m.OutputTokens.Count(),
		CacheRead:  m.CacheReadInputTokens.Count(),
		CacheWrite: m.CacheWriteInputTokens.Count(),
	}
	u.TotalTokens = m.TotalTokens.Count()
	if u.TotalTokens == 0 {
		u.TotalTokens = limit.Sum(u.Input, u.Output)
	}
	if m.CacheDetails != nil {
		var long int64
		for _, c := range *m.CacheDetails {
			if c.TTL == "1h" {
				long = limit.Sum(long, c.InputTokens.Count())
			}
		}
		u.CacheWrite1h = &long
	}
	u.Cost = pricing.Cost(model, *u)
}
