package agui

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/pi-go/agentcore"
)

// Event types, as AG-UI spells them.
const (
	evRunStarted          = "RUN_STARTED"
	evRunFinished         = "RUN_FINISHED"
	evRunError            = "RUN_ERROR"
	evStepStarted         = "STEP_STARTED"
	evStepFinished        = "STEP_FINISHED"
	evTextStart           = "TEXT_MESSAGE_START"
	evTextContent         = "TEXT_MESSAGE_CONTENT"
	evTextEnd             = "TEXT_MESSAGE_END"
	evReasoningStart      = "REASONING_START"
	evReasoningMsgStart   = "REASONING_MESSAGE_START"
	evReasoningMsgContent = "REASONING_MESSAGE_CONTENT"
	evReasoningMsgEnd     = "REASONING_MESSAGE_END"
	evReasoningEnd        = "REASONING_END"
	evReasoningEncrypted  = "REASONING_ENCRYPTED_VALUE"
	evToolCallStart       = "TOOL_CALL_START"
	evToolCallArgs        = "TOOL_CALL_ARGS"
	evToolCallEnd         = "TOOL_CALL_END"
	evToolCallResult      = "TOOL_CALL_RESULT"
	evMessagesSnapshot    = "MESSAGES_SNAPSHOT"
	evStateSnapshot       = "STATE_SNAPSHOT"
	evStateDelta          = "STATE_DELTA"
)

// blockKind is the kind of an assistant content block being streamed.
type blockKind int

const (
	kindText blockKind = iota + 1
	kindThinking
	kindToolCall
)

// openBlock is a content block whose start event was written.
type openBlock struct {
	kind blockKind
	id   string // the message ID (text, reasoning) or tool call ID
	args bool   // a tool call's arguments were written
}

// relay maps the events of one run onto AG-UI events. handle runs on the
// run's goroutine; the front-end tools' Execute, on the calls'
// goroutines, reaches it through frontCall.
type relay struct {
	in     *RunInput
	out    *eventWriter
	thread *thread
	view   *view           // the client's messages as the events leave them
	front  map[string]bool // the names of this run's front-end tools
	// resumed are the calls the Gate held when the request came: their
	// results replace the placeholders when the run starts.
	resumed []string
	prompts []agentcore.Message // the run's prompts, not in the transcript at its start

	mu      sync.Mutex
	pending []string // the front-end calls of the run, in call order

	started   bool // the loop started: agent_start came
	steps     int
	aid       string             // the assistant message being streamed
	open      map[int]*openBlock // by content index
	seen      map[int]bool       // content indexes whose start was written
	last      *agentcore.AssistantMessage
	usage     []tokenUsage
	writeFail bool
}

// runKey is the context key of the relay of a run.
type runKey struct{}

// relayFrom returns the relay of the run ctx belongs to.
func relayFrom(ctx context.Context) *relay {
	r, _ := ctx.Value(runKey{}).(*relay)
	return r
}

// frontCall records a call of a front-end tool: the run ends after the
// turn, with the call pending.
func (r *relay) frontCall(id string) {
	r.mu.Lock()
	r.pending = append(r.pending, id)
	r.mu.Unlock()
}

// pendingCalls returns the front-end calls of the run so far.
func (r *relay) pendingCalls() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.pending)
}

func (r *relay) isPending(id string) bool { return slices.Contains(r.pendingCalls(), id) }

func (r *relay) emit(ev any) {
	r.view.apply(ev)
	if r.out.write(ev) != nil {
		r.writeFail = true
	}
}

// sync brings the client's messages to want, the thread's messages as
// AG-UI messages, when the events left them otherwise: with a snapshot of
// want, after a snapshot of the part the client holds in place when it
// holds messages that belong after some it lacks (see [view]).
func (r *relay) sync(want []json.RawMessage) {
	if r.view.matches(want) {
		return
	}
	if n := r.view.agreed(want); n < len(r.view.msgs) {
		r.emit(messagesSnapshot{evMessagesSnapshot, want[:n:n]})
	}
	r.emit(messagesSnapshot{evMessagesSnapshot, want})
}

