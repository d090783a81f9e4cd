package agentcore

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pi-go/agentcore/internal/jsondec"
	"github.com/pi-go/agentcore/internal/limit"
	"github.com/pi-go/agentcore/internal/partialjson"
)

// proxyRebuilder rebuilds an assistant message from proxy wire events, as
// the reference client's processProxyEvent does. It is used by one
// goroutine; the message it builds is pushed through a [StreamWriter],
// which copies it, so blocks are replaced, never modified in place.
type proxyRebuilder struct {
	msg *AssistantMessage
	// open holds, by content index, the text of a text or thinking block
	// and the argument parser of a streaming tool call.
	open []*openBlock
	// ev is the wire event being applied, reused from one to the next,
	// and dec decodes it.
	ev  proxyEvent
	dec jsondec.Decoder
	// budget is the content the message may still build.
	budget *limit.Budget
}

type openBlock struct {
	text strings.Builder
	args *partialjson.ArgumentsStream
	// charged is what the budget was charged for the block's content.
	charged int
}

// newProxyRebuilder returns a rebuilder whose message starts empty and
// pending, for model, stamped now, and may build maxBytes of content
// ([ProxyOptions.MaxResponseBytes]).
func newProxyRebuilder(model Model, maxBytes int64) *proxyRebuilder {
	return &proxyRebuilder{msg: &AssistantMessage{
		Content: []ContentBlock{}, API: model.API, Provider: model.Provider, Model: model.ID,
		StopReason: StopPending, Timestamp: nowMillis(),
	}, budget: limit.NewBudget(maxBytes)}
}

// charge takes n bytes of content of block i from the budget; false when
// they do not fit, and the piece must not be added.
func (r *proxyRebuilder) charge(i, n int) bool {
	if n <= 0 {
		return true
	}
	if !r.budget.Take(n) {
		return false
	}
	r.open[i].charged += n
	return true
}

// errInvalidEvent wraps what is wrong with a wire event.
func errInvalidEvent(format string, args ...any) error {
	return fmt.Errorf("Invalid proxy event: "+format, args...)
}

// apply reads one wire event (its JSON) into the message and returns the
// assistant event to push, or nil for an event the reference ignores. An
// error is the text the response fails with, or the budget's error
// (content past the cap is not added).
func (r *proxyRebuilder) apply(data []byte) (AssistantEvent, error) {
	e := &r.ev
	if err := decodeProxyEvent(&r.dec, data, e); err != nil {
		return nil, errInvalidEvent("%v", err)
	}
	switch e.Type {
	case "start":
		return &StartEvent{Partial: r.msg}, nil
	case "done":
		r.finishOpenCalls()
		r.final(e)
		return &DoneEvent{Reason: r.msg.StopReason, Message: r.msg}, nil
	case "error":
		r.final(e)
		if r.msg.StopReason != StopAborted {
			r.msg.StopReason = StopError
		}
		r.msg.ErrorMessage = limit.Truncate(deref(e.ErrorMessage), limit.MaxFailureText)
		if r.msg.StopReason == StopError {
			// The upstream provider's failure, known here by its text only.
			r.msg.Err = &ProviderError{Message: r.msg.ErrorMessage}
		}
		return &ErrorEvent{Reason: r.msg.StopReason, Message: r.msg}, nil
	case "text_start", "text_delta", "text_end", "thinking_start", "thinking_delta", "thinking_end",
		"toolcall_start", "toolcall_delta", "toolcall_end":
		if e.ContentIndex == nil {
			return nil, errInvalidEvent("%s without contentIndex", e.Type)
		}
		return r.content(e, *e.ContentIndex)
	}
	// Unknown event types are skipped, as the reference skips them.
	return nil, nil
}

// finishArguments gives call b, at index i, the arguments its streamed
// text parses to: unlike the reference client, which keeps its best-effort
// preview, text that is no complete JSON object leaves the arguments {}
// and sets ArgumentsError, so that the tool does not run.
func (r *proxyRebuilder) finishArguments(i int, b ToolCall) ToolCall {
	if o := r.open[i]; o != nil && o.args != nil {
		b.Arguments, b.ArgumentsError = o.args.Finish()
		o.args = nil
	}
	return b
}

// finishOpenCalls finishes the arguments of the tool calls that got no
// toolcall_end.
func (r *proxyRebuilder) finishOpenCalls() {
	for i, o := range r.open {
		if b, ok := r.msg.Content[i].(ToolCall); ok && o != nil && o.args != nil {
			r.msg.Content[i] = r.finishArguments(i, b)
		}
	}
}

