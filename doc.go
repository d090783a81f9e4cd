// Package agentcore is an embeddable agent runtime: the loop that calls a
// model, executes the tools it asks for and decides whether to call it
// again, and a stateful [Agent] around it with a transcript, steering and
// follow-up queues, awaited listeners and abort. It is a Go port of the
// TypeScript package @earendil-works/pi-agent-core 1.6.0, the runtime
// under the pi coding agent, and keeps its behavior (the same events in the
// same order, the same hook points) and its JSON (a transcript written by
// one reads in the other).
//
// A complete program, on the scripted fake model of package agentcoretest
// (a real model is models.Lookup's, with providers.StreamFn):
//
//	weather := agentcore.NewTool("weather", "Current weather for a city.",
//		func(ctx context.Context, id string, args struct{ City string }, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
//			return agentcore.TextResult("18°C in " + args.City), nil
//		})
//	model := agentcoretest.New(
//		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "weather", map[string]string{"City": "Lisbon"})),
//		agentcoretest.TextResponse("It is 18°C in Lisbon."),
//	)
//	agent := agentcore.New(agentcore.Options{
//		Model:    agentcoretest.Model(),
//		StreamFn: model.Stream,
//		Tools:    []agentcore.Tool{weather},
//	})
//	if err := agent.Prompt(ctx, "Weather in Lisbon?"); err != nil {
//		return err // the run failed or was aborted
//	}
//	fmt.Println(agent.Messages()[len(agent.Messages())-1].(*agentcore.AssistantMessage).Text())
//
// The package knows nothing about coding, sessions or files. The loop has
// no I/O of its own (the model is reached through a stream function, the
// world through tools) and leaves no goroutine behind; the package's one
// piece of networking is the proxy, an HTTP client ([StreamProxy]) and
// handler ([NewProxyHandler]) used only when configured. Everything a
// product decides (where the transcript is stored, when to compact it,
// which tool calls need the user's permission, whether to retry) comes in
// through [Hooks] and [Layer]s, and everything that happens goes out as an
// [AgentEvent]. The examples of this package and the programs under
// examples/ show the layers above: examples/permissions, examples/retry
// and examples/persist.
//
// # RunLoop and Agent
//
// [RunLoop] and [RunLoopContinue] are the stateless engine. Give them a
// context (the transcript and the executable tools, an [AgentContext]) and
// a [LoopConfig] (model, stream function, hooks), and they run the loop on
// a goroutine of their own and return a [LoopRun] whose events arrive on a
// channel. That stream is observational: the loop does not wait for the
// reader, the channel is closed after agent_end, and [LoopRun.Wait]
// returns the messages the run added, and the run's error. The caller's
// context is copied, never modified: keeping the result is the caller's
// business. A caller that takes the channel drains it (range over it) or
// cancels ctx; one that only calls Wait gets the outcome, the events
// dropped. Either way the run's goroutines are gone when Wait returns; a
// run nobody waits for, reads or cancels keeps one blocked.
//
// [Agent] is the stateful shell. It owns the transcript; a run changes it
// only by reducing the run's events (a message_end appends the message),
// and the loop never touches the Agent's state; [Agent.SetMessages],
// [Agent.AppendMessage], [Agent.ReplaceMessage] and [Agent.Reset] edit
// it, each with an event too, so that a listener sees every change. It
// keeps the steering
// and follow-up queues, broadcasts every event to its listeners, and runs
// one run at a time: [Agent.Prompt] and [Agent.Continue] run on the calling
// goroutine and return when the run is over. Use the Agent when event
// handling must be a barrier (see "Events observe, hooks decide" below), or
// simply when you want the state kept for you.
//
// Both layers talk to a model through one function type, [StreamFn]. The
// package knows no model by name (package models is pi-ai's catalog):
// pass a provider's stream function (the packages under providers/ have
// one each, for OpenAI-compatible Chat Completions, OpenAI's Responses
// API, Claude, Gemini, Azure OpenAI, Vertex AI and Mistral, the module
// providers/bedrock for Amazon Bedrock, and package providers dispatches
// on the model's API to them), [StreamProxy] for a proxy server
// (whose server half, [NewProxyHandler], serves any StreamFn over HTTP),
// or the fake of package agentcoretest in tests. [SetDefaultStreamFn]
// installs a process default, the package's only global state; with
// neither, a run fails with [ErrNoStreamFn].
//
// # Layers
//
// A [Layer] adds behavior to an Agent through one [Setup]: hooks that
// compose with the program's ([Setup.AddHooks]), a wrapped stream function
// ([Setup.WrapStreamFn]), wrapped tools ([Setup.WrapTool]), listeners
// ([Setup.Subscribe]) and work around whole runs ([Setup.WrapRun]). The
// packages beside this one that add behavior are layers (compaction,
// tracing in the otel module, held tool calls in hold, typed answers in
// structured, session recording in session), and so is a program's own
// policy; [Options].Layers installs them in order, the first
// outermost:
//
//	agent := agentcore.New(agentcore.Options{
//		Model: model, StreamFn: providers.StreamFn(providers.Options{}), Tools: tools,
//		Hooks:  agentcore.Hooks{BeforeToolCall: askUser},   // the program's own, run last
//		Layers: []agentcore.Layer{tracing, compactor, audit}, // tracing sees everything
//	})
//
// A layer never replaces another's hook or the program's: every hook runs,
// composed per hook as [Setup.AddHooks] says. The surfaces that serve an
// Agent (the agui handler, the MCP server, the durable session) take it
// with its layers; [LoopConfig].Layers applies them to a [RunLoop] run,
// without run wrappers.
//
// # Turns, runs and sessions
//
// A turn is one model request and the execution of the tool calls of its
// response: a turn_start / turn_end pair of events, turn_end carrying the
// assistant message and its tool results ([TurnEndEvent]). A run is what
// one Prompt or Continue starts, from agent_start to agent_end: any number
// of turns, including those caused by steering and follow-up messages,
// under one ctx. A session, a conversation over many runs kept in a file
// that outlives the process, is package session's: it stores an Agent's
// transcript in pi's session files as the messages end, resumes an Agent
// from one (session.Session.Restore), branches and compacts it
// (examples/persist).
//
// Take the task "fix the failing tests". [Agent.Prompt] emits agent_start,
// turn_start and the user message (message_start, message_end: the Agent
// appends it). The model asks to read two files: both calls are prepared in
// order (argument validation, [Hooks.BeforeToolCall]) and then execute
// concurrently; their tool_execution_end events come in completion order,
// their tool-result messages in call order. FinishTurn, turn_end. Turn 2:
// the model edits a file, and while the edit runs the user types "don't
// change the public API" ([Agent.Steer]): the edit is not interrupted; the
// message is taken after the turn and goes into the context before the next
// request. Turn 3: the model runs the tests; BeforeToolCall may ask the
// user for permission, and a refusal becomes an error result the model
// reads. While the tests run, the user adds "then update the CHANGELOG"
// ([Agent.FollowUp]); it waits. Turn 4: the model says the tests pass and
// calls no tool, so the run would end: now the follow-up is taken, and
// turns 5 and 6 handle it. Then agent_end, once, and Prompt returns after
// the agent_end listeners. One run, six turns. Retrying a failure or
// compacting the transcript afterwards is again the caller's decision
// ([Agent.Continue]).
//
// # Steering, follow-ups and abort
//
// There are three ways to intervene in a running agent. [Agent.Steer] queues
// a message that changes direction: it is injected at the next safe point,
// after every tool call of the current assistant message has finished and
// before the next request. It never skips or interrupts a tool call.
// [Agent.FollowUp] queues more work: it is taken only when the run would
// otherwise end (the model answered without tool calls and no steering is
// queued), and it runs in the same run. [Agent.Abort] stops: it cancels the
// run's ctx, which the stream function, every hook and every tool receive;
// the provider ends its response with stopReason "aborted" and the run ends.
// Abort never clears the queues; [Agent.ClearQueue] does, and
// [Agent.PeekQueued] shows what the next drain point would take. A queued
// message is taken when it is about to be delivered: when a run fails
// between taking it and its message_end (a PrepareNextTurn that fails on
// abort, say), it goes back to the front of its queue, for the next run.
//
// Steering is polled at the start of a run, after every turn (unless
// FinishTurn ended the run), and once more after PrepareNextTurn when the
// earlier poll found nothing. Follow-ups are polled only when the inner
// loop would end. Both queues have a mode: [QueueModeOneAtATime] (the
// default) takes the oldest message per drain point, [QueueModeAll] takes
// all of them.
//
// [Agent.Continue] starts a run without a new message, from the transcript
// as it is, for retries. From a transcript ending in a user or tool-result
// message it requests again; from one ending in an assistant message
// (providers refuse to continue their own turn) it takes a batch of queued
// steering, else a batch of follow-ups, as the run's input, and fails with
// [ErrContinueFromAssistant] when both queues are empty. While a run is
// active, Prompt, Continue and [Agent.Reset] fail with [ErrBusy] (test with
// [errors.Is]) and change nothing; [Agent.WaitForIdle] waits for the run to
// end.
//
// # The hooks of one turn
//
// [Hooks] are function fields, every one optional, each with its contract
// documented on the field. In a turn they run in this order:
//
//	[not the first turn] PrepareNextTurn -> steering poll if none pending -> turn_start
//	pending messages (prompt, steering, follow-ups, PrepareNextTurn's) -> message_start/end
//	PrepareRequest
//	TransformContext -> ConvertToLLM -> GetAPIKey -> StreamFn -> message_start/update/end
//	for each tool call: tool_execution_start -> find tool -> PrepareArguments ->
//	    coerce and validate -> BeforeToolCall -> Execute (tool_execution_update...) ->
//	    AfterToolCall -> tool_execution_end -> tool result message_start/end
//	FinishTurn
//	turn_end
//	-> FinishTurn said end: agent_end
//	-> else poll steering; when the inner loop ends, poll follow-ups; none: agent_end
//
// In a parallel batch every call is prepared first, in order (a call that
// fails preparation gets its tool_execution_end at once), then the allowed
// calls execute concurrently, and the tool-result messages follow in call
// order once all of them have ended.
//
// PrepareRequest runs before every request, the first included, after the
// pending messages were emitted; it may replace the context, model or
// thinking level for this and later requests (the coding agent rebuilds
// the context from its session file here). A context returned by a hook
// replaces the run's working context only: the Agent's transcript is still
// what the events append. TransformContext rewrites the
// view of one request only (pruning, injected retrieval) and
// ConvertToLLM turns app-defined messages into standard ones or drops them
// ([DefaultConvertToLLM] keeps the four standard roles). GetAPIKey resolves
// a key per request, for tokens that expire during long runs.
// PrepareNextTurn runs between turns, never before the first, and may also
// append messages. FinishTurn decides after the turn's tool results:
// [TurnDefault], [TurnEnd] (end after turn_end, polling nothing) or
// [TurnContinue] (at least one more request; the loop adds a context-only
// one when nothing else would cause a request).
//
// Hooks, listeners and the queue polls run on the run's goroutine: the
// caller's for an Agent, the loop's for RunLoop. BeforeToolCall runs there
// too, one call at a time, so permission prompts never overlap. A tool's
// Execute and AfterToolCall run on a goroutine of the call's own,
// concurrently with the other calls of a parallel batch, so a call that
// blocks holds up no other; the updates and the end events they post are
// delivered by the run's goroutine, still one event at a time, and a tool
// never waits for listeners.
//
// # Events observe, hooks decide
//
// Events flow out of the loop: they tell the world what happened, for UIs,
// logs and persistence, and any number of listeners may watch. Hooks are
// the loop asking one question at a fixed point: their return value is the
// decision. A listener cannot block a tool call; BeforeToolCall returning
// Block can.
//
// Every message, whatever its role, gets message_start and message_end;
// only assistant messages get message_update, carrying the provider's
// [AssistantEvent] (a [TextDeltaEvent], say) and the partial message. So a
// UI renders message_update and a store appends on message_end.
// tool_execution_end has DurationMs, the time Execute took, hooks excluded.
//
// Events are immutable: keep them freely. A message_update event
// ([MessageUpdateEvent]) carries a snapshot of the partial message that
// never changes, so a listener may keep it or hand it to another goroutine.
//
// An Agent's listeners see every change of its transcript, so that a
// layer that records it (a session file, a trace, a UI, an audit log)
// holds the transcript the Agent holds by applying the events in order:
//
//	message_end      a run's message, or [Agent.AppendMessage]'s        append
//	                 (both after a message_start)
//	message_replace  [Agent.ReplaceMessage]: a held call's real result  replace at Index
//	                 in place of its placeholder, a repaired answer
//	transcript_set   [Agent.SetMessages], [Agent.Reset]                 replace all
//
// The events of a run come as the run makes them, awaited. The events of
// the API's changes ([MessageReplaceEvent], [TranscriptSetEvent], and
// AppendMessage's message_start and message_end) come in the order the
// transcript changed: during a run, on the run's goroutine before the run's
// next event (or as the run ends), with the run's ctx; outside a run,
// before the changing call returns, with context.Background() — unless
// another call, or a listener's own change, is being delivered at that
// moment: the call delivering then delivers it, after the events before
// it. Listeners are never called concurrently, and one may call any of
// these methods from inside a listener. A listener's panic on such an
// event is ignored. So the events of a change made during a run may come
// inside the run's sequence, even between a streaming message's
// message_start and message_end; the change itself is in the Agent's
// transcript, not in the run's own context, as [Agent.SetMessages] says.
//
// # Tools
//
// A [Tool] is a name, a description and a JSON Schema the model sees, plus
// Execute. [NewTool] builds one from a typed argument struct, reflecting the
// schema from its tags. Every call goes through one pipeline: find the tool
// ("Tool NAME not found"), PrepareArguments, coerce and validate a copy of
// the arguments against the schema (the transcript's arguments are never
// modified), BeforeToolCall, an abort check ("Operation aborted"), Execute
// with an update callback, AfterToolCall (a field-by-field override of the
// result, see [AfterToolCallResult]).
//
// Tool failures are conversation, not crashes: an unknown tool, invalid
// arguments, a blocked call, an error or a panic in Execute, PrepareArguments,
// BeforeToolCall or AfterToolCall all become an error tool result the model
// reads and can recover from. A tool reports failure by returning an error
// (its text is what the model sees) or a result with IsError.
//
// The calls of one response run in parallel by default ([ToolsParallel]):
// preparation in call order, execution concurrent. [ToolsSequential], in
// the configuration or as one called tool's ExecutionMode, runs the batch
// one call at a time. A batch
// whose every result sets [ToolResult].Terminate ends the run without
// another request. A response cut off by the output limit ([StopLength])
// executes none of its calls, since their arguments may be truncated.
// [RunToolCall] runs one call through the same pipeline without events or
// messages, for tools that call tools: nested calls then pass the same
// permission checks. Inside Execute, [NestedCallOptions] of the tool's ctx
// gives the run's own tools and hooks for that. The content of a result goes to the model; Details go
// only to events, logs and UIs.
//
// # Errors and abort
//
// Failures are handled in three layers, as in the reference. A failed
// model request is not a panic nor a Go error inside the loop: the
// [StreamFn] contract is to end the stream with an assistant message whose
// stopReason is "error" (or "aborted") and whose ErrorMessage says why
// (its Err, never on the wire, may hold a [*ProviderError] with the HTTP
// status and the delay the provider asked for). The loop treats it as a
// turn that ended and exits at once: FinishTurn runs (its decision
// ignored), then turn_end and agent_end; no queue is polled. Tool failures
// are error results (above). A hook that fails where the reference would
// have thrown (an error from PrepareRequest, TransformContext,
// ConvertToLLM, GetAPIKey, PrepareNextTurn or FinishTurn, or a panic in one
// of them, a queue poll or a listener) ends the run; the Agent emits its
// minimal failure sequence: an assistant message with empty text,
// stopReason "error" ("aborted" when the run was aborted) and the error as
// ErrorMessage, then its message_start, message_end, turn_end and
// agent_end, so listeners always see a run end. What earlier message_end
// events appended stays in the transcript.
//
// In Go, a failed run is an error. [Agent.Prompt], [Agent.Continue] and
// [LoopRun.Wait] return a [*RunError] when the run's last response failed
// or was aborted, or a hook failed (for RunLoop, a failing hook's error
// comes back as it is and there is no agent_end). A RunError carries the
// final message, unwraps to the cause (the hook's error, the provider's
// [*ProviderError]) and, for an abort, to the ctx's error:
// errors.Is(err, context.DeadlineExceeded) tells a timeout from
// [Agent.Abort]. [IsRetryable] classifies it as pi-ai does. A call that
// could not start a run returns one of the refusals instead, and changed
// nothing: [ErrBusy], [ErrNoStreamFn], [ErrNilContext], [ErrInvalidTool],
// for a nil prompt [ErrNilMessage], and for Continue [ErrNoMessages] and
// [ErrContinueFromAssistant]. Retrying is above the
// package: classify, wait, drop the failed reply, call Continue
// (examples/retry).
//
// Abort is cooperative. While the model streams, the provider ends the
// response as aborted. While tools run, each should return soon after its
// ctx is cancelled. No tool call is left without a result (providers reject
// a transcript with an unanswered call): every call not yet executed when
// the run is aborted still gets its tool_execution_start and
// tool_execution_end events and an "Operation aborted" error result, in
// call order, without its tool being looked up and without hooks; so does
// a [RunToolCall] on a done ctx. The loop then goes on to the next request,
// which a provider ends as aborted at once. Hooks that run after an abort
// see their ctx cancelled.
//
// # The transcript's system messages
//
// There is no separate system prompt or tool list beside the transcript:
// both live in it, as [SystemMessage] entries, so that replaying a prefix of
// the transcript shows what the model saw at that point. The leading
// system message is the base prompt ([Options].SystemPrompt and the
// initial tools seed it, see [InitialSystemMessage]); a later one appends
// content, patches named [Sections] (ordered; a removed section is null on
// the wire) and adds or removes tools by name. [CurrentSystemMessage]
// replays the prompt ([SystemPromptText] renders it), [CurrentTools] the
// declared tools, and [CollapseSystemMessages] gives providers that take
// one system prompt a single leading message. [State].SystemPrompt is such
// a replay.
//
// The executable tools ([AgentContext].Tools, [Agent.SetTools]) are a
// separate thing from the declared ones. Before every request the loop
// diffs them and declares the difference in a system message
// with ToolsAdded and ToolsRemoved, placed before the first non-system
// pending message; a
// pending system message's own tool fields count as intent and are
// replaced by the real difference. Changing tools between runs is therefore
// visible in the history, like any other message.
//
// # Messages and JSON
//
// [Message] has the four standard roles ([*SystemMessage], [*UserMessage],
// [*AssistantMessage], [*ToolResultMessage]) and any app-defined type with a
// Role method, such as a UI notice or a compaction summary: it lives in the
// transcript and events, and ConvertToLLM decides what the model sees of
// it. Every message, block and event marshals to pi's JSON. A
// [MessageRegistry] decodes app-defined roles; a role nobody registered
// becomes a [*CustomMessage] that keeps every field. A decoded message is
// written back as it was read: an optional field pi states empty
// ("toolsAdded": [], "reasoning": 0, "thinkingSignature": "") stays, one it
// leaves out stays out. Messages are shared between the loop, events and
// the transcript: treat them as immutable.
//
// # Writing a stream function
//
// A [StreamFn] returns an [AssistantStream], a push iterator of
// [AssistantEvent]: start, the text_*, thinking_* and toolcall_* events,
// and a final [DoneEvent] or [ErrorEvent]. [NewAssistantStream] and its
// [StreamWriter] are the producer side: they time the final message, end
// the stream exactly once, and turn a panic or a missing final event into
// an error event. The producer runs on the consumer's goroutine, so a
// consumer that stops early leaves nothing running. Like pi-ai's providers,
// a producer builds one message and yields it as each event's Partial,
// changing it between events: a consumer of the stream reads a partial
// during the event and keeps a clone ([CloneEvent]). The loop hands its
// listeners snapshots.
//
// # Request options
//
// Beside what the model is asked, [StreamOptions] carries what an
// embedding program needs around the HTTP request, for the providers that
// make one (the packages under providers/):
// [StreamOptions.OnPayload] inspects or replaces the request body,
// [StreamOptions.OnResponse] sees each response's status and headers
// before its body is read (refusals included), and
// [StreamOptions.OnProviderStreamEvent] observes the provider's events
// before they are normalized. They run on the goroutine ranging over the
// stream, with its ctx, and their errors end the response as an error
// message. [StreamOptions.Identity] is the User-Agent and the provider
// attribution headers: the zero [Identity] names this library and
// attributes to no app (pi's Agent attributes to pi; see [Identity] for
// why this port does not). [StreamOptions.Timeout] bounds the wait for
// response headers, [StreamOptions.MaxRetries] turns on pi-ai's
// client-side retries (off by default). An Agent passes its stream options
// to every request; [StreamProxy] forwards none of these, as pi's
// streamProxy does not: on the server, [ProxyHandlerOptions.Prepare] or
// the handler's stream function sets the server's own.
//
// Those providers and [StreamProxy] treat the server as possibly hostile:
// a redirect to another origin fails the request before anything is sent
// there ([ErrCrossOriginRedirect]), and they cap a response's content
// ([ErrResponseTooLarge]), time out a server that sends nothing
// ([ErrStreamIdleTimeout]), clamp token counts and cut error texts (see
// their Options, the providers' package docs' "Hostile servers" and
// [ProxyOptions]).
//
// # Testing
//
// Package agentcoretest is the fake model, in the manner of httptest: a
// scripted [StreamFn] (agentcoretest.New with responses built by
// TextResponse, ToolCallResponse, ErrorResponse and ToolCall, or NewFunc
// with a function of the request) that streams like a provider, records
// every request it saw (Calls), and honors abort. Every example of this
// package runs on it, offline and deterministically.
package agentcore
