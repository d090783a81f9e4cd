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
	e     *engine
	ctx   context.Context    // the tools' ctx, scoped for nested calls
	scope RunToolCallOptions // the calls' assistant message, context, tools and hooks

	calls   []callRun
	results []resultSlot

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

// resultSlot holds what the transcript keeps of a call: its result message
// and the duration the message points to, allocated together per batch.
type resultSlot struct {
	message  ToolResultMessage
	duration int64
}

// newBatch prepares the batch of the tool calls in assistant's content.
func (e *engine) newBatch(assistant *AssistantMessage) *toolBatch {
	n := 0
	for _, block := range assistant.Content {
		if _, ok := block.(ToolCall); ok {
			n++
		}
	}
	if cap(e.calls) < n {
		e.calls = make([]callRun, n)
	}
	b := &toolBatch{e: e, calls: e.calls[:n], results: make([]resultSlot, n), queue: e.queue[:0]}
	updates := b.postUpdate
	i := 0
	for _, block := range assistant.Content {
		if c, ok := block.(ToolCall); ok {
			b.calls[i].reuse(c, updates)
			i++
		}
	}
	// The calls' pipeline options, which nested calls get too.
	b.scope = RunToolCallOptions{Tools: view(e.cur.Tools), AssistantMessage: assistant, Context: e.agentContext(),
		BeforeToolCall: e.cfg.BeforeToolCall, AfterToolCall: e.cfg.AfterToolCall}
	return b
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
	b.ctx = withCallScope(e.toolContext(), &b.scope)
	if e.helpers.handoff == nil {
		e.helpers.handoff = make(chan helperJob)
	}
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
	if c.prepare(b.e.ctx, &b.scope); c.done {
		return b.e.emit(c.endEvent())
	}
	return nil
}

// prepareEach prepares the calls in order (see preflight) and calls then
// after each; it stops after the call during which the run was aborted. It
// returns how many calls it prepared.
func (b *toolBatch) prepareEach(then func(i int) error) (int, error) {
	for i := range b.calls {
		if err := b.preflight(i); err != nil {
			return 0, err
		}
		if err := then(i); err != nil {
			return 0, err
		}
		if b.e.ctx.Err() != nil {
			return i + 1, nil
		}
	}
	return len(b.calls), nil
}

// runSequential runs each call, and emits its result message, before the
// next is prepared.
func (b *toolBatch) runSequential() (toolBatchResult, error) {
	n, err := b.prepareEach(func(i int) error {
		if !b.calls[i].done {
			b.ended.Add(1)
			b.runCall(i)
			b.ended.Wait()
			if err := b.failure(); err != nil {
				return err
			}
		}
		return b.emitMessage(i)
	})
	if err != nil {
		return toolBatchResult{}, err
	}
	return b.result(n), nil
}

// runParallel prepares every call, runs those that passed concurrently,
// then emits the result messages in call order.
func (b *toolBatch) runParallel() (toolBatchResult, error) {
	n, err := b.prepareEach(func(i int) error {
		if !b.calls[i].done {
			b.queue = append(b.queue, int32(i))
		}
		return nil
	})
	if err != nil {
		return toolBatchResult{}, err
	}
	b.e.queue = b.queue[:0] // the next batch reuses the storage
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
	c.execute(b.ctx, &b.scope, &b.results[i].duration)
	b.post(delivery{ev: c.endEvent(), end: true}, true)
}

// message fills and returns the result message of done call i.
func (b *toolBatch) message(i int) *ToolResultMessage {
	return b.calls[i].resultMessage(&b.results[i].message)
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
		r.messages[i] = &b.results[i].message
		r.terminate = r.terminate && b.calls[i].result.Terminate
	}
	return r
}
