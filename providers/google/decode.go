package google

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/jsonv"
	"github.com/pi-go/agentcore/internal/pricing"
	"github.com/pi-go/agentcore/internal/provider"
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
	Thought          bool    `json:"thought"`
	ThoughtSignature string  `json:"thoughtSignature"`
	FunctionCall     *struct {
		ID   string          `json:"id"`
		Name *string         `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"functionCall"`
}

type usageMetadata struct {
	PromptTokenCount        float64 `json:"promptTokenCount"`
	CandidatesTokenCount    float64 `json:"candidatesTokenCount"`
	ThoughtsTokenCount      float64 `json:"thoughtsTokenCount"`
	CachedContentTokenCount float64 `json:"cachedContentTokenCount"`
	TotalTokenCount         float64 `json:"totalTokenCount"`
}

// toolCallCounter numbers the tool-call IDs made up in this process.
var toolCallCounter atomic.Int64

// decoder turns the chunks of one response into assistant stream events,
// building the message as pi-ai does: consecutive text parts grow one text
// block and consecutive thought parts one thinking block, each switch
// between them (or a function call) ending the open block; a function
// call is a whole tool call at once; the last finish reason and usage win.
type decoder struct {
	w     *agentcore.StreamWriter
	model agentcore.Model
	out   *agentcore.AssistantMessage

	// observe, when not nil, sees each chunk's data first; an error ends
	// the response.
	observe func(json.RawMessage) error

	// open is the index of the open text or thinking block, -1 when none;
	// text is its text so far (strings.Builder never changes bytes it
	// handed out, so each partial shares them).
	open int
	text strings.Builder

	// budget is the content the response may still build; a part that
	// does not fit is not added, and the response ends with its error.
	budget *provider.Budget

	// stopped once the consumer stopped reading.
	stopped bool
}

func newDecoder(w *agentcore.StreamWriter, model agentcore.Model, out *agentcore.AssistantMessage) *decoder {
	return &decoder{w: w, model: model, out: out, open: -1}
}

// push sends ev and notes when the consumer stopped.
func (d *decoder) push(ev agentcore.AssistantEvent) bool {
	if !d.stopped && !d.w.Push(ev) {
		d.stopped = true
	}
	return !d.stopped
}

// event applies the data of one event; it returns the failure that ends
// the response, nil to go on.
func (d *decoder) event(data []byte) *failure {
	if f, ok := chunkError(data); ok {
		return &f
	}
	var c chunk
	if err := json.Unmarshal(data, &c); err != nil {
		f := textFailure(MalformedChunkPrefix + ": " + err.Error())
		return &f
	}
	if d.observe != nil {
		if err := d.observe(data); err != nil {
			return &failure{Text: err.Error(), Err: err}
		}
	}
	if d.out.ResponseID == "" {
		d.out.ResponseID = c.ResponseID
	}
	if len(c.Candidates) > 0 {
		cand := c.Candidates[0]
		if cand.Content != nil {
			for _, p := range cand.Content.Parts {
				if d.stopped {
					return nil
				}
				d.part(p)
			}
		}
		if cand.FinishReason != "" {
			d.out.RawStopReason = cand.FinishReason
			stop, ok := mapFinishReason(cand.FinishReason)
			if !ok {
				f := textFailure(unhandledStopPrefix + cand.FinishReason)
				return &f
			}
			if stop == agentcore.StopStop && len(d.out.ToolCalls()) > 0 {
				stop = agentcore.StopToolUse
			}
			d.out.StopReason = stop
		}
	}
	if u := c.UsageMetadata; u != nil {
		setUsage(&d.out.Usage, u, d.model)
	}
	return nil
}

// part applies one part of a candidate's content.
func (d *decoder) part(p responsePart) {
	if p.Text != nil {
		d.appendText(*p.Text, p.Thought, p.ThoughtSignature)
	}
	if p.FunctionCall != nil {
		d.closeBlock()
		fc := p.FunctionCall
		name := "undefined"
		if fc.Name != nil {
			name = *fc.Name
		}
		id := fc.ID
		if id == "" || d.hasToolCall(id) {
			id = name + "_" + strconv.FormatInt(time.Now().UnixMilli(), 10) + "_" + strconv.FormatInt(toolCallCounter.Add(1), 10)
		}
		args := stringify(fc.Args)
		if !d.budget.Take(len(id) + len(name) + len(args) + len(p.ThoughtSignature)) {
			return
		}
		call := agentcore.ToolCall{ID: id, Arguments: json.RawMessage(args)}
		if fc.Name != nil {
			call.Name = *fc.Name
		}
		if p.ThoughtSignature != "" {
			call.ThoughtSignature = p.ThoughtSignature
		}
		index := len(d.out.Content)
		d.out.Content = append(d.out.Content, call)
		d.push(&agentcore.ToolCallStartEvent{ContentIndex: index, Partial: d.out})
		d.push(&agentcore.ToolCallDeltaEvent{ContentIndex: index, Delta: args, Partial: d.out})
		d.push(&agentcore.ToolCallEndEvent{ContentIndex: index, ToolCall: call, Partial: d.out})
	}
}

