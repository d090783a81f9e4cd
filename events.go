package agentcore

import "encoding/json"

// AgentEvent is one event of a run, in pi's lifecycle:
//
//	agent_start
//	  turn_start                              one model request and its tools
//	    message_start / message_end           every message, any role
//	    message_update                        assistant streaming only
//	    tool_execution_start / _update / _end each tool call
//	  turn_end
//	agent_end                                 the run's new messages
//
// and, from an [Agent] only, the events of the transcript changes its
// methods make, during a run or between runs:
//
//	message_start / message_end               Agent.AppendMessage
//	message_replace                           Agent.ReplaceMessage
//	transcript_set                            Agent.SetMessages, Agent.Reset
//
// (the package doc's events section says when these come).
//
// The set is closed, and its members are pointers: *[AgentStartEvent],
// *[AgentEndEvent], *[TurnStartEvent], *[TurnEndEvent], *[MessageStartEvent],
// *[MessageUpdateEvent], *[MessageEndEvent], *[ToolExecutionStartEvent],
// *[ToolExecutionUpdateEvent], *[ToolExecutionEndEvent],
// *[MessageReplaceEvent] and *[TranscriptSetEvent]. A listener ignores the
// members it does not know. Switch on them
// as go/ast's nodes are switched on:
//
//	switch ev := ev.(type) {
//	case *agentcore.MessageUpdateEvent:
//		...
//	}
//
// (a case of the value type does not compile).
//
// Events are immutable: keep them freely, hand them to other goroutines.
// Neither they nor the messages they carry, shared with the loop and the
// Agent's transcript, may be modified.
type AgentEvent interface {
	// Type is the event's wire type, such as "message_end".
	Type() string
	agentEvent()
}

// AgentStartEvent opens a run.
type AgentStartEvent struct{}

// AgentEndEvent is the last event of a run. Messages are the messages the
// run added (for a prompt run, the prompts first), shared by every holder
// of the event and by [LoopRun.Wait]: appending to the slice copies it.
type AgentEndEvent struct {
	Messages []Message `json:"messages"`
}

// TurnStartEvent opens a turn: one model request and its tool calls.
type TurnStartEvent struct{}

// TurnEndEvent closes a turn with its assistant message and tool results.
type TurnEndEvent struct {
	Message     *AssistantMessage    `json:"message"`
	ToolResults []*ToolResultMessage `json:"toolResults"`
}

// MessageStartEvent announces a message. For an assistant message it is the
// first partial of the response.
type MessageStartEvent struct {
	Message Message `json:"message"`
}

// MessageUpdateEvent is one streaming step of an assistant message: the
// provider's event and the partial message after it. Message is a snapshot
// that never changes, and AssistantEvent's Partial is that same snapshot.
type MessageUpdateEvent struct {
	// Message is the partial assistant message after the event.
	Message *AssistantMessage `json:"message"`
	// AssistantEvent is the provider's event: a [TextDeltaEvent], say.
	AssistantEvent AssistantEvent `json:"assistantMessageEvent"`
}

// MessageEndEvent completes a message; the [Agent] appends it to its
// transcript before listeners see this event.
type MessageEndEvent struct {
	Message Message `json:"message"`
}

// ToolExecutionStartEvent opens a tool call. Args are the call's arguments
// as the model sent them.
type ToolExecutionStartEvent struct {
	ToolCallID string          `json:"toolCallId"`
	ToolName   string          `json:"toolName"`
	Args       json.RawMessage `json:"args"`
}

// ToolExecutionUpdateEvent carries a partial result a tool reported through
// its update callback.
type ToolExecutionUpdateEvent struct {
	ToolCallID    string          `json:"toolCallId"`
	ToolName      string          `json:"toolName"`
	Args          json.RawMessage `json:"args"`
	PartialResult ToolResult      `json:"partialResult"`
}

// ToolExecutionEndEvent closes a tool call with its final result, after
// [Hooks.AfterToolCall]. In a parallel batch these come in completion order.
type ToolExecutionEndEvent struct {
	ToolCallID string     `json:"toolCallId"`
	ToolName   string     `json:"toolName"`
	Result     ToolResult `json:"result"`
	IsError    bool       `json:"isError"`
	// DurationMs is how long Execute took; nil when the tool did not run.
	DurationMs *int64 `json:"durationMs,omitempty"`
}