// handle maps one agent event; see the package documentation.
func (r *relay) handle(_ context.Context, ev agentcore.AgentEvent) {
	switch ev := ev.(type) {
	case *agentcore.AgentStartEvent:
		r.started = true
		r.resolved()
	case *agentcore.TurnStartEvent:
		r.steps++
		r.emit(step{evStepStarted, r.stepName()})
	case *agentcore.TurnEndEvent:
		r.closeOpen()
		r.emit(step{evStepFinished, r.stepName()})
	case *agentcore.MessageStartEvent:
		if _, ok := ev.Message.(*agentcore.AssistantMessage); ok {
			r.aid, r.open, r.seen = newID(), map[int]*openBlock{}, map[int]bool{}
		}
	case *agentcore.MessageUpdateEvent:
		r.update(ev.Message, ev.AssistantEvent)
	case *agentcore.MessageEndEvent:
		r.messageEnd(ev.Message)
	case *agentcore.MessageReplaceEvent:
		r.replaced(ev.Old, ev.Message)
	}
}

// replaced maps the replacement of a transcript message: the new message
// takes the old one's ID. A tool result the client lacks (a held call's
// placeholder, replaced by the call's result) is written as
// TOOL_CALL_RESULT under that ID; a message the client shows is replaced
// in place by the snapshot that ends the run (see [relay.sync]).
func (r *relay) replaced(old, m agentcore.Message) {
	id, ok := r.thread.ids[old]
	if !ok {
		id = newID()
	}
	r.thread.ids[m] = id
	res, ok := m.(*agentcore.ToolResultMessage)
	if !ok || r.isPending(res.ToolCallID) || (r.thread.gate != nil && r.thread.gate.Holds(res.ToolCallID)) || r.view.find(id) != nil {
		return
	}
	r.emit(toolCallResult{evToolCallResult, id, res.ToolCallID, contentJSON(res.Content), roleTool})
}

// resolved writes TOOL_CALL_RESULT for the held calls whose results the
// Gate put in the transcript as the run started without a
// message_replace event (which [relay.replaced] maps), against the calls'
// original IDs, then brings the client's list in order.
func (r *relay) resolved() {
	if len(r.resumed) == 0 {
		return
	}
	for _, m := range r.thread.agent.Messages() {
		res, ok := m.(*agentcore.ToolResultMessage)
		if _, named := r.thread.ids[m]; !ok || named || !slices.Contains(r.resumed, res.ToolCallID) {
			continue
		}
		id := newID()
		r.thread.ids[m] = id
		r.emit(toolCallResult{evToolCallResult, id, res.ToolCallID, contentJSON(res.Content), roleTool})
	}
	r.resumed = nil
	// The events leave a result the client places after results it
	// holds, or a denial without its error: set the list right before
	// the run's first step.
	r.sync(r.thread.snapshot(append(r.thread.agent.Messages(), r.prompts...)))
}

func (r *relay) stepName() string { return fmt.Sprintf("turn %d", r.steps) }

// The phases of a content block's streaming events.
const (
	phaseNone = iota
	phaseStart
	phaseDelta
	phaseEnd
)

// phaseOf tells which phase of which content block ev is, with its delta.
func phaseOf(ev agentcore.AssistantEvent) (phase, index int, delta string) {
	switch ev := ev.(type) {
	case *agentcore.TextStartEvent:
		return phaseStart, ev.ContentIndex, ""
	case *agentcore.ThinkingStartEvent:
		return phaseStart, ev.ContentIndex, ""
	case *agentcore.ToolCallStartEvent:
		return phaseStart, ev.ContentIndex, ""
	case *agentcore.TextDeltaEvent:
		return phaseDelta, ev.ContentIndex, ev.Delta
	case *agentcore.ThinkingDeltaEvent:
		return phaseDelta, ev.ContentIndex, ev.Delta
	case *agentcore.ToolCallDeltaEvent:
		return phaseDelta, ev.ContentIndex, ev.Delta
	case *agentcore.TextEndEvent:
		return phaseEnd, ev.ContentIndex, ""
	case *agentcore.ThinkingEndEvent:
		return phaseEnd, ev.ContentIndex, ""
	case *agentcore.ToolCallEndEvent:
		return phaseEnd, ev.ContentIndex, ""
	}
	return phaseNone, 0, ""
}