// final records the stop reason, usage and thinking level of a done or
// error event.
func (r *proxyRebuilder) final(e *proxyEvent) {
	r.msg.StopReason = e.Reason
	if e.Usage != nil {
		r.msg.Usage = e.Usage.Usage
	}
	if e.ProviderThinkingLevel != nil {
		r.msg.ProviderThinkingLevel = *e.ProviderThinkingLevel
	}
}

// content applies a content event for block i.
func (r *proxyRebuilder) content(e *proxyEvent, i int) (AssistantEvent, error) {
	delta := deref(e.Delta)
	switch e.Type {
	case "toolcall_start":
		call := ToolCall{ID: deref(e.ID), Name: deref(e.ToolName), Arguments: json.RawMessage("{}")}
		if err := r.start(e.Type, i, call, len(call.ID)+len(call.Name)); err != nil {
			return nil, err
		}
		r.open[i].args = new(partialjson.ArgumentsStream)
		return &ToolCallStartEvent{ContentIndex: i, Partial: r.msg}, nil
	case "text_start", "text_delta", "text_end":
		return streamText(r, e, i, textStream)
	case "thinking_start", "thinking_delta", "thinking_end":
		return streamText(r, e, i, thinkingStream)
	case "toolcall_delta":
		b, ok := blockAt(r.msg, i).(ToolCall)
		if !ok || r.open[i] == nil || r.open[i].args == nil {
			return nil, fmt.Errorf("Received toolcall_delta for non-toolCall content")
		}
		if !r.charge(i, len(delta)) {
			return nil, r.budget.Err()
		}
		b.Arguments = r.open[i].args.Append(delta)
		r.msg.Content[i] = b
		return &ToolCallDeltaEvent{ContentIndex: i, Delta: delta, Partial: r.msg}, nil
	default: // toolcall_end
		b, ok := blockAt(r.msg, i).(ToolCall)
		if !ok {
			return nil, nil // the reference skips it
		}
		// The server's call repeats what streamed: only its excess counts.
		if o := r.open[i]; o != nil && !r.charge(i, len(e.ToolCall)-o.charged) {
			return nil, r.budget.Err()
		}
		b, hasArgs, err := mergeToolCall(b, e.ToolCall)
		if err != nil {
			return nil, err
		}
		if !hasArgs {
			b = r.finishArguments(i, b)
		}
		r.msg.Content[i] = b
		r.open[i].args = nil
		return &ToolCallEndEvent{ContentIndex: i, ToolCall: b, Partial: r.msg}, nil
	}
}

// streamedBlock is a block whose text streams in deltas and whose end
// brings a signature: a text or a thinking block.
type streamedBlock interface {
	ContentBlock
	TextBlock | ThinkingBlock
}

// streamKind is what differs between the two kinds of streamed block: the
// name errors give the kind, the empty block a start puts (boxed once),
// how to read and replace the block's text and signature, and the events of
// its start, a delta and its end.
type streamKind[B streamedBlock] struct {
	name  string
	empty ContentBlock
	parts func(B) (text, signature string)
	with  func(b B, text, signature string) B
	start func(i int, partial *AssistantMessage) AssistantEvent
	delta func(i int, delta string, partial *AssistantMessage) AssistantEvent
	end   func(i int, text string, partial *AssistantMessage) AssistantEvent
}

var (
	textStream = streamKind[TextBlock]{
		name:  "text",
		empty: TextBlock{},
		parts: func(b TextBlock) (string, string) { return b.Text, b.TextSignature },
		with: func(b TextBlock, text, signature string) TextBlock {
			b.Text, b.TextSignature = text, signature
			return b
		},
		start: func(i int, m *AssistantMessage) AssistantEvent { return &TextStartEvent{ContentIndex: i, Partial: m} },
		delta: func(i int, d string, m *AssistantMessage) AssistantEvent {
			return &TextDeltaEvent{ContentIndex: i, Delta: d, Partial: m}
		},
		end: func(i int, t string, m *AssistantMessage) AssistantEvent {
			return &TextEndEvent{ContentIndex: i, Content: t, Partial: m}
		},
	}
	thinkingStream = streamKind[ThinkingBlock]{
		name:  "thinking",
		empty: ThinkingBlock{},
		parts: func(b ThinkingBlock) (string, string) { return b.Thinking, b.ThinkingSignature },
		with: func(b ThinkingBlock, text, signature string) ThinkingBlock {
			b.Thinking, b.ThinkingSignature = text, signature
			return b
		},
		start: func(i int, m *AssistantMessage) AssistantEvent {
			return &ThinkingStartEvent{ContentIndex: i, Partial: m}
		},
		delta: func(i int, d string, m *AssistantMessage) AssistantEvent {
			return &ThinkingDeltaEvent{ContentIndex: i, Delta: d, Partial: m}
		},
		end: func(i int, t string, m *AssistantMessage) AssistantEvent {
			return &ThinkingEndEvent{ContentIndex: i, Content: t, Partial: m}
		},
	}
)

