package agentcore

import (
	"encoding/json"
	"reflect"
)

// AssistantEvent is one event of an [AssistantStream], pi-ai's
// AssistantMessageEvent: [StartEvent]; [TextStartEvent], [TextDeltaEvent],
// [TextEndEvent]; [ThinkingStartEvent], [ThinkingDeltaEvent],
// [ThinkingEndEvent]; [ToolCallStartEvent], [ToolCallDeltaEvent],
// [ToolCallEndEvent]; and the final [DoneEvent] or [ErrorEvent]. The set is
// closed.
//
// Every event but the final ones carries Partial, the message so far: the
// producer's own message, which it goes on changing after the event (see
// [AssistantStream]). Read it during the event; keep [CloneEvent]'s copy.
// The event itself belongs to the consumer once yielded: a producer makes
// a new one for every yield.
type AssistantEvent interface {
	// Type is the event's wire type, such as "text_delta".
	Type() string
	partial() *AssistantMessage
	// setPartial replaces the event's Partial (a final event's Message is
	// left alone).
	setPartial(*AssistantMessage)
}

// StartEvent opens a response.
type StartEvent struct {
	Partial *AssistantMessage `json:"partial"`
}

// TextStartEvent opens text block ContentIndex.
type TextStartEvent struct {
	ContentIndex int               `json:"contentIndex"`
	Partial      *AssistantMessage `json:"partial"`
}

// TextDeltaEvent appends Delta to text block ContentIndex.
type TextDeltaEvent struct {
	ContentIndex int               `json:"contentIndex"`
	Delta        string            `json:"delta"`
	Partial      *AssistantMessage `json:"partial"`
}

// TextEndEvent closes text block ContentIndex, whose text is Content.
type TextEndEvent struct {
	ContentIndex int               `json:"contentIndex"`
	Content      string            `json:"content"`
	Partial      *AssistantMessage `json:"partial"`
}

// ThinkingStartEvent opens thinking block ContentIndex.
type ThinkingStartEvent struct {
	ContentIndex int               `json:"contentIndex"`
	Partial      *AssistantMessage `json:"partial"`
}

// ThinkingDeltaEvent appends Delta to thinking block ContentIndex.
type ThinkingDeltaEvent struct {
	ContentIndex int               `json:"contentIndex"`
	Delta        string            `json:"delta"`
	Partial      *AssistantMessage `json:"partial"`
}

// ThinkingEndEvent closes thinking block ContentIndex, whose text is Content.
type ThinkingEndEvent struct {
	ContentIndex int               `json:"contentIndex"`
	Content      string            `json:"content"`
	Partial      *AssistantMessage `json:"partial"`
}

// ToolCallStartEvent opens tool call block ContentIndex.
type ToolCallStartEvent struct {
	ContentIndex int               `json:"contentIndex"`
	Partial      *AssistantMessage `json:"partial"`
}

// ToolCallDeltaEvent streams a piece of the JSON text of tool call
// ContentIndex's arguments.
type ToolCallDeltaEvent struct {
	ContentIndex int               `json:"contentIndex"`
	Delta        string            `json:"delta"`
	Partial      *AssistantMessage `json:"partial"`
}

// ToolCallEndEvent closes tool call block ContentIndex with the complete call.
type ToolCallEndEvent struct {
	ContentIndex int               `json:"contentIndex"`
	ToolCall     ToolCall          `json:"toolCall"`
	Partial      *AssistantMessage `json:"partial"`
}

// DoneEvent ends a successful response with its final message.
type DoneEvent struct {
	// Reason is the message's stop reason: stop, length, toolUse or deferred.
	Reason  StopReason        `json:"reason"`
	Message *AssistantMessage `json:"message"`
}

// ErrorEvent ends a failed response. Message has stopReason error or
// aborted and an ErrorMessage.
type ErrorEvent struct {
	Reason  StopReason        `json:"reason"`
	Message *AssistantMessage `json:"error"`
}

// Type returns "start".
func (*StartEvent) Type() string { return "start" }

// Type returns "text_start".
func (*TextStartEvent) Type() string { return "text_start" }

// Type returns "text_delta".
func (*TextDeltaEvent) Type() string { return "text_delta" }

// Type returns "text_end".
func (*TextEndEvent) Type() string { return "text_end" }

// Type returns "thinking_start".
func (*ThinkingStartEvent) Type() string { return "thinking_start" }

// Type returns "thinking_delta".
func (*ThinkingDeltaEvent) Type() string { return "thinking_delta" }

// Type returns "thinking_end".
func (*ThinkingEndEvent) Type() string { return "thinking_end" }

// Type returns "toolcall_start".
func (*ToolCallStartEvent) Type() string { return "toolcall_start" }

// Type returns "toolcall_delta".
func (*ToolCallDeltaEvent) Type() string { return "toolcall_delta" }

// Type returns "toolcall_end".
func (*ToolCallEndEvent) Type() string { return "toolcall_end" }

// Type returns "done".
func (*DoneEvent) Type() string { return "done" }

// Type returns "error".
func (*ErrorEvent) Type() string { return "error" }

