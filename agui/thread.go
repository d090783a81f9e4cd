package agui

import (
	"container/list"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/hold"
	"github.com/pi-go/agentcore/internal/limit"
)

// placeholderText is the result a front-end call holds in the transcript
// until its client answers it: what the model sees if it never does.
const placeholderText = "No result: this tool runs in the user's browser, which did not answer the call."

// thread is one conversation: its Agent and what the handler knows of its
// messages. mu is held for the whole of a run; the fields below it are
// used only by the request holding it.
type thread struct {
	mu sync.Mutex

	// id, used and elem are the handler's, under its lock: the thread's
	// ID, when its last request ended, its place in the idle list.
	id   string
	used time.Time
	elem *list.Element

	agent  *agentcore.Agent
	gate   *hold.Gate       // the Agent's Gate, or nil: see [gateOf]
	server []agentcore.Tool // the program's tools
	// ids are the AG-UI IDs of the transcript's messages.
	ids map[agentcore.Message]string
	// rids are the IDs a client gave the reasoning messages that became
	// thinking blocks; the others are named by [reasoningID].
	rids map[blockKey]string
	// pending are the front-end calls waiting for their client's answer.
	pending []string
	// ran is set once a run started: the client's history was adopted.
	ran bool
	// file is the thread's session file, with [Options].SessionDir.
	file *threadFile
}

// newThread makes the Agent of a thread from the program's options, with
// the handler's layer after the program's layers (see [frontEndLayer]).
func newThread(opts agentcore.Options) *thread {
	opts.Layers = append(slices.Clip(opts.Layers), agentcore.LayerFunc(frontEndLayer))
	return &thread{
		agent: agentcore.New(opts), gate: gateOf(opts.Layers), server: slices.Clone(opts.Tools),
		ids: map[agentcore.Message]string{}, rids: map[blockKey]string{},
	}
}

// frontEndLayer is the handler's layer on every thread's Agent: its
// FinishTurn ends the run after a turn that called a front-end tool.
func frontEndLayer(s *agentcore.Setup) {
	s.AddHooks(agentcore.Hooks{
		FinishTurn: func(ctx context.Context, _ agentcore.TurnContext) (agentcore.TurnDecision, error) {
			if r := relayFrom(ctx); r != nil && len(r.pendingCalls()) > 0 {
				return agentcore.TurnEnd, nil
			}
			return agentcore.TurnDefault, nil
		},
	})
}

// plan is what a request asks of its thread.
type plan struct {
	prompts []agentcore.Message
	// resume is set when the run continues from answered front-end calls
	// or a history ending in tool results, without a prompt.
	resume bool
	// apply makes the plan's changes to the transcript; nil for none.
	apply func()
}

// prepare reads a request's messages against the thread's transcript and
// returns the run they ask for, whose apply makes their changes; resume
// is set when the request answers interrupts, which is a run to continue
// even with no new message. It changes nothing (the errors wrap
// [ErrBadInput]).
func (t *thread) prepare(msgs []wireMessage, resume bool) (plan, error) {
	if !t.ran && resume && len(t.agent.Messages()) > 0 {
		// A restored thread whose Gate holds calls: the transcript is the
		// server's, with the placeholders the client never saw.
		return plan{resume: true}, nil
	}
	if !t.ran {
		return t.adopt(msgs)
	}
	c := &change{transcript: t.agent.Messages(), ids: map[agentcore.Message]string{}, answered: map[string]bool{}}
	known := t.knownIDs()
	for i, m := range msgs {
		if known[m.ID] || m.Role == roleActivity {
			continue
		}
		if err := c.take(t, m); err != nil {
			return plan{}, fmt.Errorf("%w: messages[%d]: %v", ErrBadInput, i, err)
		}
	}
	c.plan.resume = c.plan.resume || resume
	if len(c.plan.prompts) == 0 && !c.plan.resume {
		return plan{}, fmt.Errorf("%w: nothing to run: no new user message or tool result", ErrBadInput)
	}
	c.plan.apply = func() {
		maps(c.ids, t.ids)
		for _, r := range c.replaced {
			_ = t.agent.ReplaceMessage(r[0], r[1]) // the thread is locked: r[0] is there
		}
		for _, m := range c.added {
			t.agent.AppendMessage(m)
		}
		t.pending = nil
	}
	return c.plan, nil
}

// decide records the decisions a request's resume entries ask for.
func (t *thread) decide(ds []hold.Decision) error {
	if len(ds) == 0 {
		return nil
	}
	if err := t.gate.Decide(ds...); err != nil {
		return fmt.Errorf("%w: %w", errInterrupt, err)
	}
	return nil
}

// knownIDs are the IDs of the messages the transcript holds, the
// reasoning messages of its assistant messages included.
func (t *thread) knownIDs() map[string]bool {
	known := map[string]bool{}
	for _, m := range t.agent.Messages() {
		id, ok := t.ids[m]
		if !ok {
			continue
		}
		known[id] = true
		if a, ok := m.(*agentcore.AssistantMessage); ok {
			for i := range a.Content {
				known[t.reasoningID(a, id, i)] = true
			}
		}
	}
	return known
}

// change is what the new messages of a request do to a held thread,
// before it is applied.
type change struct {
	plan       plan
	transcript []agentcore.Message    // a copy, with answered placeholders replaced
	replaced   [][2]agentcore.Message // the placeholders answered, and their answers
	added      []agentcore.Message    // system and developer messages to append
	ids        map[agentcore.Message]string
	answered   map[string]bool // front-end calls answered
}

