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

// toolBatchResult is one executed batch: tool-result messages in call order
// and whether every result asked to terminate.
type toolBatchResult struct {
	messages  []*ToolResultMessage
	terminate bool
}

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

// preparedCall is a call that passed preflight, or (immediate) the result
// of one that did not.
type preparedCall struct {
	immediate *ToolOutcome
	call      ToolCall
	tool      Tool
	args      json.RawMessage
}

// errorResult is the result of a failed call: the reference's error
// results are text results (the IsError flag lives on the outcome).
func errorResult(text string) ToolResult { return TextResult(text) }

func immediateError(call ToolCall, text string) preparedCall {
	return preparedCall{call: call, immediate: &ToolOutcome{ToolCall: call, Result: errorResult(text), IsError: true}}
}

// toolHooks are the hooks and context the tool pipeline needs.
type toolHooks struct {
	before  func(context.Context, BeforeToolCallContext) (*BeforeToolCallResult, error)
	after   func(context.Context, AfterToolCallContext) (*AfterToolCallResult, error)
	context func() AgentContext
}

// prepareCall is the preflight of one call: find the tool, prepare and
// validate its arguments, ask BeforeToolCall, check for abort.
func prepareCall(ctx context.Context, tools []Tool, assistant *AssistantMessage, call ToolCall, h toolHooks) preparedCall {
	tool, ok := findTool(tools, call.Name)
	if !ok {
		return immediateError(call, "Tool "+call.Name+" not found")
	}
	args := call.Arguments
	if tool.PrepareArguments != nil {
		var err error
		if err = guard(func() error { args, err = tool.PrepareArguments(call.Arguments); return err }); err != nil {
			return immediateError(call, err.Error())
		}
	}
	validated, err := validateToolArguments(tool, call, args)
	if err != nil {
		return immediateError(call, err.Error())
	}
	if h.before != nil {
		var res *BeforeToolCallResult
		err := guard(func() error {
			var err error
			res, err = h.before(ctx, BeforeToolCallContext{AssistantMessage: assistant, ToolCall: call, Args: validated, Context: h.context()})
			return err
		})
		if err != nil {
			return immediateError(call, err.Error())
		}
		if ctx.Err() != nil {
			return immediateError(call, textAborted)
		}
		if res != nil && res.Block {
			reason := res.Reason
			if reason == "" {
				reason = textBlocked
			}
			p := immediateError(call, reason)
			p.immediate.Result.Terminate = res.Terminate
			return p
		}
	}
	if ctx.Err() != nil {
		return immediateError(call, textAborted)
	}
	return preparedCall{call: call, tool: tool, args: validated}
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

// executeCall runs a prepared call's tool. onUpdate gets the partial
// results reported before Execute returned.
func executeCall(ctx context.Context, p preparedCall, onUpdate func(ToolResult)) ToolOutcome {
	var (
		mu        sync.Mutex
		accepting = true
	)
	update := func(r ToolResult) {
		mu.Lock()
		defer mu.Unlock()
		if accepting && onUpdate != nil {
			onUpdate(r)
		}
	}
	start := time.Now()
	var result ToolResult
	err := guard(func() error {
		if p.tool.Execute == nil {
			return errNoExecute(p.tool.Name)
		}
		var err error
		result, err = p.tool.Execute(ctx, p.call.ID, p.args, update)
		return err
	})
	ms := time.Since(start).Round(time.Millisecond).Milliseconds()
	mu.Lock()
	accepting = false
	mu.Unlock()
	if err != nil {
		return ToolOutcome{ToolCall: p.call, Result: errorResult(err.Error()), IsError: true, DurationMs: &ms}
	}
	return ToolOutcome{ToolCall: p.call, Result: result, IsError: result.IsError, DurationMs: &ms}
}

type errNoExecute string

// Error names the tool without Execute.
func (e errNoExecute) Error() string { return "Tool " + string(e) + " has no Execute function" }

// finalizeCall applies AfterToolCall to an executed call.
func finalizeCall(ctx context.Context, assistant *AssistantMessage, p preparedCall, out ToolOutcome, h toolHooks) ToolOutcome {
	if h.after == nil {
		return out
	}
	var res *AfterToolCallResult
	err := guard(func() error {
		var err error
		res, err = h.after(ctx, AfterToolCallContext{AssistantMessage: assistant, ToolCall: p.call, Args: p.args, Result: out.Result, IsError: out.IsError, Context: h.context()})
		return err
	})
	if err != nil {
		out.Result = errorResult(err.Error())
		out.IsError = true
		return out
	}
	if res == nil {
		return out
	}
	r := out.Result
	structured := res.StructuredContent
	if structured == nil && res.Content == nil {
		structured = r.StructuredContent
	}
	if res.Content != nil {
		r.Content = res.Content
	}
	if res.Details != nil {
		r.Details = res.Details
	}
	if res.Usage != nil {
		r.Usage = res.Usage
	}
	if res.Terminate != nil {
		r.Terminate = *res.Terminate
		r.explicit |= explicitTerminate
	}
	r.StructuredContent = structured
	if res.IsError != nil {
		out.IsError = *res.IsError
	}
	out.Result = r
	return out
}

// toolResultMessage is the transcript entry of an outcome.
func toolResultMessage(o ToolOutcome) *ToolResultMessage {
	content := o.Result.Content
	if content == nil {
		content = []ContentBlock{}
	}
	return &ToolResultMessage{
		ToolCallID: o.ToolCall.ID, ToolName: o.ToolCall.Name, Content: content,
		Details: o.Result.Details, Usage: o.Result.Usage, IsError: o.IsError,
		DurationMs: o.DurationMs, Timestamp: nowMillis(),
	}
}

func endEvent(o ToolOutcome) ToolExecutionEndEvent {
	return ToolExecutionEndEvent{ToolCallID: o.ToolCall.ID, ToolName: o.ToolCall.Name, Result: o.Result, IsError: o.IsError, DurationMs: o.DurationMs}
}

func startEvent(c ToolCall) ToolExecutionStartEvent {
	return ToolExecutionStartEvent{ToolCallID: c.ID, ToolName: c.Name, Args: c.Arguments}
}

func allTerminate(outcomes []ToolOutcome) bool {
	if len(outcomes) == 0 {
		return false
	}
	for _, o := range outcomes {
		if !o.Result.Terminate {
			return false
		}
	}
	return true
}

// RunToolCallOptions configures [RunToolCall].
type RunToolCallOptions struct {
	// Tools are the tools the call may name.
	Tools []Tool
	// AssistantMessage and Context are what the hooks see.
	AssistantMessage *AssistantMessage
	Context          AgentContext
	// BeforeToolCall and AfterToolCall are the hooks to apply, usually the
	// run's own, so that nested calls pass the same checks.
	BeforeToolCall func(context.Context, BeforeToolCallContext) (*BeforeToolCallResult, error)
	AfterToolCall  func(context.Context, AfterToolCallContext) (*AfterToolCallResult, error)
	// OnUpdate, optional, receives partial results, on the tool's goroutine.
	OnUpdate func(ToolResult)
}

// RunToolCall runs one call through the same pipeline as a model-issued
// call (argument preparation, validation, BeforeToolCall, Execute,
// AfterToolCall) without events or messages, on the calling goroutine. Tools
// that call other tools use it so that the hooks apply to those calls too.
// Failures of every kind come back as an outcome with IsError, never as a
// panic.
func RunToolCall(ctx context.Context, call ToolCall, opts RunToolCallOptions) ToolOutcome {
	if ctx == nil {
		return *immediateError(call, ErrNilContext.Error()).immediate
	}
	h := toolHooks{before: opts.BeforeToolCall, after: opts.AfterToolCall, context: func() AgentContext { return opts.Context }}
	p := prepareCall(ctx, opts.Tools, opts.AssistantMessage, call, h)
	if p.immediate != nil {
		return *p.immediate
	}
	nested := opts
	nested.OnUpdate = nil
	out := executeCall(withCallScope(ctx, nested), p, opts.OnUpdate)
	return finalizeCall(ctx, opts.AssistantMessage, p, out, h)
}

// callScopeKey keys the options of the call a tool's ctx belongs to.
type callScopeKey struct{}

// withCallScope gives a tool's ctx the options its nested calls should use.
func withCallScope(ctx context.Context, opts RunToolCallOptions) context.Context {
	return context.WithValue(ctx, callScopeKey{}, &opts)
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
