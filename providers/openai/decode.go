package openai

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/jsondec"
	"github.com/pi-go/agentcore/internal/jsvalue"
	"github.com/pi-go/agentcore/internal/provider"
	"github.com/pi-go/agentcore/internal/sse"
)

// decoder turns the events of one response into assistant stream events,
// building the message as pi-ai does: one text block and one thinking
// block, created when their first delta arrives, and one tool-call block
// per call, found by the call's stream index (or its ID); blocks end
// together, in content order, when the stream ends.
type decoder struct {
	b     *provider.Builder
	model agentcore.Model

	text, thinking *provider.Block
	byIndex        map[int]*callState
	byID           map[string]*callState

	// openRouter says the model is served through OpenRouter, whose
	// billed cost replaces the computed one.
	openRouter bool

	// observe, when not nil, sees the JSON of each chunk pi-ai's SDK
	// would yield, before it is applied; an error ends the response.
	observe func(json.RawMessage) error

	// finished is set once a finish_reason arrived.
	finished bool

	// c is the chunk being applied, reused from one event to the next,
	// and dec decodes it.
	c   chunk
	dec jsondec.Decoder
}

// callState is a streaming tool call: its block, and whether it has a
// stream index (its first one).
type callState struct {
	*provider.Block
	indexed bool
}

// event handles one server-sent event. It reports done at the [DONE]
// sentinel, and the error text of an event that fails the response.
func (d *decoder) Event(ev sse.Event) (done bool, f *provider.Failure) {
	done, text := d.event(ev)
	if text != "" {
		return done, provider.TextFailure(text)
	}
	return done, nil
}

func (d *decoder) event(ev sse.Event) (done bool, failure string) {
	data := ev.Data
	if strings.HasPrefix(ev.Name, "thread.") || len(bytes.TrimSpace(data)) == 0 {
		return false, ""
	}
	if string(data) == "[DONE]" {
		return true, ""
	}
	c := d.c.reset()
	valid, object := decodeChunk(&d.dec, data, c)
	switch {
	case d.finished:
		return false, d.afterFinish(c, data, valid && object)
	case !valid:
		return false, MalformedChunkText
	}
	if text := provider.OpenAIStreamError(ev.Name, data, c.Error); text != "" {
		return false, text
	}
	// The SDK yields JSON of any kind, so the hook sees it; only an object
	// is read as a chunk.
	if failure := d.observed(data); failure != "" {
		return false, failure
	}
	if object {
		d.chunk(c)
	}
	return false, ""
}

// afterFinish applies a chunk after the first finish_reason: only a usage
// chunk counts, the response being complete, and what follows is not
// read as part of it.
func (d *decoder) afterFinish(c *chunk, data []byte, object bool) string {
	if !object || jsvalue.Truthy(c.Error) {
		return ""
	}
	if failure := d.observed(data); failure != "" {
		return failure
	}
	d.usage(c)
	return ""
}

// observed passes a chunk's JSON to observe; it returns the error text
// that ends the response, "" when none.
func (d *decoder) observed(data json.RawMessage) string {
	if d.observe == nil {
		return ""
	}
	if err := d.observe(data); err != nil {
		return err.Error()
	}
	return ""
}

// chunk applies one completion chunk.
func (d *decoder) chunk(c *chunk) {
	if d.b.Out.ResponseID == "" {
		d.b.Out.ResponseID = c.ID
	}
	if d.b.Out.ResponseModel == "" && c.Model != "" && c.Model != d.model.ID {
		d.b.Out.ResponseModel = c.Model
	}
	d.usage(c)
	if len(c.Choices) == 0 {
		return
	}
	ch := &c.Choices[0]
	if reason := ch.FinishReason; reason != "" {
		d.b.Out.RawStopReason = reason
		stop, text := mapFinishReason(reason)
		d.b.Out.StopReason = stop
		if text != "" {
			d.b.Out.ErrorMessage = text
		}
		d.finished = true
	}
	dl := &ch.Delta
	// Reasoning first: a proxy may put reasoning and answer in one delta,
	// and the thinking block goes before the text.
	if field, text := dl.reasoning(); text != "" {
		if !d.thinkingDelta(field, text) {
			return
		}
	}
	if text := dl.Content; text != "" {
		if !d.textDelta(text) {
			return
		}
	}
	for i := range dl.ToolCalls {
		if !d.toolCallDelta(&dl.ToolCalls[i]) {
			return
		}
	}
}

// usage applies the usage of a chunk: its own, else its choice's (some
// providers, Moonshot say, put it there).
func (d *decoder) usage(c *chunk) {
	switch {
	case c.Usage != nil:
		d.b.Out.Usage = toUsage(c.Usage, d.model, d.openRouter)
	case len(c.Choices) > 0 && c.Choices[0].Usage != nil:
		d.b.Out.Usage = toUsage(c.Choices[0].Usage, d.model, d.openRouter)
	}
}

// textDelta appends to the text block, opening it first.
func (d *decoder) textDelta(text string) bool {
	if d.text == nil {
		if d.text = d.b.Open(agentcore.TextBlock{}); d.text == nil {
			return false
		}
	}
	return d.b.AppendText(d.text, text)
}

// thinkingDelta appends to the thinking block, opening it first with the
// reasoning field's name as its signature.
func (d *decoder) thinkingDelta(field, text string) bool {
	if d.thinking == nil {
		if d.thinking = d.b.Open(agentcore.ThinkingBlock{ThinkingSignature: field}); d.thinking == nil {
			return false
		}
	}
	return d.b.AppendText(d.thinking, text)
}

// toolCallDelta applies one entry of a delta's tool_calls: it finds or
// opens the call's block, fills in its ID and name when they first come,
// and appends the arguments piece. Every entry yields a toolcall_delta
// event, with an empty delta when it carried no arguments.
func (d *decoder) toolCallDelta(tc *toolCallDelta) bool {
	st, ok := d.findCall(tc)
	if !ok {
		blk := d.b.OpenToolCall(agentcore.ToolCall{ID: tc.ID, Name: tc.Function.Name}, "")
		if blk == nil {
			return false
		}
		st = &callState{Block: blk}
	} else if !d.b.Take(len(tc.ID) + len(tc.Function.Name)) {
		return false
	}
	if tc.Index.ok && !st.indexed {
		st.indexed = true
		d.byIndex[int(tc.Index.v)] = st
	}
	if id := tc.ID; id != "" {
		d.byID[id] = st
	}
	block := d.b.Out.Content[st.Index].(agentcore.ToolCall)
	if block.ID == "" {
		block.ID = tc.ID
	}
	if block.Name == "" {
		block.Name = tc.Function.Name
	}
	d.b.Out.Content[st.Index] = block
	return d.b.AppendArguments(st.Block, tc.Function.Arguments)
}

// findCall returns the open call a delta entry continues: by its stream
// index, else by its ID.
func (d *decoder) findCall(tc *toolCallDelta) (*callState, bool) {
	if tc.Index.ok {
		if st, ok := d.byIndex[int(tc.Index.v)]; ok {
			return st, true
		}
	}
	if tc.ID != "" {
		if st, ok := d.byID[tc.ID]; ok {
			return st, true
		}
	}
	return nil, false
}