// take applies one new message of a client to the change.
func (c *change) take(t *thread, m wireMessage) error {
	switch m.Role {
	case roleTool:
		at := slices.IndexFunc(c.transcript, func(x agentcore.Message) bool {
			r, ok := x.(*agentcore.ToolResultMessage)
			return ok && r.ToolCallID == m.ToolCallID
		})
		if !slices.Contains(t.pending, m.ToolCallID) || c.answered[m.ToolCallID] || at < 0 {
			return fmt.Errorf("tool call %s is not waiting for an answer", limit.Quote(m.ToolCallID))
		}
		msg, err := clientMessage(m, c.transcript[at].(*agentcore.ToolResultMessage).ToolName)
		if err != nil {
			return err
		}
		c.replaced = append(c.replaced, [2]agentcore.Message{c.transcript[at], msg})
		c.transcript[at] = msg
		c.ids[msg] = m.ID
		c.answered[m.ToolCallID] = true
		c.plan.resume = true
	case roleUser, roleSystem, roleDeveloper:
		msg, err := clientMessage(m, "")
		if err != nil {
			return err
		}
		c.ids[msg] = m.ID
		if m.Role == roleUser {
			c.plan.prompts = append(c.plan.prompts, msg)
		} else {
			c.added = append(c.added, msg)
		}
	default:
		return fmt.Errorf("the thread holds no %s message %s: its history is the server's (start a new thread to change it)", limit.Quote(string(m.Role)), limit.Quote(m.ID))
	}
	return nil
}

// adopt takes a client's history for a thread that has not run yet: the
// messages before its trailing user messages replace the transcript's
// non-system messages (a transcript the program restored stays when the
// client sends none), and the trailing user messages are the prompts.
func (t *thread) adopt(msgs []wireMessage) (plan, error) {
	if err := adoptable(msgs); err != nil {
		return plan{}, err
	}
	n := trailingUsers(msgs)
	ids := map[agentcore.Message]string{}
	history, err := coreMessages(msgs[:n], ids, t.rids)
	if err != nil {
		return plan{}, fmt.Errorf("%w: %v", ErrBadInput, err)
	}
	var p plan
	for _, m := range msgs[n:] {
		msg, _ := clientMessage(m, "") // checked by decode
		ids[msg] = m.ID
		p.prompts = append(p.prompts, msg)
	}
	p.resume = len(p.prompts) == 0
	p.apply = func() {
		maps(ids, t.ids)
		if len(history) == 0 {
			return
		}
		kept := slices.DeleteFunc(t.agent.Messages(), func(m agentcore.Message) bool {
			_, sys := m.(*agentcore.SystemMessage)
			return !sys
		})
		if len(kept) < len(t.agent.Messages()) { // the client's history replaces a restored one
			t.agent.SetMessages(append(kept, history...))
			return
		}
		for _, m := range history { // recorded as the messages of a run are
			t.agent.AppendMessage(m)
		}
	}
	return p, nil
}

// trailingUsers is the index of the user messages msgs ends with.
func trailingUsers(msgs []wireMessage) int {
	n := len(msgs)
	for n > 0 && msgs[n-1].Role == roleUser {
		n--
	}
	return n
}

// adoptable checks that a new thread's messages ask for a run: they end
// with user messages or a tool result.
func adoptable(msgs []wireMessage) error {
	n := trailingUsers(msgs)
	if n == len(msgs) && (n == 0 || msgs[n-1].Role != roleTool) {
		return fmt.Errorf("%w: nothing to run: the messages end with no user message or tool result", ErrBadInput)
	}
	return nil
}

// maps copies src into dst.
func maps(src, dst map[agentcore.Message]string) {
	for k, v := range src {
		dst[k] = v
	}
}

// prune forgets the IDs of messages the transcript no longer holds
// (replaced placeholders, prompts of a run that could not start).
func (t *thread) prune() {
	held := map[agentcore.Message]bool{}
	for _, m := range t.agent.Messages() {
		held[m] = true
	}
	for m := range t.ids {
		if !held[m] {
			delete(t.ids, m)
		}
	}
	for k := range t.rids {
		if !held[k.m] {
			delete(t.rids, k)
		}
	}
}

// reasoningID is the ID of the reasoning message of thinking block i of
// the assistant message a, whose ID is id.
func (t *thread) reasoningID(a agentcore.Message, id string, i int) string {
	if rid, ok := t.rids[blockKey{a, i}]; ok {
		return rid
	}
	return reasoningID(id, i)
}

// snapshot is msgs, messages of the thread's transcript, as AG-UI
// messages, without the placeholders of front-end calls still pending.
// Messages the handler has not named yet (a restored transcript's) are
// named now.
func (t *thread) snapshot(msgs []agentcore.Message) []json.RawMessage {
	var out []json.RawMessage
	for _, m := range msgs {
		if r, ok := m.(*agentcore.ToolResultMessage); ok && t.placeholder(r) {
			continue
		}
		id, ok := t.ids[m]
		if !ok {
			id = newID()
			t.ids[m] = id
		}
		rid := func(i int) string { return t.reasoningID(m, id, i) }
		for _, w := range wireMessages(m, id, rid) {
			data, err := json.Marshal(w)
			if err == nil {
				out = append(out, data)
			}
		}
	}
	return out
}

// placeholder reports whether r is the placeholder result of a front-end
// call waiting for its client or of a call the Gate holds: the client is
// not shown it.
func (t *thread) placeholder(r *agentcore.ToolResultMessage) bool {
	return slices.Contains(t.pending, r.ToolCallID) || (t.gate != nil && t.gate.Holds(r.ToolCallID))
}

// frontExecute is the Execute of a front-end tool: it records the call as
// pending and leaves a placeholder result, replaced when the client
// answers.
func frontExecute(ctx context.Context, callID string, _ json.RawMessage, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
	if r := relayFrom(ctx); r != nil {
		r.frontCall(callID)
	}
	res := agentcore.TextResult(placeholderText)
	res.IsError = true
	return res, nil
}