// streamText applies the start, a delta or the end event e of block i, a
// B: the start puts an empty block there, a delta grows its text, the end
// sets its signature.
func streamText[B streamedBlock](r *proxyRebuilder, e *proxyEvent, i int, k streamKind[B]) (AssistantEvent, error) {
	_, step, _ := strings.Cut(e.Type, "_")
	if step == "start" {
		if err := r.start(e.Type, i, k.empty, 0); err != nil {
			return nil, err
		}
		return k.start(i, r.msg), nil
	}
	b, ok := blockAt(r.msg, i).(B)
	if !ok {
		return nil, fmt.Errorf("Received %s for non-%s content", e.Type, k.name)
	}
	text, signature := k.parts(b)
	if step == "end" {
		if !r.charge(i, len(e.ContentSignature)-len(signature)) {
			return nil, r.budget.Err()
		}
		r.msg.Content[i] = k.with(b, text, e.ContentSignature)
		return k.end(i, text, r.msg), nil
	}
	delta := deref(e.Delta)
	if !r.charge(i, len(delta)) {
		return nil, r.budget.Err()
	}
	r.msg.Content[i] = k.with(b, r.grow(i, text, delta), signature)
	return k.delta(i, delta, r.msg), nil
}

// signature returns the signature of block i of msg, or "" when it is no
// B.
func (k streamKind[B]) signature(msg *AssistantMessage, i int) string {
	b, _ := blockAt(msg, i).(B)
	_, signature := k.parts(b)
	return signature
}

// start puts a new block at index i: over an existing block, or appended
// right after the last one. The block counts [proxyBlockBytes] and size,
// the bytes of its content, against the budget.
func (r *proxyRebuilder) start(typ string, i int, b ContentBlock, size int) error {
	if i < 0 || i > len(r.msg.Content) {
		return errInvalidEvent("%s at contentIndex %d of %d blocks", typ, i, len(r.msg.Content))
	}
	if !r.budget.Take(proxyBlockBytes + size) {
		return r.budget.Err()
	}
	if i == len(r.msg.Content) {
		r.msg.Content = append(r.msg.Content, b)
		r.open = append(r.open, nil)
	} else {
		r.msg.Content[i] = b
	}
	r.open[i] = &openBlock{charged: size}
	return nil
}

// grow appends delta to the text of block i, whose text is now cur, and
// returns the new text. The builder makes a long stream of deltas cost
// linear time: earlier strings share its memory and stay unchanged.
func (r *proxyRebuilder) grow(i int, cur, delta string) string {
	o := r.open[i]
	if o.text.Len() != len(cur) {
		o.text.Reset()
		o.text.WriteString(cur)
	}
	o.text.WriteString(delta)
	return o.text.String()
}

// mergeToolCall applies the fields present in the toolCall object of a
// toolcall_end event to b, as the reference's Object.assign does. hasArgs
// reports whether the object held the arguments (not null).
func mergeToolCall(b ToolCall, raw json.RawMessage) (_ ToolCall, hasArgs bool, _ error) {
	if len(raw) == 0 || isNull(raw) {
		return b, false, nil
	}
	var f struct {
		ID               *string         `json:"id"`
		Name             *string         `json:"name"`
		Arguments        json.RawMessage `json:"arguments"`
		ThoughtSignature *string         `json:"thoughtSignature"`
		Namespace        *string         `json:"namespace"`
		ArgumentsError   *string         `json:"argumentsError"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		return b, false, errInvalidEvent("toolcall_end: %v", err)
	}
	set := func(dst *string, src *string) {
		if src != nil {
			*dst = *src
		}
	}
	set(&b.ID, f.ID)
	set(&b.Name, f.Name)
	set(&b.ThoughtSignature, f.ThoughtSignature)
	set(&b.Namespace, f.Namespace)
	set(&b.ArgumentsError, f.ArgumentsError)
	if len(f.Arguments) > 0 && !isNull(f.Arguments) {
		if !isJSONObject(f.Arguments) {
			return b, false, errInvalidEvent("toolcall_end: arguments must be a JSON object")
		}
		b.Arguments = f.Arguments
		return b, true, nil
	}
	return b, false, nil
}
