package agentcore

import (
	"context"
	"sync"
	"sync/atomic"
)

// toolBatchResult is one executed batch: tool-result messages in call order
// and whether every result asked to terminate.
type toolBatchResult struct {
	messages  []*ToolResultMessage
	terminate bool
}

// toolBatch is the execution of the tool calls of one assistant message.
//
// Calls are run by the engine's goroutine itself, claiming them one after
// another, and, in a parallel batch, by helpers: before it runs a call
// while others are unclaimed, a runner makes sure that a helper is on its
// way to claim the next, so that a call that blocks never holds up the
// others. Calls that return at once are thus run without a goroutine
// switch.
//
// Events go through one queue and are delivered one at a time, in the
// order they were posted, by whichever goroutine holds the delivery role:
// the runner that posts an end event when nobody delivers, or a helper
// called for the updates a tool reports while it runs (a tool never waits
// for listeners).
type toolBatch struct {
	e         *engine
	ctx       context.Context // the tools' ctx, scoped for nested calls
	assistant *AssistantMessage
	hooks     toolHooks
	scope     RunToolCallOptions

	calls     []callRun
	durations []int64
	messages  []ToolResultMessage

	queue   []int32 // indexes of the calls to execute, in call order
	next    atomic.Int32
	pending atomic.Bool    // a helper was handed the batch and has not claimed yet
	ended   sync.WaitGroup // end events not yet delivered

	mu         sync.Mutex
	posted     []delivery
	head       int
	delivering bool
	err        error // the first sink error
}

// delivery is a posted event and what its delivery releases.
type delivery struct {
	ev     AgentEvent
	update *callRun // an update of this call
	end    bool     // an end event
}

// newBatch prepares the batch of the tool calls in assistant's content.
func (e *engine) newBatch(assistant *AssistantMessage) *toolBatch {
	n := 0
	for _, block := range assistant.Content {
		if _, ok := block.(ToolCall); ok {
			n++
		}
	}
	b := &toolBatch{e: e, assistant: assistant, calls: make([]callRun, 0, n), messages: make([]ToolResultMessage, n)}
	updates := b.postUpdate
	for _, block := range assistant.Content {
		if c, ok := block.(ToolCall); ok {
			b.calls = append(b.calls, callRun{call: c, updates: updates})
		}
	}
	actx := e.agentContext()
	b.hooks = toolHooks{before: e.cfg.BeforeToolCall, after: e.cfg.AfterToolCall, context: actx}
	b.scope = RunToolCallOptions{Tools: e.cur.Tools, AssistantMessage: assistant, Context: actx,
		BeforeToolCall: e.cfg.BeforeToolCall, AfterToolCall: e.cfg.AfterToolCall}
	b.ctx = withCallScope(e.toolContext(), &b.scope)
	if e.helpers.handoff == nil {
		e.helpers.handoff = make(chan helperJob)
	}
	return b
}

// post queues d for delivery. A goroutine that may deliver (canDeliver)
// delivers the queue itself when nobody does; otherwise a helper is called.
func (b *toolBatch) post(d delivery, canDeliver bool) {
	b.mu.Lock()
	b.posted = append(b.posted, d)
	if b.delivering {
		b.mu.Unlock()
		return
	}
	b.delivering = true
	if !canDeliver {
		b.mu.Unlock()
		b.e.helpers.hand(helperJob{b: b, deliver: true})
		return
	}
	b.deliverLocked()
}

// deliverLocked delivers the queue until it is empty, then gives up the
// delivery role. It is called holding mu and the role, and unlocks mu.
// After the first sink error events are dropped, and the tools cancelled.
// What a delivery releases is released after the role is given up when it
// was the last one, so that a goroutine it wakes never finds the role still
// taken.
func (b *toolBatch) deliverLocked() {
	for {
		d := b.posted[b.head]
		b.posted[b.head] = delivery{}
		b.head++
		err := b.err
		b.mu.Unlock()
		if err == nil {
			err = b.e.emit(d.ev)
		}
		b.mu.Lock()
		if err != nil && b.err == nil {
			b.err = err
			b.e.cancelTools()
		}
		last := b.head == len(b.posted)
		if last {
			b.posted, b.head, b.delivering = b.posted[:0], 0, false
			b.mu.Unlock()
		}
		switch {
		case d.update != nil:
			d.update.delivered.Done()
		case d.end:
			b.ended.Done()
		}
		if last {
			return
		}
	}
}

// postUpdate is the updates callback of the batch's calls: the tool goes
// on while its update waits for delivery.
func (b *toolBatch) postUpdate(c *callRun, r ToolResult) {
	c.delivered.Add(1)
	b.post(delivery{ev: c.updateEvent(r), update: c}, false)
}

// failure is the batch's error.
func (b *toolBatch) failure() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}

// failTruncated fails every call of a response cut off by the output token
// limit: their arguments may be incomplete, so none runs.
func (e *engine) failTruncated(assistant *AssistantMessage) (toolBatchResult, error) {
	b := e.newBatch(assistant)
	for i := range b.calls {
		c := &b.calls[i]
		c.fail(`Tool call "` + c.call.Name + `" was not executed: the response hit the output token limit, so its arguments may be truncated. Re-issue the tool call with complete arguments.`)
		msg := b.message(i)
		if err := e.emitAll(c.startEvent(), c.endEvent(), MessageStartEvent{Message: msg}, MessageEndEvent{Message: msg}); err != nil {
			return toolBatchResult{}, err
		}
	}
	return b.result(len(b.calls)), nil
}

