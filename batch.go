package agentcore

import (
	"context"
	"sync"
)

// failTruncated fails every call of a response cut off by the output token
// limit: their arguments may be incomplete, so none runs.
func (e *engine) failTruncated(calls []ToolCall) (toolBatchResult, error) {
	b := toolBatchResult{messages: make([]*ToolResultMessage, 0, len(calls))}
	for _, c := range calls {
		out := ToolOutcome{ToolCall: c, IsError: true, Result: errorResult(`Tool call "` + c.Name +
			`" was not executed: the response hit the output token limit, so its arguments may be truncated. Re-issue the tool call with complete arguments.`)}
		msg := toolResultMessage(out)
		if err := e.emitAll(startEvent(c), endEvent(out), MessageStartEvent{Message: msg}, MessageEndEvent{Message: msg}); err != nil {
			return b, err
		}
		b.messages = append(b.messages, msg)
	}
	return b, nil
}

// executeToolCalls runs the calls of one assistant message, in parallel
// unless the configuration or one of the called tools says sequential.
func (e *engine) executeToolCalls(assistant *AssistantMessage, calls []ToolCall) (toolBatchResult, error) {
	actx := e.agentContext()
	h := toolHooks{before: e.cfg.BeforeToolCall, after: e.cfg.AfterToolCall, context: func() AgentContext { return actx }}
	sequential := e.cfg.ToolExecution == ToolsSequential
	for _, c := range calls {
		if t, ok := findTool(e.cur.Tools, c.Name); ok && t.ExecutionMode == ToolsSequential {
			sequential = true
		}
	}
	if sequential {
		return e.executeSequential(assistant, calls, h)
	}
	return e.executeParallel(assistant, calls, h)
}

func (e *engine) executeSequential(assistant *AssistantMessage, calls []ToolCall, h toolHooks) (toolBatchResult, error) {
	b := toolBatchResult{messages: make([]*ToolResultMessage, 0, len(calls))}
	outcomes := make([]ToolOutcome, 0, len(calls))
	for _, c := range calls {
		if err := e.emit(startEvent(c)); err != nil {
			return b, err
		}
		p := prepareCall(e.ctx, e.cur.Tools, assistant, c, h)
		var out ToolOutcome
		if p.immediate != nil {
			out = *p.immediate
			if err := e.emit(endEvent(out)); err != nil {
				return b, err
			}
		} else {
			done, err := e.runTasks(assistant, []toolTask{{prepared: p}}, h)
			if err != nil {
				return b, err
			}
			out = done[0]
		}
		msg := toolResultMessage(out)
		if err := e.emitAll(MessageStartEvent{Message: msg}, MessageEndEvent{Message: msg}); err != nil {
			return b, err
		}
		outcomes = append(outcomes, out)
		b.messages = append(b.messages, msg)
		if e.ctx.Err() != nil {
			break
		}
	}
	b.terminate = allTerminate(outcomes)
	return b, nil
}

func (e *engine) executeParallel(assistant *AssistantMessage, calls []ToolCall, h toolHooks) (toolBatchResult, error) {
	outcomes := make([]ToolOutcome, 0, len(calls))
	var tasks []toolTask
	for _, c := range calls {
		if err := e.emit(startEvent(c)); err != nil {
			return toolBatchResult{}, err
		}
		p := prepareCall(e.ctx, e.cur.Tools, assistant, c, h)
		if p.immediate != nil {
			if err := e.emit(endEvent(*p.immediate)); err != nil {
				return toolBatchResult{}, err
			}
			outcomes = append(outcomes, *p.immediate)
		} else {
			tasks = append(tasks, toolTask{slot: len(outcomes), prepared: p})
			outcomes = append(outcomes, ToolOutcome{})
		}
		if e.ctx.Err() != nil {
			break
		}
	}
	if len(tasks) > 0 {
		done, err := e.runTasks(assistant, tasks, h)
		if err != nil {
			return toolBatchResult{}, err
		}
		for i, t := range tasks {
			outcomes[t.slot] = done[i]
		}
	}
	b := toolBatchResult{messages: make([]*ToolResultMessage, 0, len(outcomes)), terminate: allTerminate(outcomes)}
	for _, out := range outcomes {
		msg := toolResultMessage(out)
		if err := e.emitAll(MessageStartEvent{Message: msg}, MessageEndEvent{Message: msg}); err != nil {
			return b, err
		}
		b.messages = append(b.messages, msg)
	}
	return b, nil
}

