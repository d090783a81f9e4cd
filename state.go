package agentcore

import "slices"

// State is a snapshot of an [Agent]. Its slices are copies the caller owns;
// the messages and tools in them are shared and must not be modified.
type State struct {
	// SystemPrompt is the prompt replayed from the transcript's system
	// messages (see [CurrentSystemPrompt]).
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
	// ErrorMessage is the error of the last failed or aborted turn of the
	// current or last run; it is cleared when a run starts.
	ErrorMessage string
}

// State returns a snapshot of the Agent's state.
func (a *Agent) State() State {
	a.mu.Lock()
	defer a.mu.Unlock()
	return State{
		SystemPrompt:     CurrentSystemPrompt(a.messages),
		Model:            a.model,
		ThinkingLevel:    a.level,
		Tools:            slices.Clone(a.tools),
		Messages:         slices.Clone(a.messages),
		IsStreaming:      a.streaming,
		StreamingMessage: a.current,
		PendingToolCalls: slices.Clone(a.pending),
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
// their nil messages. A run in progress works on its own snapshot and
// appends its messages to the new transcript.
func (a *Agent) SetMessages(messages []Message) {
	messages = withoutNil(messages)
	a.mu.Lock()
	a.messages = messages
	a.mu.Unlock()
}

// AppendMessage appends m to the transcript; a nil m is ignored.
func (a *Agent) AppendMessage(m Message) {
	if isNilMessage(m) {
		return
	}
	a.mu.Lock()
	a.messages = append(a.messages, m)
	a.mu.Unlock()
}

// Steer queues m for injection after the current turn's tool calls, before
// the next request. It never interrupts work in progress; use
// [Agent.Abort] to stop. A nil m is ignored. A run that fails after taking
// m and before delivering it (its message_end) puts it back in the queue.
func (a *Agent) Steer(m Message) {
	if isNilMessage(m) {
		return
	}
	a.mu.Lock()
	a.steering.push(m)
	a.mu.Unlock()
}

// FollowUp queues m to be processed when the run would otherwise end. A
// nil m is ignored. As with [Agent.Steer], a run that fails before
// delivering m puts it back in the queue.
func (a *Agent) FollowUp(m Message) {
	if isNilMessage(m) {
		return
	}
	a.mu.Lock()
	a.followUp.push(m)
	a.mu.Unlock()
}

// SteeringMode returns how many steering messages a drain point takes.
func (a *Agent) SteeringMode() QueueMode {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.steering.mode
}

// FollowUpMode returns how many follow-up messages a drain point takes.
func (a *Agent) FollowUpMode() QueueMode {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.followUp.mode
}

// SetSteeringMode sets how many steering messages a drain point takes.
func (a *Agent) SetSteeringMode(m QueueMode) {
	a.mu.Lock()
	a.steering.mode = orOneAtATime(m)
	a.mu.Unlock()
}

// SetFollowUpMode sets how many follow-up messages a drain point takes.
func (a *Agent) SetFollowUpMode(m QueueMode) {
	a.mu.Lock()
	a.followUp.mode = orOneAtATime(m)
	a.mu.Unlock()
}

// Queue names the Agent's message queues, for [Agent.ClearQueue].
type Queue uint8

// The queues.
const (
	// SteeringQueue holds the messages of [Agent.Steer].
	SteeringQueue Queue = 1 << iota
	// FollowUpQueue holds the messages of [Agent.FollowUp].
	FollowUpQueue
	// AllQueues is both.
	AllQueues = SteeringQueue | FollowUpQueue
)

// ClearQueue drops the messages queued in q: [SteeringQueue],
// [FollowUpQueue] or [AllQueues].
func (a *Agent) ClearQueue(q Queue) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if q&SteeringQueue != 0 {
		a.steering.clear()
	}
	if q&FollowUpQueue != 0 {
		a.followUp.clear()
	}
}

// HasQueued reports whether either queue holds a message.
func (a *Agent) HasQueued() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.steering.items) > 0 || len(a.followUp.items) > 0
}

// PeekQueued returns what the next drain point would take, without taking
// it: steering first, else follow-ups, by each queue's mode.
func (a *Agent) PeekQueued() []Message {
	a.mu.Lock()
	defer a.mu.Unlock()
	if s := a.steering.peek(); len(s) > 0 {
		return s
	}
	return a.followUp.peek()
}
