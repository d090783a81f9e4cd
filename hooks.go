package agentcore

import (
	"context"
	"encoding/json"
)

// AgentContext is the state a run works on: the transcript and the tools the
// runtime can execute. Hooks receive it as a view: its slices have no spare
// capacity, so appending to them copies, and their elements must not be
// modified.
type AgentContext struct {
	Messages []Message
	Tools    []Tool
}

// Hooks are the policy points of the loop. Every hook is optional (nil means
// the default described with it), gets the run's ctx (cancelled on abort),
// and runs on the goroutine that drives the run, except AfterToolCall, which
// runs on the goroutine executing its call: in a parallel batch, concurrently
// for different calls. A hook that returns an error or panics where the
// reference would have thrown is handled the way the reference handles the
// throw, as each hook says. Hooks decide; to observe, subscribe to events.
// A hook of an [Agent]'s run may call the Agent's methods, except
// WaitForIdle, which would wait for the hook itself.
//
// In one turn the hooks run in this order:
//
//	[not first turn] PrepareNextTurn -> (steering poll) -> turn_start
//	pending messages emitted
//	PrepareRequest
//	TransformContext -> ConvertToLLM -> GetAPIKey -> stream function
//	per tool call: validation -> BeforeToolCall -> execute -> AfterToolCall
//	FinishTurn
//	turn_end
type Hooks struct {
	// ConvertToLLM turns the transcript into the messages the model
	// understands before each request: app-defined messages become standard
	// ones or are dropped. It gets the output of TransformContext and must
	// not modify it. Its result is the request's [Request].Messages: the
	// hook must not change it afterwards. Nil keeps the four standard
	// roles. An error ends the run.
	ConvertToLLM func(ctx context.Context, messages []Message) ([]Message, error)

	// TransformContext rewrites the view of one request (pruning, injected
	// context) without changing the transcript: its result, which the hook
	// must not change afterwards, goes to ConvertToLLM for this request
	// only. It must not modify messages (appending to the slice copies it);
	// return them unchanged to keep them. Nil keeps the context. An error
	// ends the run.
	TransformContext func(ctx context.Context, messages []Message) ([]Message, error)

	// GetAPIKey resolves the API key for each request, for keys that expire
	// during long runs. An empty answer falls back to StreamOptions.APIKey.
	// An error ends the run.
	GetAPIKey func(ctx context.Context, provider string) (string, error)

	// PrepareRequest runs before every model request, the first included,
	// after pending messages were emitted. A non-nil update replaces the
	// context, model or thinking level for this and later requests of the
	// run; nil keeps them. A replaced context is the run's working context,
	// not an Agent's transcript (which keeps being reduced from events); tool
	// declarations were already computed for this request, so a context with
	// other declarations is declared before the next one. It does not poll
	// the queues. An error ends the run.
	PrepareRequest func(ctx context.Context, req RequestContext) (*RequestUpdate, error)

	// PrepareNextTurn runs when the loop continues, after turn_end and before
	// the next turn_start (never before the first turn). A non-nil update
	// replaces the context, model or thinking level and may append messages
	// (emitted like steering). A replaced context is the run's working
	// context, as for PrepareRequest. Steering is polled again after it when
	// the earlier poll found nothing. An error ends the run.
	PrepareNextTurn func(ctx context.Context, turn TurnContext) (*TurnUpdate, error)

	// FinishTurn runs after the assistant message and its tool results, just
	// before turn_end, and decides how the run goes on: [TurnDefault] keeps
	// normal scheduling, [TurnEnd] ends the run after turn_end, and
	// [TurnContinue] ensures one more request (adding one only when nothing
	// else would). For error and aborted responses it runs but its decision
	// is ignored. Answering TurnContinue unconditionally never ends the run.
	// The loop has no turn limit of its own: a program caps a run's turns
	// here (see the package's turn-limit example). An error ends the run.
	FinishTurn func(ctx context.Context, turn TurnContext) (TurnDecision, error)

	// BeforeToolCall runs after a call's arguments were validated and before
	// it executes; it may block it. Calls of one batch are prepared in order,
	// one at a time, on the run's goroutine, so confirmations never overlap.
	// Under an Agent, the calling assistant message is already in the
	// transcript (its message_end listeners have returned). A nil result or
	// one with Block false allows the call. When ctx is cancelled by the time
	// it returns, the call fails with "Operation aborted" whatever it
	// answered. An error (or panic) fails the call with its text.
	BeforeToolCall func(ctx context.Context, call BeforeToolCallContext) (*BeforeToolCallResult, error)

	// AfterToolCall runs after a call executed, before tool_execution_end; its
	// result overrides the tool's result field by field (see
	// [AfterToolCallResult]); nil keeps it. In a parallel batch it may run
	// concurrently for different calls. An error (or panic) replaces the
	// result with an error result holding its text.
	AfterToolCall func(ctx context.Context, call AfterToolCallContext) (*AfterToolCallResult, error)
}