// toolTask is a prepared call to execute; slot is its place in the batch.
type toolTask struct {
	slot     int
	prepared preparedCall
}

// runTasks executes the tasks concurrently, one goroutine each, and emits
// their update and end events on the engine's goroutine as they arrive: an
// end event as soon as its call is finalized, after all of its updates. It
// returns the outcomes in task order once every goroutine has finished.
func (e *engine) runTasks(assistant *AssistantMessage, tasks []toolTask, h toolHooks) ([]ToolOutcome, error) {
	ctx, cancel := context.WithCancel(e.ctx)
	defer cancel()
	mb := &mailbox{wake: make(chan struct{}, 1)}
	var wg sync.WaitGroup
	e.workers.grow(len(tasks))
	for i, t := range tasks {
		wg.Add(1)
		e.workers.tasks <- func() {
			defer wg.Done()
			p := t.prepared
			var out ToolOutcome
			if ctx.Err() != nil {
				out = *immediateError(p.call, textAborted).immediate
			} else {
				// Like the reference, a call is finalized only once its
				// updates have been delivered.
				var delivered sync.WaitGroup
				scoped := withCallScope(ctx, RunToolCallOptions{Tools: e.cur.Tools, AssistantMessage: assistant,
					Context: h.context(), BeforeToolCall: h.before, AfterToolCall: h.after})
				out = executeCall(scoped, p, func(r ToolResult) {
					delivered.Add(1)
					mb.put(mail{delivered: &delivered, event: ToolExecutionUpdateEvent{ToolCallID: p.call.ID, ToolName: p.call.Name, Args: p.call.Arguments, PartialResult: r}})
				})
				delivered.Wait()
				out = finalizeCall(ctx, assistant, p, out, h)
			}
			mb.put(mail{done: true, index: i, outcome: out})
		}
	}
	outcomes := make([]ToolOutcome, len(tasks))
	var sinkErr error
	for remaining := len(tasks); remaining > 0; {
		<-mb.wake
		for _, m := range mb.take() {
			ev := m.event
			if m.done {
				remaining--
				outcomes[m.index] = m.outcome
				ev = endEvent(m.outcome)
			}
			if sinkErr == nil {
				if sinkErr = e.emit(ev); sinkErr != nil {
					cancel()
				}
			}
			if m.delivered != nil {
				m.delivered.Done()
			}
		}
	}
	wg.Wait()
	return outcomes, sinkErr
}

// workerPool runs a run's tool executions on goroutines kept for the run,
// so that each batch neither starts goroutines nor grows their stacks
// again. Its goroutines are started on demand and joined by stop, when the
// run ends.
type workerPool struct {
	tasks chan func()
	n     int
	wg    sync.WaitGroup
}

// grow makes sure at least n workers exist, so n tasks run at once.
func (p *workerPool) grow(n int) {
	if p.tasks == nil {
		p.tasks = make(chan func())
	}
	for ; p.n < n; p.n++ {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for task := range p.tasks {
				task()
			}
		}()
	}
}

// stop ends the workers and waits for them.
func (p *workerPool) stop() {
	if p.tasks != nil {
		close(p.tasks)
		p.wg.Wait()
		*p = workerPool{}
	}
}

// mail is an event from a tool goroutine: an update, or a finished call.
type mail struct {
	event AgentEvent
	// delivered, for an update, is marked done once the event was emitted.
	delivered *sync.WaitGroup
	done      bool
	index     int
	outcome   ToolOutcome
}

// mailbox is an unbounded queue from tool goroutines to the engine, so that a
// tool reporting updates never waits for a slow listener.
type mailbox struct {
	mu    sync.Mutex
	items []mail
	wake  chan struct{}
}

func (m *mailbox) put(it mail) {
	m.mu.Lock()
	m.items = append(m.items, it)
	m.mu.Unlock()
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

func (m *mailbox) take() []mail {
	m.mu.Lock()
	items := m.items
	m.items = nil
	m.mu.Unlock()
	return items
}
