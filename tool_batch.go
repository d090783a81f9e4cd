package agentcore

import (
	"context"
	"sync"
)

// toolBatchResult is one executed batch: tool-result messages in call order
// and whether every result asked to terminate.
type toolBatchResult struct {
	messages  []*ToolResultMessage
	terminate bool
}

// toolBatch executes the tool calls of one assistant message.
//
// Invariants:
//   - Every call of the message gets, in call order, tool_execution_start,
//     then tool_execution_end, and a tool-result message, whatever happened
//     to the run (after an abort, the result says "Operation aborted"); only
//     a failing event sink (a panicking listener) ends a batch early, and the
//     run with it.
//   - Events are emitted by the engine's goroutine only, one at a time. A
//     call's Execute and AfterToolCall run on a goroutine of their own, which
//     posts its update and end events to the batch's queue; the engine
//     drains the queue. A tool never waits for listeners.
//   - A call's updates are delivered before AfterToolCall runs and before
//     its end event; updates reported after Execute returned are dropped.
//   - Every goroutine a batch starts has ended when the batch returns.
type toolBatch struct {
	e     *engine
	ctx   context.Context    // the tools' ctx, scoped for nested calls
	scope RunToolCallOptions // the calls' assistant message, context, tools and hooks
	calls []*callRun

	running sync.WaitGroup // the goroutines of executing calls
	posted  *handoff[posted]
	err     error // the first event sink error
}

// posted is an event a call's goroutine posted for the engine to emit.
type posted struct {
	ev     AgentEvent
	update *callRun // the call whose update this is
	end    bool
}

// newBatch lists the tool calls in assistant's content.
func (e *engine) newBatch(assistant *AssistantMessage) *toolBatch {
	b := &toolBatch{e: e, posted: newHandoff[posted](), calls: make([]*callRun, 0, len(assistant.Content))}
	for _, block := range assistant.Content {
		if c, ok := block.(ToolCall); ok {
			b.calls = append(b.calls, &callRun{call: c})
		}
	}
	b.scope = RunToolCallOptions{Tools: view(e.cur.Tools), AssistantMessage: assistant, Context: e.agentContext(),
		BeforeToolCall: e.cfg.BeforeToolCall, AfterToolCall: e.cfg.AfterToolCall}
	return b
}

// failTruncated fails every call of a response cut off by the output token
// limit: their arguments may be incomplete, so none runs.
func (e *engine) failTruncated(assistant *AssistantMessage) (toolBatchResult, error) {
	b := e.newBatch(assistant)
	for _, c := range b.calls {
		c.fail(`Tool call "` + c.call.Name + `" was not executed: the response hit the output token limit, so its arguments may be truncated. Re-issue the tool call with complete arguments.`)
		if err := e.emitAll(c.startEvent(), c.endEvent()); err != nil {
			return toolBatchResult{}, err
		}
		if err := b.emitMessage(c); err != nil {
			return toolBatchResult{}, err
		}
	}
	return b.result(), nil
}

// executeToolCalls runs the calls of one assistant message, in parallel
// unless the configuration or one of the called tools says sequential.
func (e *engine) executeToolCalls(assistant *AssistantMessage) (toolBatchResult, error) {
	b := e.newBatch(assistant)
	b.ctx = withCallScope(e.toolContext(), &b.scope)
	sequential := e.cfg.ToolExecution == ToolsSequential
	for _, c := range b.calls {
		if t := findTool(e.cur.Tools, c.call.Name); t != nil && t.ExecutionMode == ToolsSequential {
			sequential = true
		}
	}
	var err error
	if sequential {
		err = b.runSequential()
	} else {
		err = b.runParallel()
	}
	if err != nil {
		return toolBatchResult{}, err
	}
	return b.result(), nil
}

// preflight emits the start of c and prepares it; a call that does not pass
// gets its end event at once.
func (b *toolBatch) preflight(c *callRun) error {
	if err := b.e.emit(c.startEvent()); err != nil {
		return err
	}
	if c.prepare(b.e.ctx, &b.scope); c.done {
		return b.e.emit(c.endEvent())
	}
	return nil
}

// runSequential runs each call, and emits its result message, before the
// next is prepared.
func (b *toolBatch) runSequential() error {
	for _, c := range b.calls {
		if err := b.preflight(c); err != nil {
			return err
		}
		if !c.done {
			if err := b.execute([]*callRun{c}); err != nil {
				return err
			}
		}
		if err := b.emitMessage(c); err != nil {
			return err
		}
	}
	return nil
}

// runParallel prepares every call in order, executes those that passed
// concurrently, then emits the result messages in call order.
func (b *toolBatch) runParallel() error {
	var prepared []*callRun
	for _, c := range b.calls {
		if err := b.preflight(c); err != nil {
			return err
		}
		if !c.done {
			prepared = append(prepared, c)
		}
	}
	if err := b.execute(prepared); err != nil {
		return err
	}
	for _, c := range b.calls {
		if err := b.emitMessage(c); err != nil {
			return err
		}
	}
	return nil
}

// execute runs the prepared calls, each on a goroutine of its own, and
// emits their events until every one has ended. Calls still waiting when
// the run was aborted end at once with "Operation aborted", in call order.
func (b *toolBatch) execute(calls []*callRun) error {
	started := 0
	for _, c := range calls {
		if b.ctx.Err() != nil {
			c.fail(textAborted)
			if err := b.e.emit(c.endEvent()); err != nil {
				b.err = err
				break
			}
			continue
		}
		started++
		b.running.Add(1)
		go b.run(c)
	}
	for ended := 0; ended < started; {
		<-b.posted.ready
		for _, p := range b.posted.take() {
			if b.err == nil {
				if b.err = b.e.emit(p.ev); b.err != nil {
					b.e.cancelTools()
				}
			}
			if p.update != nil {
				p.update.pending.Done()
			}
			if p.end {
				ended++
			}
		}
	}
	b.running.Wait()
	return b.err
}

// run executes c, on a goroutine of its own, posting its updates and its
// end.
func (b *toolBatch) run(c *callRun) {
	defer b.running.Done()
	c.execute(b.ctx, &b.scope, func(r ToolResult) {
		c.pending.Add(1)
		b.posted.put(posted{ev: c.updateEvent(r), update: c})
	})
	b.posted.put(posted{ev: c.endEvent(), end: true})
}

// emitMessage emits the result message of done call c.
func (b *toolBatch) emitMessage(c *callRun) error {
	msg := c.resultMessage()
	return b.e.emitAll(&MessageStartEvent{Message: msg}, &MessageEndEvent{Message: msg})
}

// result is the outcome of the batch, whose calls are all done.
func (b *toolBatch) result() toolBatchResult {
	r := toolBatchResult{messages: make([]*ToolResultMessage, len(b.calls)), terminate: len(b.calls) > 0}
	for i, c := range b.calls {
		r.messages[i] = c.message
		r.terminate = r.terminate && c.result.Terminate
	}
	return r
}