// Type returns "agent_start".
func (*AgentStartEvent) Type() string { return "agent_start" }

// Type returns "agent_end".
func (*AgentEndEvent) Type() string { return "agent_end" }

// Type returns "turn_start".
func (*TurnStartEvent) Type() string { return "turn_start" }

// Type returns "turn_end".
func (*TurnEndEvent) Type() string { return "turn_end" }

// Type returns "message_start".
func (*MessageStartEvent) Type() string { return "message_start" }

// Type returns "message_update".
func (*MessageUpdateEvent) Type() string { return "message_update" }

// Type returns "message_end".
func (*MessageEndEvent) Type() string { return "message_end" }

// Type returns "tool_execution_start".
func (*ToolExecutionStartEvent) Type() string { return "tool_execution_start" }

// Type returns "tool_execution_update".
func (*ToolExecutionUpdateEvent) Type() string { return "tool_execution_update" }

// Type returns "tool_execution_end".
func (*ToolExecutionEndEvent) Type() string { return "tool_execution_end" }

func (*AgentStartEvent) agentEvent()          {}
func (*AgentEndEvent) agentEvent()            {}
func (*TurnStartEvent) agentEvent()           {}
func (*TurnEndEvent) agentEvent()             {}
func (*MessageStartEvent) agentEvent()        {}
func (*MessageUpdateEvent) agentEvent()       {}
func (*MessageEndEvent) agentEvent()          {}
func (*ToolExecutionStartEvent) agentEvent()  {}
func (*ToolExecutionUpdateEvent) agentEvent() {}
func (*ToolExecutionEndEvent) agentEvent()    {}

// MarshalJSON writes {"type":"agent_start"}.
func (e AgentStartEvent) MarshalJSON() ([]byte, error) {
	return marshalTagged("type", e.Type(), struct{}{})
}

// MarshalJSON writes {"type":"turn_start"}.
func (e TurnStartEvent) MarshalJSON() ([]byte, error) {
	return marshalTagged("type", e.Type(), struct{}{})
}

// MarshalJSON writes the event with its "type".
func (e AgentEndEvent) MarshalJSON() ([]byte, error) {
	type p AgentEndEvent
	if e.Messages == nil {
		e.Messages = []Message{}
	}
	return marshalTagged("type", e.Type(), p(e))
}

// MarshalJSON writes the event with its "type".
func (e TurnEndEvent) MarshalJSON() ([]byte, error) {
	type p TurnEndEvent
	if e.ToolResults == nil {
		e.ToolResults = []*ToolResultMessage{}
	}
	return marshalTagged("type", e.Type(), p(e))
}

// MarshalJSON writes the event with its "type".
func (e MessageStartEvent) MarshalJSON() ([]byte, error) {
	type p MessageStartEvent
	return marshalTagged("type", e.Type(), p(e))
}

// MarshalJSON writes the event with its "type".
func (e MessageUpdateEvent) MarshalJSON() ([]byte, error) {
	type p MessageUpdateEvent
	return marshalTagged("type", e.Type(), p(e))
}

// MarshalJSON writes the event with its "type".
func (e MessageEndEvent) MarshalJSON() ([]byte, error) {
	type p MessageEndEvent
	return marshalTagged("type", e.Type(), p(e))
}

// MarshalJSON writes the event with its "type".
func (e ToolExecutionStartEvent) MarshalJSON() ([]byte, error) {
	type p ToolExecutionStartEvent
	e.Args = argsOrEmpty(e.Args)
	return marshalTagged("type", e.Type(), p(e))
}

// MarshalJSON writes the event with its "type".
func (e ToolExecutionUpdateEvent) MarshalJSON() ([]byte, error) {
	type p ToolExecutionUpdateEvent
	e.Args = argsOrEmpty(e.Args)
	return marshalTagged("type", e.Type(), p(e))
}

// MarshalJSON writes the event with its "type".
func (e ToolExecutionEndEvent) MarshalJSON() ([]byte, error) {
	type p ToolExecutionEndEvent
	return marshalTagged("type", e.Type(), p(e))
}

func argsOrEmpty(args json.RawMessage) json.RawMessage {
	if len(args) == 0 {
		return json.RawMessage("{}")
	}
	return args
}