// RequestContext is what [Hooks.PrepareRequest] sees.
type RequestContext struct {
	// Context is the run's working context, pending messages included (a
	// view: see [AgentContext]).
	Context AgentContext
	// Model is the model the request will use.
	Model Model
	// ThinkingLevel is the level the request will use; [ThinkingOff] when
	// reasoning is off.
	ThinkingLevel ThinkingLevel
}

// RequestUpdate replaces parts of the run state; nil or empty fields keep
// the current value (use [ThinkingOff] to turn reasoning off).
type RequestUpdate struct {
	// Context, when not nil, becomes the run's working context. The loop
	// never writes into its slices (it appends to copies), so the hook may
	// keep them; their messages must not be modified.
	Context *AgentContext
	// Model, when not nil, is the model of this and later requests.
	Model *Model
	// ThinkingLevel, when not empty, is the level of this and later
	// requests.
	ThinkingLevel ThinkingLevel
}

// TurnContext describes a completed turn.
type TurnContext struct {
	// Message is the turn's assistant message.
	Message *AssistantMessage
	// ToolResults are the turn's tool results, in call order.
	ToolResults []*ToolResultMessage
	// Context is the run's context with the turn appended.
	Context AgentContext
	// NewMessages are the messages the run added so far.
	NewMessages []Message
}

// TurnUpdate is what [Hooks.PrepareNextTurn] may change; nil or empty
// fields keep the current value (use [ThinkingOff] to turn reasoning off).
type TurnUpdate struct {
	// Context, when not nil, becomes the run's working context, as
	// [RequestUpdate].Context does.
	Context *AgentContext
	// Messages are appended before the next request, with events; a nil
	// one fails the run ([ErrNilMessage]).
	Messages []Message
	// Model, when not nil, is the model of the next requests.
	Model *Model
	// ThinkingLevel, when not empty, is the level of the next requests.
	ThinkingLevel ThinkingLevel
}

// TurnDecision is [Hooks.FinishTurn]'s answer.
type TurnDecision int

// The turn decisions.
const (
	// TurnDefault keeps normal scheduling.
	TurnDefault TurnDecision = iota
	// TurnContinue ensures at least one more request.
	TurnContinue
	// TurnEnd ends the run after turn_end without polling the queues.
	TurnEnd
)

// BeforeToolCallContext is what [Hooks.BeforeToolCall] sees.
type BeforeToolCallContext struct {
	AssistantMessage *AssistantMessage
	ToolCall         ToolCall
	// Args are the validated, coerced arguments, the very bytes the tool
	// gets: read-only. For a tool made with [NewTool], [DecodeArgs] gives
	// them typed.
	Args json.RawMessage
	// Context is the run's context as the batch started.
	Context AgentContext
}

// BeforeToolCallResult is [Hooks.BeforeToolCall]'s answer; nil lets the
// call run. [Block] builds the usual answer.
type BeforeToolCallResult struct {
	// Block prevents the call; the model gets an error result.
	Block bool
	// Reason is the blocked call's result text; empty means "Tool execution
	// was blocked". Without Block it does nothing: the call runs.
	Reason string
	// Terminate marks the blocked result as terminating. Without Block it
	// does nothing.
	Terminate bool
}

