package openai

import (
	"bytes"
	"encoding/json"
	"github.com/pi-go/agentcore/internal/limit"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/jsondec"
	"github.com/pi-go/agentcore/internal/partialjson"
	"github.com/pi-go/agentcore/internal/sse"
)

// responseDecoder turns the events of one response into assistant stream
// events, building the message as pi-ai does: one text block and one
// thinking block, created when their first delta arrives, and one tool-call
// block per call, found by the call's stream index (or its ID); blocks end
// together, in content order, when the stream ends.
type responseDecoder struct {
	w     *agentcore.StreamWriter
	model agentcore.Model
	out   *agentcore.AssistantMessage

	text, thinking *blockText
	calls          []*callState
	byIndex        map[int]*callState
	byID           map[string]*callState

	// openRouter says the model is served through OpenRouter, whose
	// billed cost replaces the computed one.
	openRouter bool

	// observe, when not nil, sees the JSON of each chunk pi-ai's SDK
	// would yield, before it is applied; an error ends the response.
	observe func(json.RawMessage) error

	// budget is the content the response may still build; a delta that
	// does not fit is dropped and the reader ends the response.
	budget *limit.Budget

	// finished is set once a finish_reason arrived; stopped once the
	// consumer stopped reading.
	finished bool
	stopped  bool

	// c is the chunk being applied, reused from one event to the next,
	// and dec decodes it.
	c   chunk
	dec jsondec.Decoder
}

// blockText accumulates a text or thinking block. strings.Builder never
// changes bytes it has handed out, so each partial shares them.
type blockText struct {
	index int
	b     strings.Builder
}

// callState is a streaming tool call: its block's position, and its
// arguments (their text is kept out of the block: only the value shown
// so far is in it).
type callState struct {
	index   int
	indexed bool // it has a stream index (its first one)
	args    partialjson.ArgumentsStream
}

func newResponseDecoder(w *agentcore.StreamWriter, model agentcore.Model, out *agentcore.AssistantMessage) *responseDecoder {
	return &responseDecoder{w: w, model: model, out: out, byIndex: map[int]*callState{}, byID: map[string]*callState{}}
}

// push sends ev and notes when the consumer stopped.
func (d *responseDecoder) push(ev agentcore.AssistantEvent) bool {
	if d.stopped {
		return false
	}
	if !d.w.Push(ev) {
		d.stopped = true
	}
	return !d.stopped
}

