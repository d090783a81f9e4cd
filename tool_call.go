package agentcore

import (
	"context"
	"encoding/json"
	"sync"
	"time"
)

// Texts the model sees for calls that did not run.
const (
	textAborted = "Operation aborted"
	textBlocked = "Tool execution was blocked"
)

// ToolOutcome is the final outcome of one tool call, after the hooks.
type ToolOutcome struct {
	// ToolCall is the call as the model sent it.
	ToolCall ToolCall
	// Result is the final result, overrides applied.
	Result ToolResult
	// IsError is whether the call failed; it, not Result.IsError, is what
	// the tool-result message says.
	IsError bool
	// DurationMs is how long Execute took; nil when the tool did not run.
	DurationMs *int64
}

// callRun is one tool call going through the pipeline: prepared by
// prepare, executed by execute. Until it is done the call has not failed
// preflight; once done, result and isError are its outcome.
type callRun struct {
	call ToolCall
	tool *Tool
	args json.RawMessage // the validated arguments

	done     bool
	result   ToolResult
	isError  bool
	duration *int64
	message  *ToolResultMessage // set by resultMessage

	// mu guards closed, set once Execute has returned: updates reported
	// after it are dropped. pending counts the updates posted to a batch
	// and not yet delivered; AfterToolCall waits for them.
	mu      sync.Mutex
	closed  bool
	pending sync.WaitGroup
}

// fail ends the call with an error result holding text.
func (c *callRun) fail(text string) {
	c.done, c.result, c.isError = true, errorResult(text), true
}

// errorResult is the result of a failed call: the reference's error
// results are text results (the IsError flag lives on the outcome).
func errorResult(text string) ToolResult { return TextResult(text) }

// outcome is the call's outcome as the public type.
func (c *callRun) outcome() ToolOutcome {
	return ToolOutcome{ToolCall: c.call, Result: c.result, IsError: c.isError, DurationMs: c.duration}
}

// prepare is the preflight of the call: check for abort, find the tool,
// prepare and validate its arguments, ask BeforeToolCall, check for abort
// again. A call that does not pass is done. Once the run is aborted a call
// fails at once, before the lookup and without hooks, so that every call
// still gets a result.
func (c *callRun) prepare(ctx context.Context, o *RunToolCallOptions) {
	if ctx.Err() != nil {
		c.fail(textAborted)
		return
	}
	call := c.call
	c.tool = findTool(o.Tools, call.Name)
	if c.tool == nil {
		c.fail("Tool " + call.Name + " not found")
		return
	}
	args := call.Arguments
	if prepare := c.tool.PrepareArguments; prepare != nil {
		var err error
		if err = guard(func() error { args, err = prepare(call.Arguments); return err }); err != nil {
			c.fail(err.Error())
			return
		}
	}
	validated, err := validateToolArguments(*c.tool, call, args)
	if err != nil {
		c.fail(err.Error())
		return
	}
	c.args = validated
	if before := o.BeforeToolCall; before != nil {
		var res *BeforeToolCallResult
		err := guard(func() error {
			var err error
			res, err = before(ctx, BeforeToolCallContext{AssistantMessage: o.AssistantMessage, ToolCall: call, Args: validated, Context: o.Context})
			return err
		})
		switch {
		case err != nil:
			c.fail(err.Error())
			return
		case ctx.Err() != nil:
			c.fail(textAborted)
			return
		case res != nil && res.Block:
			reason := res.Reason
			if reason == "" {
				reason = textBlocked
			}
			c.fail(reason)
			c.result.Terminate = res.Terminate
			return
		}
	}
	if ctx.Err() != nil {
		c.fail(textAborted)
	}
}

// guard runs f, turning a panic into an error.
func guard(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicError(r)
		}
	}()
	return f()
}

// execute runs the prepared call's tool, then, once the updates it
// reported are delivered, AfterToolCall. update receives each partial
// result Execute reports until it returns, under c.mu.
func (c *callRun) execute(ctx context.Context, o *RunToolCallOptions, update func(ToolResult)) {
	if ctx.Err() != nil {
		c.fail(textAborted)
		return
	}
	onUpdate := func(r ToolResult) {
		c.mu.Lock()
		defer c.mu.Unlock()
		if !c.closed && update != nil {
			if blocks, err := ValueBlocks(r.Content); err == nil {
				r.Content = blocks
			}
			update(r)
		}
	}
	start := time.Now()
	err := guard(func() error {
		if c.tool.Execute == nil {
			return errNoExecute(c.tool.Name)
		}
		var err error
		c.result, err = c.tool.Execute(ctx, c.call.ID, c.args, onUpdate)
		return err
	})
	duration := time.Since(start).Round(time.Millisecond).Milliseconds()
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.pending.Wait()
	c.done, c.duration = true, &duration
	if err != nil {
		c.result, c.isError = errorResult(err.Error()), true
	} else {
		c.isError = c.result.IsError
	}
	c.valueResult()
	c.finalize(ctx, o)
	c.valueResult()
}

// valueResult makes the result's pointer blocks values ([ValueBlocks]); a
// nil block pointer fails the call with its error.
func (c *callRun) valueResult() {
	blocks, err := ValueBlocks(c.result.Content)
	if err != nil {
		c.result, c.isError = errorResult(err.Error()), true
		return
	}
	c.result.Content = blocks
}

