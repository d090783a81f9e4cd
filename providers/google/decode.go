package google

import (
	"encoding/json"
	"errors"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/jsondec"
	"github.com/pi-go/agentcore/internal/jsonv"
	"github.com/pi-go/agentcore/internal/limit"
	"github.com/pi-go/agentcore/internal/pricing"
	"github.com/pi-go/agentcore/internal/provider"
	"github.com/pi-go/agentcore/internal/sse"
)

// chunk is the data of one streamed event: a GenerateContentResponse.
type chunk struct {
	Candidates    []candidate    `json:"candidates"`
	UsageMetadata *usageMetadata `json:"usageMetadata"`
	ResponseID    string         `json:"responseId"`
}

type candidate struct {
	Content *struct {
		Parts []responsePart `json:"parts"`
	} `json:"content"`
	FinishReason string `json:"finishReason"`
}

type responsePart struct {
	Text             *string `json:"text"`
	Thought          bool    `json:"thought"` // true only when it is true
	ThoughtSignature string  `json:"thoughtSignature"`
	FunctionCall     *struct {
		ID   string          `json:"id"`
		Name *string         `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"functionCall"`
}

// usageMetadata holds the counts as JavaScript reads them: 1e400 is
// Infinity, clamped as every count ([limit.Count]).
type usageMetadata struct {
	PromptTokenCount        provider.Number `json:"promptTokenCount"`
	CandidatesTokenCount    provider.Number `json:"candidatesTokenCount"`
	ThoughtsTokenCount      provider.Number `json:"thoughtsTokenCount"`
	CachedContentTokenCount provider.Number `json:"cachedContentTokenCount"`
	TotalTokenCount         provider.Number `json:"totalTokenCount"`
}

// toolCallCounter numbers the tool-call IDs made up in this process.
var toolCallCounter atomic.Int64

// decoder turns the chunks of one response into assistant stream events,
// building the message as pi-ai does: consecutive text parts grow one text
// block and consecutive thought parts one thinking block, each switch
// between them (or a function call) ending the open block; a function
// call is a whole tool call at once; the last finish reason and usage win.
type decoder struct {
	b     *provider.Builder
	model agentcore.Model

	// observe, when not nil, sees each chunk's data first; an error ends
	// the response.
	observe func(json.RawMessage) error

	// open is the open text or thinking block, nil when none.
	open *provider.Block

	// ids are the IDs of the tool calls so far.
	ids map[string]bool

	// c is the chunk being applied, reused from one event to the next,
	// and dec decodes it.
	c   chunk
	dec jsondec.Decoder
}

// Event applies the data of one event; it returns the failure that ends
// the response, nil to go on. A field of another type than the API's
// reads as absent, as pi-ai's JavaScript reads it, rather than failing the
// chunk.
func (d *decoder) Event(ev sse.Event) (bool, *provider.Failure) {
	data := ev.Data
	if f := chunkError(data); f != nil {
		return false, f
	}
	c := &d.c
	*c = chunk{} // nothing reused: an absent field must read as zero
	err := d.dec.Decode(data, c)
	if _, malformed := errors.AsType[*json.SyntaxError](err); malformed {
		return false, provider.TextFailure(MalformedChunkPrefix + ": " + err.Error())
	}
	if d.observe != nil {
		if err := d.observe(data); err != nil {
			return false, provider.ErrFailure(err)
		}
	}
	out := d.b.Out
	if out.ResponseID == "" {
		out.ResponseID = c.ResponseID
	}
	if len(c.Candidates) > 0 {
		if f := d.candidate(&c.Candidates[0]); f != nil {
			return false, f
		}
	}
	if u := c.UsageMetadata; u != nil {
		setUsage(&out.Usage, u, d.model)
	}
	return false, nil
}

// candidate applies the first candidate of a chunk.
func (d *decoder) candidate(cand *candidate) *provider.Failure {
	if cand.Content != nil {
		for _, p := range cand.Content.Parts {
			if d.b.Stopped() {
				return nil
			}
			d.part(p)
		}
	}
	if cand.FinishReason == "" {
		return nil
	}
	out := d.b.Out
	out.RawStopReason = cand.FinishReason
	stop, ok := mapFinishReason(cand.FinishReason)
	if !ok {
		return provider.TextFailure(unhandledStopPrefix + cand.FinishReason)
	}
	if stop == agentcore.StopStop && len(d.ids) > 0 {
		stop = agentcore.StopToolUse
	}
	out.StopReason = stop
	return nil
}

// part applies one part of a candidate's content.
func (d *decoder) part(p responsePart) {
	if p.Text != nil {
		d.appendText(*p.Text, p.Thought, p.ThoughtSignature)
	}
	if p.FunctionCall == nil {
		return
	}
	d.closeBlock()
	fc := p.FunctionCall
	name := "undefined"
	if fc.Name != nil {
		name = *fc.Name
	}
	id := fc.ID
	if id == "" || d.ids[id] {
		id = name + "_" + strconv.FormatInt(time.Now().UnixMilli(), 10) + "_" + strconv.FormatInt(toolCallCounter.Add(1), 10)
	}
	if !d.b.Take(len(p.ThoughtSignature)) {
		return
	}
	call := agentcore.ToolCall{ID: id, Arguments: json.RawMessage(stringify(fc.Args)), ThoughtSignature: p.ThoughtSignature}
	if fc.Name != nil {
		call.Name = *fc.Name
	}
	d.ids[id] = true
	d.b.WholeToolCall(call)
}

// appendText grows the open block of the part's kind, first ending an
// open block of the other kind and starting one of this kind. A non-empty
// signature replaces the block's.
func (d *decoder) appendText(text string, thought bool, sig string) {
	if d.open != nil && d.open.IsThinking() != thought {
		d.closeBlock()
	}
	if d.open == nil {
		if thought {
			d.open = d.b.Open(agentcore.ThinkingBlock{})
		} else {
			d.open = d.b.Open(agentcore.TextBlock{})
		}
	}
	if d.open == nil || !d.b.Take(len(sig)) {
		return
	}
	if sig != "" {
		switch b := d.b.Out.Content[d.open.Index].(type) {
		case agentcore.ThinkingBlock:
			b.ThinkingSignature = sig
			d.b.Out.Content[d.open.Index] = b
		case agentcore.TextBlock:
			b.TextSignature = sig
			d.b.Out.Content[d.open.Index] = b
		}
	}
	d.b.AppendText(d.open, text)
}

// closeBlock ends the open text or thinking block, if any.
func (d *decoder) closeBlock() {
	if d.open != nil {
		d.b.End(d.open)
		d.open = nil
	}
}

// stringify is a call's arguments as JavaScript's JSON.stringify writes
// them: {} when absent, null or not an object.
func stringify(args json.RawMessage) string {
	v, err := jsonv.Parse(args)
	if err != nil || v.Kind() != jsonv.Object {
		return "{}"
	}
	return v.JSON()
}

// mapFinishReason maps a finish reason onto pi's stop reason; false for a
// reason pi-ai does not know.
func mapFinishReason(reason string) (agentcore.StopReason, bool) {
	switch reason {
	case "STOP":
		return agentcore.StopStop, true
	case "MAX_TOKENS", "CONTINUATION":
		return agentcore.StopLength, true
	case "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "SAFETY", "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT",
		"IMAGE_RECITATION", "IMAGE_OTHER", "RECITATION", "FINISH_REASON_UNSPECIFIED", "OTHER", "LANGUAGE",
		"MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL", "TOO_MANY_TOOL_CALLS", "NO_IMAGE":
		return agentcore.StopError, true
	}
	return "", false
}

// setUsage sets u from a chunk's usage and prices it, as pi-ai does:
// cached tokens are read from the cache and not counted as input, thoughts
// count as output (and as reasoning). Every count is clamped to
// 0…math.MaxInt64 ([limit.Count]) and the output saturates, so a
// hostile or broken server cannot make a count or a cost negative.
func setUsage(u *agentcore.Usage, m *usageMetadata, model agentcore.Model) {
	reasoning := u.Reasoning
	if reasoning == nil {
		reasoning = new(int64)
	}
	*reasoning = m.ThoughtsTokenCount.Count()
	cached := m.CachedContentTokenCount.Count()
	*u = agentcore.Usage{
		Input:       max(0, m.PromptTokenCount.Count()-cached),
		Output:      limit.Sum(m.CandidatesTokenCount.Count(), *reasoning),
		CacheRead:   cached,
		Reasoning:   reasoning,
		TotalTokens: m.TotalTokenCount.Count(),
	}
	u.Cost = pricing.Cost(model, *u)
}