// executeToolCalls runs the calls of one assistant message, in parallel
// unless the configuration or one of the called tools says sequential.
func (e *engine) executeToolCalls(assistant *AssistantMessage) (toolBatchResult, error) {
	b := e.newBatch(assistant)
	b.durations = make([]int64, len(b.calls))
	sequential := e.cfg.ToolExecution == ToolsSequential
	for i := range b.calls {
		if t := findTool(e.cur.Tools, b.calls[i].call.Name); t != nil && t.ExecutionMode == ToolsSequential {
			sequential = true
		}
	}
	if sequential {
		return b.runSequential()
	}
	return b.runParallel()
}

// preflight emits the start of call i and prepares it; a call that fails
// preflight gets its end event at once. No call of the batch is executing
// then, nor is an event being delivered: it emits directly.
func (b *toolBatch) preflight(i int) error {
	c := &b.calls[i]
	if err := b.e.emit(c.startEvent()); err != nil {
		return err
	}
	if c.prepare(b.e.ctx, b.e.cur.Tools, b.assistant, &b.hooks); c.done {
		return b.e.emit(c.endEvent())
	}
	return nil
}

func (b *toolBatch) runSequential() (toolBatchResult, error) {
	n := 0
	for n < len(b.calls) {
		i := n
		n++
		if err := b.preflight(i); err != nil {
			return toolBatchResult{}, err
		}
		if !b.calls[i].done {
			b.ended.Add(1)
			b.runCall(i)
			b.ended.Wait()
			if err := b.failure(); err != nil {
				return toolBatchResult{}, err
			}
		}
		if err := b.emitMessage(i); err != nil {
			return toolBatchResult{}, err
		}
		if b.e.ctx.Err() != nil {
			break
		}
	}
	return b.result(n), nil
}

func (b *toolBatch) runParallel() (toolBatchResult, error) {
	n := 0
	for n < len(b.calls) {
		i := n
		n++
		if err := b.preflight(i); err != nil {
			return toolBatchResult{}, err
		}
		if !b.calls[i].done {
			b.queue = append(b.queue, int32(i))
		}
		if b.e.ctx.Err() != nil {
			break
		}
	}
	if len(b.queue) > 0 {
		b.ended.Add(len(b.queue))
		b.work(false)
		b.ended.Wait()
		if err := b.failure(); err != nil {
			return toolBatchResult{}, err
		}
	}
	for i := range n {
		if err := b.emitMessage(i); err != nil {
			return toolBatchResult{}, err
		}
	}
	return b.result(n), nil
}

// work claims and runs queued calls until none is left. A helper (not the
// engine) first withdraws the batch's pending mark.
func (b *toolBatch) work(helper bool) {
	if helper {
		b.pending.Store(false)
	}
	for {
		k := int(b.next.Add(1)) - 1
		if k >= len(b.queue) {
			return
		}
		if k+1 < len(b.queue) && b.pending.CompareAndSwap(false, true) {
			b.e.helpers.hand(helperJob{b: b})
		}
		b.runCall(int(b.queue[k]))
	}
}

// runCall executes prepared call i and posts its end event.
func (b *toolBatch) runCall(i int) {
	c := &b.calls[i]
	c.execute(b.ctx, b.assistant, &b.hooks, &b.durations[i])
	b.post(delivery{ev: c.endEvent(), end: true}, true)
}

// message fills and returns the result message of done call i.
func (b *toolBatch) message(i int) *ToolResultMessage {
	return b.calls[i].resultMessage(&b.messages[i])
}

// emitMessage emits the result message of done call i.
func (b *toolBatch) emitMessage(i int) error {
	msg := b.message(i)
	return b.e.emitAll(MessageStartEvent{Message: msg}, MessageEndEvent{Message: msg})
}

// result is the outcome of the first n calls, whose messages were filled.
func (b *toolBatch) result(n int) toolBatchResult {
	r := toolBatchResult{messages: make([]*ToolResultMessage, n), terminate: n > 0}
	for i := range n {
		r.messages[i] = &b.messages[i]
		r.terminate = r.terminate && b.calls[i].result.Terminate
	}
	return r
}

// helperPool keeps the goroutines that help run a run's batches, so that a
// batch neither starts goroutines nor grows their stacks again. Helpers are
// started on demand and joined by stop, when the run ends.
type helperPool struct {
	handoff chan helperJob
	wg      sync.WaitGroup
}

// helperJob asks a helper to claim calls of b or, with deliver, to deliver
// its queue (the delivery role is already the helper's).
type helperJob struct {
	b       *toolBatch
	deliver bool
}

// hand gives j to an idle helper, or to a new one. It is called from the
// goroutines running a batch and from tools reporting updates, never after
// the batch ended.
func (p *helperPool) hand(j helperJob) {
	select {
	case p.handoff <- j:
	default:
		p.wg.Add(1)
		go p.help(j)
	}
}

func (p *helperPool) help(j helperJob) {
	defer p.wg.Done()
	for ok := true; ok; j, ok = <-p.handoff {
		if j.deliver {
			j.b.mu.Lock()
			j.b.deliverLocked()
		} else {
			j.b.work(true)
		}
	}
}

// stop ends the helpers and waits for them.
func (p *helperPool) stop() {
	if p.handoff != nil {
		close(p.handoff)
		p.wg.Wait()
		p.handoff = nil
	}
}