// update maps one streaming event of the assistant message msg.
func (r *relay) update(msg *agentcore.AssistantMessage, ev agentcore.AssistantEvent) {
	phase, i, delta := phaseOf(ev)
	switch phase {
	case phaseStart:
		r.startBlock(i, msg)
	case phaseDelta:
		r.delta(i, delta, msg)
	case phaseEnd:
		r.endBlock(i, msg)
	}
}

// delta writes a delta of open content block i of msg; empty deltas, and
// the opaque payload of redacted thinking, are not written.
func (r *relay) delta(i int, delta string, msg *agentcore.AssistantMessage) {
	b := r.open[i]
	if b == nil || delta == "" {
		return
	}
	switch b.kind {
	case kindText:
		r.emit(messageContent{evTextContent, b.id, delta})
	case kindThinking:
		if !redacted(msg, i) {
			r.emit(messageContent{evReasoningMsgContent, b.id, delta})
		}
	case kindToolCall:
		b.args = true
		r.emit(toolCallArgs{evToolCallArgs, b.id, delta})
	}
}

// redacted reports whether block i of msg is redacted thinking, whose
// text is an opaque payload rather than reasoning to show.
func redacted(msg *agentcore.AssistantMessage, i int) bool {
	if msg == nil || i < 0 || i >= len(msg.Content) {
		return false
	}
	b, ok := msg.Content[i].(agentcore.ThinkingBlock)
	return ok && b.Redacted
}

// block returns content block i of msg, or nil.
func block(msg *agentcore.AssistantMessage, i int) agentcore.ContentBlock {
	if msg == nil || i < 0 || i >= len(msg.Content) {
		return nil
	}
	return msg.Content[i]
}

// startBlock writes the start of content block i of msg.
func (r *relay) startBlock(i int, msg *agentcore.AssistantMessage) {
	if r.open == nil || r.seen[i] {
		return
	}
	switch b := block(msg, i).(type) {
	case agentcore.TextBlock:
		r.open[i] = &openBlock{kind: kindText, id: r.aid}
		r.emit(messageStart{evTextStart, r.aid, roleAssistant})
	case agentcore.ThinkingBlock:
		id := reasoningID(r.aid, i)
		r.open[i] = &openBlock{kind: kindThinking, id: id}
		r.emit(messageEvent{evReasoningStart, id})
		r.emit(messageStart{evReasoningMsgStart, id, roleReasoning})
	case agentcore.ToolCall:
		r.open[i] = &openBlock{kind: kindToolCall, id: b.ID}
		r.emit(toolCallStart{evToolCallStart, b.ID, b.Name, r.aid})
	default:
		return
	}
	r.seen[i] = true
}

// endBlock writes the end of content block i, as msg holds it complete.
func (r *relay) endBlock(i int, msg *agentcore.AssistantMessage) {
	b := r.open[i]
	if b == nil {
		return
	}
	delete(r.open, i)
	switch b.kind {
	case kindText:
		r.emit(messageEvent{evTextEnd, b.id})
	case kindThinking:
		r.emit(messageEvent{evReasoningMsgEnd, b.id})
		if t, ok := block(msg, i).(agentcore.ThinkingBlock); ok {
			if v := encrypted(t); v != "" {
				r.emit(encryptedValue{evReasoningEncrypted, "message", b.id, v})
			}
		}
		r.emit(messageEvent{evReasoningEnd, b.id})
	case kindToolCall:
		tc, _ := block(msg, i).(agentcore.ToolCall)
		if !b.args {
			r.emit(toolCallArgs{evToolCallArgs, b.id, string(argsOrEmpty(tc.Arguments))})
		}
		r.emit(toolCallEnd{evToolCallEnd, b.id})
		if tc.ThoughtSignature != "" {
			r.emit(encryptedValue{evReasoningEncrypted, "tool-call", b.id, tc.ThoughtSignature})
		}
	}
}