// appendText grows the open block of the part's kind, first ending an
// open block of the other kind and starting one of this kind. A non-empty
// signature replaces the block's.
func (d *decoder) appendText(text string, thought bool, sig string) {
	if !d.budget.Take(len(text) + len(sig)) {
		return
	}
	if d.open >= 0 {
		_, isThinking := d.out.Content[d.open].(agentcore.ThinkingBlock)
		if isThinking != thought {
			d.closeBlock()
		}
	}
	if d.open < 0 {
		d.open = len(d.out.Content)
		d.text.Reset()
		if thought {
			d.out.Content = append(d.out.Content, agentcore.ThinkingBlock{})
			d.push(&agentcore.ThinkingStartEvent{ContentIndex: d.open, Partial: d.out})
		} else {
			d.out.Content = append(d.out.Content, agentcore.TextBlock{})
			d.push(&agentcore.TextStartEvent{ContentIndex: d.open, Partial: d.out})
		}
	}
	d.text.WriteString(text)
	switch b := d.out.Content[d.open].(type) {
	case agentcore.ThinkingBlock:
		b.Thinking = d.text.String()
		if sig != "" {
			b.ThinkingSignature = sig
		}
		d.out.Content[d.open] = b
		d.push(&agentcore.ThinkingDeltaEvent{ContentIndex: d.open, Delta: text, Partial: d.out})
	case agentcore.TextBlock:
		b.Text = d.text.String()
		if sig != "" {
			b.TextSignature = sig
		}
		d.out.Content[d.open] = b
		d.push(&agentcore.TextDeltaEvent{ContentIndex: d.open, Delta: text, Partial: d.out})
	}
}

// closeBlock ends the open text or thinking block, if any.
func (d *decoder) closeBlock() {
	if d.open < 0 {
		return
	}
	i := d.open
	d.open = -1
	switch b := d.out.Content[i].(type) {
	case agentcore.ThinkingBlock:
		d.push(&agentcore.ThinkingEndEvent{ContentIndex: i, Content: b.Thinking, Partial: d.out})
	case agentcore.TextBlock:
		d.push(&agentcore.TextEndEvent{ContentIndex: i, Content: b.Text, Partial: d.out})
	}
}

func (d *decoder) hasToolCall(id string) bool {
	for _, b := range d.out.Content {
		if c, ok := b.(agentcore.ToolCall); ok && c.ID == id {
			return true
		}
	}
	return false
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
// 0…math.MaxInt64 ([provider.Count]) and the output saturates, so a
// hostile or broken server cannot make a count or a cost negative.
func setUsage(u *agentcore.Usage, m *usageMetadata, model agentcore.Model) {
	reasoning, fromProvider := u.Reasoning, u.Cost.TotalFromProvider
	if reasoning == nil {
		reasoning, fromProvider = new(int64), new(bool)
	}
	*reasoning = provider.Count(m.ThoughtsTokenCount)
	cached := provider.Count(m.CachedContentTokenCount)
	*u = agentcore.Usage{
		Input:       max(0, provider.Count(m.PromptTokenCount)-cached),
		Output:      provider.Sum(provider.Count(m.CandidatesTokenCount), *reasoning),
		CacheRead:   cached,
		Reasoning:   reasoning,
		TotalTokens: provider.Count(m.TotalTokenCount),
	}
	r := pricing.Rates(model.Cost, *u)
	u.Cost.Input = r.Input / 1000000 * float64(u.Input)
	u.Cost.Output = r.Output / 1000000 * float64(u.Output)
	u.Cost.CacheRead = r.CacheRead / 1000000 * float64(u.CacheRead)
	u.Cost.Total = u.Cost.Input + u.Cost.Output + u.Cost.CacheRead + u.Cost.CacheWrite
	*fromProvider = false
	u.Cost.TotalFromProvider = fromProvider
}