func (e *StartEvent) partial() *AssistantMessage         { return e.Partial }
func (e *TextStartEvent) partial() *AssistantMessage     { return e.Partial }
func (e *TextDeltaEvent) partial() *AssistantMessage     { return e.Partial }
func (e *TextEndEvent) partial() *AssistantMessage       { return e.Partial }
func (e *ThinkingStartEvent) partial() *AssistantMessage { return e.Partial }
func (e *ThinkingDeltaEvent) partial() *AssistantMessage { return e.Partial }
func (e *ThinkingEndEvent) partial() *AssistantMessage   { return e.Partial }
func (e *ToolCallStartEvent) partial() *AssistantMessage { return e.Partial }
func (e *ToolCallDeltaEvent) partial() *AssistantMessage { return e.Partial }
func (e *ToolCallEndEvent) partial() *AssistantMessage   { return e.Partial }
func (e *DoneEvent) partial() *AssistantMessage          { return e.Message }
func (e *ErrorEvent) partial() *AssistantMessage         { return e.Message }

func (e *StartEvent) setPartial(p *AssistantMessage)         { e.Partial = p }
func (e *TextStartEvent) setPartial(p *AssistantMessage)     { e.Partial = p }
func (e *TextDeltaEvent) setPartial(p *AssistantMessage)     { e.Partial = p }
func (e *TextEndEvent) setPartial(p *AssistantMessage)       { e.Partial = p }
func (e *ThinkingStartEvent) setPartial(p *AssistantMessage) { e.Partial = p }
func (e *ThinkingDeltaEvent) setPartial(p *AssistantMessage) { e.Partial = p }
func (e *ThinkingEndEvent) setPartial(p *AssistantMessage)   { e.Partial = p }
func (e *ToolCallStartEvent) setPartial(p *AssistantMessage) { e.Partial = p }
func (e *ToolCallDeltaEvent) setPartial(p *AssistantMessage) { e.Partial = p }
func (e *ToolCallEndEvent) setPartial(p *AssistantMessage)   { e.Partial = p }
func (e *DoneEvent) setPartial(*AssistantMessage)            {}
func (e *ErrorEvent) setPartial(*AssistantMessage)           {}

// isNilEvent reports whether ev is nil, or a nil pointer to an event
// type. Every consumer of a stream in this package skips such events, and
// [StreamWriter.Push] drops them.
func isNilEvent(ev AssistantEvent) bool { return ev == nil || reflect.ValueOf(ev).IsNil() }

// CloneEvent returns a copy of ev whose partial message is a clone
// ([AssistantMessage.Clone]): a consumer of an [AssistantStream] that keeps
// events beyond the yield keeps these. A final event, one without a
// partial, or a nil one (typed or not) is returned as it is.
func CloneEvent(ev AssistantEvent) AssistantEvent {
	if isNilEvent(ev) {
		return ev
	}
	p := ev.partial()
	switch ev.(type) {
	case *DoneEvent, *ErrorEvent:
		return ev
	}
	if p == nil {
		return ev
	}
	v := reflect.ValueOf(ev).Elem()
	c := reflect.New(v.Type())
	c.Elem().Set(v)
	out := c.Interface().(AssistantEvent)
	out.setPartial(p.Clone())
	return out
}

// marshalEvent writes v with "type" first.
func marshalEvent(ev AssistantEvent, v any) ([]byte, error) {
	return marshalTagged("type", ev.Type(), v)
}

// MarshalJSON writes the event with its "type".
func (e StartEvent) MarshalJSON() ([]byte, error) { type p StartEvent; return marshalEvent(&e, p(e)) }

// MarshalJSON writes the event with its "type".
func (e TextStartEvent) MarshalJSON() ([]byte, error) {
	type p TextStartEvent
	return marshalEvent(&e, p(e))
}

// MarshalJSON writes the event with its "type".
func (e TextDeltaEvent) MarshalJSON() ([]byte, error) {
	type p TextDeltaEvent
	return marshalEvent(&e, p(e))
}

// MarshalJSON writes the event with its "type".
func (e TextEndEvent) MarshalJSON() ([]byte, error) {
	type p TextEndEvent
	return marshalEvent(&e, p(e))
}

// MarshalJSON writes the event with its "type".
func (e ThinkingStartEvent) MarshalJSON() ([]byte, error) {
	type p ThinkingStartEvent
	return marshalEvent(&e, p(e))
}

// MarshalJSON writes the event with its "type".
func (e ThinkingDeltaEvent) MarshalJSON() ([]byte, error) {
	type p ThinkingDeltaEvent
	return marshalEvent(&e, p(e))
}

// MarshalJSON writes the event with its "type".
func (e ThinkingEndEvent) MarshalJSON() ([]byte, error) {
	type p ThinkingEndEvent
	return marshalEvent(&e, p(e))
}

// MarshalJSON writes the event with its "type".
func (e ToolCallStartEvent) MarshalJSON() ([]byte, error) {
	type p ToolCallStartEvent
	return marshalEvent(&e, p(e))
}

// MarshalJSON writes the event with its "type".
func (e ToolCallDeltaEvent) MarshalJSON() ([]byte, error) {
	type p ToolCallDeltaEvent
	return marshalEvent(&e, p(e))
}

// MarshalJSON writes the event with its "type".
func (e ToolCallEndEvent) MarshalJSON() ([]byte, error) {
	type p ToolCallEndEvent
	return marshalEvent(&e, p(e))
}

// MarshalJSON writes the event with its "type".
func (e DoneEvent) MarshalJSON() ([]byte, error) { type p DoneEvent; return marshalEvent(&e, p(e)) }

// MarshalJSON writes the event with its "type".
func (e ErrorEvent) MarshalJSON() ([]byte, error) { type p ErrorEvent; return marshalEvent(&e, p(e)) }

var _ json.Marshaler = StartEvent{}