// event handles one server-sent event. It reports done at the [DONE]
// sentinel, and the error text of an event that fails the response.
func (d *responseDecoder) event(ev sse.Event) (done bool, failure string) {
	data := ev.Data
	if strings.HasPrefix(ev.Name, "thread.") || len(bytes.TrimSpace(data)) == 0 {
		return false, ""
	}
	if string(data) == "[DONE]" {
		return true, ""
	}
	c := d.c.reset()
	valid, object := decodeChunk(&d.dec, data, c)
	if d.finished {
		// After the first finish_reason only a usage chunk counts: the
		// response is complete, and what follows is not read as part of it.
		if valid && object && !truthy(c.Error) {
			if failure := d.observed(data); failure != "" {
				return false, failure
			}
			d.usage(c)
		}
		return false, ""
	}
	switch {
	case !valid:
		return false, MalformedChunkText
	case ev.Name == "error":
		if len(c.Error) > 0 && string(c.Error) != "null" {
			return false, streamErrorText(c.Error)
		}
		return false, streamErrorText(data)
	case object && truthy(c.Error):
		return false, streamErrorText(c.Error)
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

// observed passes a chunk's JSON to observe; it returns the error text
// that ends the response, "" when none.
func (d *responseDecoder) observed(data json.RawMessage) string {
	if d.observe == nil {
		return ""
	}
	if err := d.observe(data); err != nil {
		return err.Error()
	}
	return ""
}

// chunk applies one completion chunk.
func (d *responseDecoder) chunk(c *chunk) {
	if d.out.ResponseID == "" {
		d.out.ResponseID = c.ID
	}
	if d.out.ResponseModel == "" && c.Model != "" && c.Model != d.model.ID {
		d.out.ResponseModel = c.Model
	}
	d.usage(c)
	if len(c.Choices) == 0 {
		return
	}
	ch := &c.Choices[0]
	if reason := ch.FinishReason; reason != "" {
		d.out.RawStopReason = reason
		stop, text := mapFinishReason(reason)
		d.out.StopReason = stop
		if text != "" {
			d.out.ErrorMessage = text
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
func (d *responseDecoder) usage(c *chunk) {
	switch {
	case c.Usage != nil:
		d.out.Usage = toUsage(c.Usage, d.model, d.openRouter)
	case len(c.Choices) > 0 && c.Choices[0].Usage != nil:
		d.out.Usage = toUsage(c.Choices[0].Usage, d.model, d.openRouter)
	}
}

// textDelta appends to the text block, opening it first.
func (d *responseDecoder) textDelta(text string) bool {
	if !d.budget.Take(len(text)) {
		return false
	}
	if d.text == nil {
		d.text = &blockText{index: len(d.out.Content)}
		d.out.Content = append(d.out.Content, agentcore.TextBlock{})
		if !d.push(&agentcore.TextStartEvent{ContentIndex: d.text.index, Partial: d.out}) {
			return false
		}
	}
	d.text.b.WriteString(text)
	d.out.Content[d.text.index] = agentcore.TextBlock{Text: d.text.b.String()}
	return d.push(&agentcore.TextDeltaEvent{ContentIndex: d.text.index, Delta: text, Partial: d.out})
}

// thinkingDelta appends to the thinking block, opening it first with the
// reasoning field's name as its signature.
func (d *responseDecoder) thinkingDelta(field, text string) bool {
	if !d.budget.Take(len(text)) {
		return false
	}
	if d.thinking == nil {
		d.thinking = &blockText{index: len(d.out.Content)}
		d.out.Content = append(d.out.Content, agentcore.ThinkingBlock{ThinkingSignature: field})
		if !d.push(&agentcore.ThinkingStartEvent{ContentIndex: d.thinking.index, Partial: d.out}) {
			return false
		}
	}
	d.thinking.b.WriteString(text)
	block := d.out.Content[d.thinking.index].(agentcore.ThinkingBlock)
	block.Thinking = d.thinking.b.String()
	d.out.Content[d.thinking.index] = block
	return d.push(&agentcore.ThinkingDeltaEvent{ContentIndex: d.thinking.index, Delta: text, Partial: d.out})
}

// toolCallDelta applies one entry of a delta's tool_calls: it finds or
// opens the call's block, fills in its ID and name when they first come,
// appends the arguments piece and previews the arguments so far. Every
// entry yields a toolcall_delta event, with an empty delta when it carried
// no arguments.
func (d *responseDecoder) toolCallDelta(tc *toolCallDelta) bool {
	if !d.budget.Take(len(tc.ID) + len(tc.Function.Name) + len(tc.Function.Arguments)) {
		return false
	}
	st, ok := d.findCall(tc)
	if !ok {
		st = &callState{index: len(d.out.Content)}
		d.calls = append(d.calls, st)
		d.out.Content = append(d.out.Content, agentcore.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: json.RawMessage("{}")})
		if !d.push(&agentcore.ToolCallStartEvent{ContentIndex: st.index, Partial: d.out}) {
			return false
		}
	}
	if tc.Index.ok && !st.indexed {
		st.indexed = true
		d.byIndex[int(tc.Index.v)] = st
	}
	if id := tc.ID; id != "" {
		d.byID[id] = st
	}
	block := d.out.Content[st.index].(agentcore.ToolCall)
	if block.ID == "" {
		block.ID = tc.ID
	}
	if block.Name == "" {
		block.Name = tc.Function.Name
	}
	piece := tc.Function.Arguments
	if piece != "" {
		block.Arguments = st.args.Append(piece)
	}
	d.out.Content[st.index] = block
	return d.push(&agentcore.ToolCallDeltaEvent{ContentIndex: st.index, Delta: piece, Partial: d.out})
}

// findCall returns the open call a delta entry continues: by its stream
// index, else by its ID.
func (d *responseDecoder) findCall(tc *toolCallDelta) (*callState, bool) {
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

// finishBlocks ends every block in content order: text and thinking with
// their whole text, tool calls with their arguments parsed (a parse
// failure sets ArgumentsError). It reports false when the consumer stopped.
func (d *responseDecoder) finishBlocks() bool {
	next := 0
	for i, b := range d.out.Content {
		var ev agentcore.AssistantEvent
		switch b := b.(type) {
		case agentcore.TextBlock:
			ev = &agentcore.TextEndEvent{ContentIndex: i, Content: b.Text, Partial: d.out}
		case agentcore.ThinkingBlock:
			ev = &agentcore.ThinkingEndEvent{ContentIndex: i, Content: b.Thinking, Partial: d.out}
		case agentcore.ToolCall:
			st := d.calls[next]
			next++
			b.Arguments, b.ArgumentsError = st.args.Finish()
			d.out.Content[i] = b
			ev = &agentcore.ToolCallEndEvent{ContentIndex: i, ToolCall: b, Partial: d.out}
		default:
			continue
		}
		if !d.push(ev) {
			return false
		}
	}
	return true
}
