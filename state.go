package agentcore

import "slices"

// State is a snapshot of an [Agent]. Its slices are copies the caller owns;
// the messages and tools in them are shared and must not be modified.
type State struct {
	// SystemPrompt is the prompt replayed from the transcript's system
	// messages: [SystemPromptText] of [CurrentSystemMessage].
	SystemPrompt  string
	Model         Model
	ThinkingLevel ThinkingLevel
	// Tools are the executable tools.
	Tools    []Tool
	Messages []Message
	// IsStreaming is true from the start of a run until its agent_end
	// listeners have returned.
	IsStreaming bool
	// StreamingMessage is the message between its message_start and
	// message_end events, if any: a partial assistant message while it
	// streams (a snapshot the caller may keep), or briefly a user or tool
	// result.
	StreamingMessage Message
	// PendingToolCalls are the IDs of the tool calls executing, in start order.
	PendingToolCalls []string
	// ToolExecution is how the tool calls of the Agent's runs are executed
	// (see [Agent.ToolExecution]).
	ToolExecution ToolExecutionMode
	// SteeringMode and FollowUpMode are how many queued messages a drain
	// point takes from each queue.
	SteeringMode QueueMode
	FollowUpMode QueueMode
	// ErrorMessage is the error of the last failed or aborted turn of the
	// current or last run; it is cleared when a run starts.
	ErrorMessage string
}

// State returns a snapshot of the Agent's state.
func (a *Agent) State() State {
	a.mu.Lock()
	defer a.mu.Unlock()
	return State{
		SystemPrompt:     SystemPromptText(CurrentSystemMessage(a.messages)),
		Model:            a.model,
		ThinkingLevel:    a.level,
		Tools:            slices.Clone(a.tools),
		Messages:         slices.Clone(a.messages),
		IsStreaming:      a.streaming,
		StreamingMessage: a.current,
		PendingToolCalls: slices.Clone(a.pending),
		ToolExecution:    a.toolExecution.orParallel(),
		SteeringMode:     a.steering.mode,
		FollowUpMode:     a.followUp.mode,
		ErrorMessage:     a.errorText,
	}
}

// Messages returns a copy of the transcript.
func (a *Agent) Messages() []Message {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.messages)
}

// IsStreaming reports whether a run is active.
func (a *Agent) IsStreaming() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.streaming
}

// SetModel sets the model of future runs.
func (a *Agent) SetModel(m Model) {
	a.mu.Lock()
	a.model = m
	a.mu.Unlock()
}

// SetThinkingLevel sets the thinking level of future runs; empty means off.
func (a *Agent) SetThinkingLevel(l ThinkingLevel) {
	a.mu.Lock()
	a.level = l.orOff()
	a.mu.Unlock()
}

// SetTools replaces the executable tools (copied). A run in progress keeps
// its own; the difference is declared to the model before the next request
// of a later run.
func (a *Agent) SetTools(tools []Tool) {
	a.mu.Lock()
	a.tools = slices.Clone(tools)
	a.mu.Unlock()
}

// SetMessages replaces the transcript with a copy of messages, without
// their nil messages, and emits a [TranscriptSetEvent] carrying it. A run
// in progress works on its own snapshot and appends its messages to the
// new transcript.
func (a *Agent) SetMessages(messages []Message) {
	messages = withoutNil(messages)
	a.mu.Lock()
	a.messages = messages
	a.post(&TranscriptSetEvent{Messages: view(messages)})
	a.settle()
}

// AppendMessage appends m to the transcript and emits a
// [MessageStartEvent] and a [MessageEndEvent] for it, as a run does for
// each message it adds; a nil m is ignored.
func (a *Agent) AppendMessage(m Message) {
	if isNilMessage(m) {
		return
	}
	a.mu.Lock()
	a.messages = append(a.messages, m)
	a.post(&MessageStartEvent{Message: m}, &MessageEndEvent{Message: m})
	a.settle()
}

// ToolCallOptions returns what [RunToolCall] needs to run a call as the
// Agent's runs do: the Agent's tools as its layers wrap them, its
// BeforeToolCall and AfterToolCall hooks as its layers compose them, and
// its transcript and tools as the hooks' Context. A layer that runs a call
// outside the loop (an approved held call, from its run wrapper) uses it
// so that every layer's and the program's hooks apply. The slices are
// copies; AssistantMessage is left nil for the caller to set.
func (a *Agent) ToolCallOptions() RunToolCallOptions {
	a.mu.Lock()
	defer a.mu.Unlock()
	tools, err := a.layers.wrapTools(a.tools)
	if err != nil {
		tools = a.tools // the runs fail with the wrapper's error
	}
	tools = slices.Clone(tools)
	return RunToolCallOptions{
		Tools:          tools,
		Context:        AgentContext{Messages: slices.Clone(a.messages), Tools: tools},
		BeforeToolCall: a.layers.hooks.BeforeToolCall,
		AfterToolCall:  a.layers.hooks.AfterToolCall,
	}
}