// encrypted is the encrypted reasoning of a thinking block: its
// signature, or the payload of redacted thinking.
func encrypted(t agentcore.ThinkingBlock) string {
	if t.ThinkingSignature != "" {
		return t.ThinkingSignature
	}
	if t.Redacted {
		return t.Thinking
	}
	return ""
}

// closeOpen ends the blocks still open, as the partial message last seen
// holds them (a stream cut off by an abort or an error ends none).
func (r *relay) closeOpen() {
	for _, i := range sortedKeys(r.open) {
		r.endBlock(i, r.last)
	}
}

func sortedKeys(m map[int]*openBlock) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// messageEnd maps the end of a message of the run.
func (r *relay) messageEnd(m agentcore.Message) {
	switch m := m.(type) {
	case *agentcore.AssistantMessage:
		if r.open == nil { // no start event: a message the loop made whole
			r.aid, r.open, r.seen = newID(), map[int]*openBlock{}, map[int]bool{}
		}
		r.last = m
		r.closeOpen()
		for i := range m.Content {
			if !r.seen[i] {
				r.wholeBlock(i, m)
			}
		}
		r.thread.ids[m] = r.aid
		r.usage = addUsage(r.usage, m)
		r.open, r.seen = nil, nil
	case *agentcore.ToolResultMessage:
		if r.isPending(m.ToolCallID) || (r.thread.gate != nil && r.thread.gate.Holds(m.ToolCallID)) {
			// A placeholder: the client answers the call, or a person
			// decides it. It is named, not shown: the result that
			// replaces it takes its ID.
			r.thread.ids[m] = newID()
			return
		}
		id := newID()
		r.thread.ids[m] = id
		r.emit(toolCallResult{evToolCallResult, id, m.ToolCallID, contentJSON(m.Content), roleTool})
	case *agentcore.UserMessage:
		if _, known := r.thread.ids[m]; known {
			return // the client's own prompt
		}
		id := newID() // steering or a follow-up the program queued
		r.thread.ids[m] = id
		r.emit(messageStart{evTextStart, id, roleUser})
		if text := m.Content.Text(); text != "" {
			r.emit(messageContent{evTextContent, id, text})
		}
		r.emit(messageEvent{evTextEnd, id})
	}
}

// wholeBlock writes block i of m, which was not streamed, start to end.
func (r *relay) wholeBlock(i int, m *agentcore.AssistantMessage) {
	r.startBlock(i, m)
	b := r.open[i]
	if b == nil {
		return
	}
	switch c := m.Content[i].(type) {
	case agentcore.TextBlock:
		if c.Text != "" {
			r.emit(messageContent{evTextContent, b.id, c.Text})
		}
	case agentcore.ThinkingBlock:
		if c.Thinking != "" && !c.Redacted {
			r.emit(messageContent{evReasoningMsgContent, b.id, c.Thinking})
		}
	}
	r.endBlock(i, m)
}

// addUsage adds m's usage to the run's, one entry per provider and model.
func addUsage(usage []tokenUsage, m *agentcore.AssistantMessage) []tokenUsage {
	u := m.Usage
	if u.Input == 0 && u.Output == 0 && u.CacheRead == 0 && u.CacheWrite == 0 {
		return usage
	}
	i := slices.IndexFunc(usage, func(t tokenUsage) bool { return t.Provider == m.Provider && t.Model == m.Model })
	if i < 0 {
		usage = append(usage, tokenUsage{Provider: m.Provider, Model: m.Model})
		i = len(usage) - 1
	}
	t := &usage[i]
	in := u.Input + u.CacheRead + u.CacheWrite
	t.InputTokens += in
	t.OutputTokens += u.Output
	t.TotalTokens += in + u.Output
	t.CachedInputTokens += u.CacheRead
	t.CacheWriteInputTokens += u.CacheWrite
	if u.Reasoning != nil {
		t.ReasoningTokens = new(*u.Reasoning + deref(t.ReasoningTokens))
	}
	return usage
}

func deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// newID returns a fresh message ID.
func newID() string { return "msg-" + rand.Text() }