// Block is the answer of a BeforeToolCall hook that prevents a call: the
// model gets an error result whose text is reason ("Tool execution was
// blocked" when empty).
func Block(reason string) *BeforeToolCallResult {
	return &BeforeToolCallResult{Block: true, Reason: reason}
}

// AfterToolCallContext is what [Hooks.AfterToolCall] sees.
type AfterToolCallContext struct {
	AssistantMessage *AssistantMessage
	ToolCall         ToolCall
	// Args are the arguments the tool got ([DecodeArgs] types them):
	// read-only.
	Args json.RawMessage
	// Result is the executed result before overrides, the tool's: return
	// replacements in [AfterToolCallResult] rather than modifying it.
	Result ToolResult
	// IsError is whether the call counts as failed so far.
	IsError bool
	// Context is the run's context as the batch started.
	Context AgentContext
}

// AfterToolCallResult overrides a tool result field by field; a nil field
// keeps the original. There is no deep merge. Replacing Content without
// StructuredContent drops the structured content, which may no longer match.
type AfterToolCallResult struct {
	// Content, when not nil (an empty slice included), replaces the content.
	Content []ContentBlock
	// Details, when not nil, replaces the details (nil cannot clear them:
	// set an empty object instead).
	Details any
	// StructuredContent, when not nil, replaces the structured content.
	StructuredContent any
	// IsError, when not nil, replaces whether the call failed.
	IsError *bool
	// Usage, when not nil, replaces the tool's usage.
	Usage *Usage
	// Terminate, when not nil, replaces the result's terminate hint.
	Terminate *bool
}

// LoopConfig configures [RunLoop] and [RunLoopContinue]. The zero value plus
// a model and a stream function (or a default, see [SetDefaultStreamFn]) is
// a working configuration.
type LoopConfig struct {
	Hooks

	// Model is the model of the first request.
	Model Model
	// ThinkingLevel is the requested reasoning level; empty means off.
	ThinkingLevel ThinkingLevel
	// StreamFn calls the model; nil uses the default stream function.
	StreamFn StreamFn
	// StreamOptions are passed to every request; APIKey is the fallback
	// when GetAPIKey answers nothing. APIKey and Reasoning are set per request.
	StreamOptions StreamOptions
	// ToolExecution is the batch mode; empty means [ToolsParallel].
	ToolExecution ToolExecutionMode

	// GetSteeringMessages returns messages to inject before the next request.
	// It is polled at run start, after every turn unless FinishTurn ended the
	// run, and after PrepareNextTurn when the earlier poll found nothing. It
	// runs on the run's goroutine. The messages it returns are the run's
	// (emitted, then in the context); the loop does not modify or keep the
	// slice. A nil hook or an empty answer means none; a nil message fails
	// the run ([ErrNilMessage]).
	GetSteeringMessages func(ctx context.Context) []Message
	// GetFollowUpMessages returns messages to process when the run would
	// otherwise end (the model answered without tool calls and no steering
	// is pending); it is polled then, and only then, on the run's
	// goroutine. Its answer is handled like GetSteeringMessages'.
	GetFollowUpMessages func(ctx context.Context) []Message

	// Layers add behavior to the run, as [Options].Layers do to an Agent's,
	// except that [Setup.Agent] is nil and run wrappers do not apply: the
	// layers' hooks compose with Hooks, their stream function and tool
	// wrappers apply, and their listeners are called with each event, in
	// order on the run's goroutine, before it is sent on the run's channel
	// (a listener that panics ends the run with its error). They are
	// installed once per run, by RunLoop or RunLoopContinue.
	Layers []Layer
}

// DefaultConvertToLLM keeps the messages of the four standard roles. When
// every message is standard it returns messages itself.
func DefaultConvertToLLM(_ context.Context, messages []Message) ([]Message, error) {
	var v llmView
	return v.update(messages), nil
}