type errNoExecute string

// Error names the tool without Execute.
func (e errNoExecute) Error() string { return "Tool " + string(e) + " has no Execute function" }

// finalize applies AfterToolCall to the executed call.
func (c *callRun) finalize(ctx context.Context, o *RunToolCallOptions) {
	after := o.AfterToolCall
	if after == nil {
		return
	}
	var res *AfterToolCallResult
	err := guard(func() error {
		var err error
		res, err = after(ctx, AfterToolCallContext{AssistantMessage: o.AssistantMessage, ToolCall: c.call, Args: c.args, Result: c.result, IsError: c.isError, Context: o.Context})
		return err
	})
	if err != nil {
		c.result, c.isError = errorResult(err.Error()), true
		return
	}
	if res == nil {
		return
	}
	c.isError = res.apply(&c.result, c.isError)
}

// resultMessage returns the transcript entry of the done call, made once.
func (c *callRun) resultMessage() *ToolResultMessage {
	if c.message != nil {
		return c.message
	}
	content := c.result.Content
	if content == nil {
		content = []ContentBlock{}
	}
	c.message = &ToolResultMessage{
		ToolCallID: c.call.ID, ToolName: c.call.Name, Content: content,
		Details: c.result.Details, Usage: c.result.Usage, IsError: c.isError,
		DurationMs: c.duration, Timestamp: nowMillis(),
	}
	return c.message
}

func (c *callRun) endEvent() *ToolExecutionEndEvent {
	return &ToolExecutionEndEvent{ToolCallID: c.call.ID, ToolName: c.call.Name, Result: c.result, IsError: c.isError, DurationMs: c.duration}
}

func (c *callRun) startEvent() *ToolExecutionStartEvent {
	return &ToolExecutionStartEvent{ToolCallID: c.call.ID, ToolName: c.call.Name, Args: c.call.Arguments}
}

func (c *callRun) updateEvent(r ToolResult) *ToolExecutionUpdateEvent {
	return &ToolExecutionUpdateEvent{ToolCallID: c.call.ID, ToolName: c.call.Name, Args: c.call.Arguments, PartialResult: r}
}

// RunToolCallOptions configures [RunToolCall].
type RunToolCallOptions struct {
	// Tools are the tools the call may name. Read-only.
	Tools []Tool
	// AssistantMessage is what the hooks see as the calling message; it
	// may be nil outside a run.
	AssistantMessage *AssistantMessage
	// Context is what the hooks see as the run's context. Read-only.
	Context AgentContext
	// BeforeToolCall is the hook to apply before Execute, usually the
	// run's own, so that nested calls pass the same checks; see
	// [Hooks.BeforeToolCall]. It runs on the calling goroutine.
	BeforeToolCall func(context.Context, BeforeToolCallContext) (*BeforeToolCallResult, error)
	// AfterToolCall is the hook to apply after Execute; see
	// [Hooks.AfterToolCall]. It runs on the calling goroutine.
	AfterToolCall func(context.Context, AfterToolCallContext) (*AfterToolCallResult, error)
	// OnUpdate, optional, receives the partial results the tool reports,
	// synchronously inside the tool's onUpdate call (on whichever goroutine
	// the tool calls it, one call at a time), until Execute returns.
	OnUpdate func(ToolResult)
}

// RunToolCall runs one call through the same pipeline as a model-issued
// call (argument preparation, validation, BeforeToolCall, Execute,
// AfterToolCall) without events or messages, on the calling goroutine. Tools
// that call other tools use it so that the hooks apply to those calls too.
// Failures of every kind come back as an outcome with IsError, never as a
// panic. When ctx is already done the call fails with "Operation aborted"
// before the lookup, without hooks.
func RunToolCall(ctx context.Context, call ToolCall, opts RunToolCallOptions) ToolOutcome {
	c := &callRun{call: call}
	if ctx == nil {
		c.fail(ErrNilContext.Error())
		return c.outcome()
	}
	if c.prepare(ctx, &opts); c.done {
		return c.outcome()
	}
	nested := opts
	nested.OnUpdate = nil
	c.execute(withCallScope(ctx, &nested), &opts, opts.OnUpdate)
	return c.outcome()
}

// callScopeKey keys the options of the call a tool's ctx belongs to.
type callScopeKey struct{}

// withCallScope gives a tool's ctx the options its nested calls should use.
func withCallScope(ctx context.Context, opts *RunToolCallOptions) context.Context {
	return context.WithValue(ctx, callScopeKey{}, opts)
}

// NestedCallOptions returns, for the ctx a tool's Execute was given, the
// options that run a nested call as the loop runs the tool's own: the same
// tools, BeforeToolCall and AfterToolCall hooks, assistant message and
// context (OnUpdate is left nil). A tool that calls other tools passes them
// to [RunToolCall], so that permission checks apply to those calls too. ok
// is false for a ctx that does not come from a tool call.
func NestedCallOptions(ctx context.Context) (opts RunToolCallOptions, ok bool) {
	scope, ok := ctx.Value(callScopeKey{}).(*RunToolCallOptions)
	if !ok {
		return RunToolCallOptions{}, false
	}
	return *scope, true
}
