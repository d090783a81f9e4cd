// Package agui serves agentcore Agents to web front-ends that speak AG-UI
// 1.0, the protocol of @ag-ui/client, CopilotKit and the agent frameworks
// that serve it: a [Handler] takes a RunAgentInput as a POST of JSON and
// answers with the run's AG-UI events as server-sent events.
//
//	model, _ := models.Lookup("anthropic", "claude-sonnet-4-5")
//	provider := providers.StreamFn(providers.Options{}) // ANTHROPIC_API_KEY
//	h := agui.New(agui.Options{
//		NewAgent: func(ctx context.Context, in *agui.RunInput) (agentcore.Options, error) {
//			return agentcore.Options{
//				SystemPrompt: "...", Model: model, StreamFn: provider, Tools: tools,
//				Layers: []agentcore.Layer{tracing}, // e.g. an agentotel.Instrumentation
//			}, nil
//		},
//	})
//	http.Handle("/agent", h)
//
// examples/webchat is a chat page served this way.
//
// # Threads
//
// A request names a thread (threadId). The handler holds one
// [agentcore.Agent] per thread, made by [Options.NewAgent] on the thread's
// first request; [Handler.Agent] returns it (to steer it, queue follow-ups
// or abort it) and [Handler.Forget] drops it. A thread runs one run at a
// time: a request for a running thread is refused with 409.
//
// The handler holds at most [Options.MaxThreads] threads and drops a
// thread idle longer than [Options.IdleTimeout], telling
// [Options.OnDrop]; to hold a new thread at the bound it drops the one
// idle the longest (with every thread running, the request is refused
// with 503). A dropped thread's next request makes a new Agent with
// NewAgent, which restores the transcript OnTranscript stored.
//
// The transcript is the server's. On a thread's first run the handler
// adopts the client's messages: those before the trailing user messages
// become the transcript (replacing what NewAgent restored, when the client
// sends any), the trailing user messages are the prompt. On later runs it
// takes only the messages whose IDs it has not seen: user messages are the
// prompt, tool messages answer pending front-end calls, system and
// developer messages join the transcript as [agentcore.CustomMessage]s
// (role "agui.system" or "agui.developer") that the default ConvertToLLM
// keeps from the model (the server owns the system prompt), activity messages
// are ignored; an assistant or reasoning message it does not hold is
// refused (400: history cannot be rewritten; start a new thread). The
// messages the handler makes get fresh IDs, which events and snapshots
// share, so a client that keeps the snapshot sends them back as known.
// After every run [Options.OnTranscript] gets the transcript to store;
// NewAgent restores it (agentcore.Options.Messages).
//
// A client that goes away aborts its run (the Agent's ctx is the
// request's): the loop still answers every tool call ("Operation aborted"
// or the tool's own error), and OnTranscript still runs.
//
// # Bad input
//
// Before streaming, failures answer JSON {"error": "..."}: 405 for a
// method other than POST, 415 for a body that is not JSON, 413 over
// [Options.MaxRequestBytes], 400 (errors wrapping [ErrBadInput]) for a body
// that does not decode, a missing threadId or runId, an unknown message
// role, a content part other than text and inline images, a resume
// to an agent without a [hold.Gate], a resume entry without interruptId or
// whose status is neither "resolved" nor "cancelled", more than [MaxTools] front-end tools, a
// tool name other than 1 to 64 letters, digits, '_' and '-', parameters
// that are not an object's JSON Schema or are over the schema bounds
// ([agentcore.MaxSchemaDepth] and the others, checked before compiling),
// a tool declared twice or by both client and server, a tool message for
// a call that is not pending, or nothing new to run; 403 (or a hook's
// [*HTTPError] status) when Prepare refuses, 409 for a running thread, 503
// at MaxThreads with every thread running, 500 when NewAgent fails or a
// hook panics. The texts name the request's fields, never the handler's
// types. A refused request changes nothing: the thread goes on from where
// it was, and a new thread is not made (NewAgent is called only when the
// request is refused for a clash with the program's tools).
//
// # Session files
//
// [Options].SessionDir keeps each thread in a pi session file in one
// folder, so that a restarted server (or another server sharing the
// folder) goes on with the thread where it was:
//
//	h := agui.New(agui.Options{NewAgent: newAgent, SessionDir: "/var/lib/chat/threads"})
//
// The file of a thread is <SessionDir>/<time>_agui-<hash>.jsonl, pi's
// naming, its session ID a hash of the thread ID; pi opens it as any of
// its sessions. The handler records the thread's Agent there as
// [session.Session.Layer] does (every message, replaced messages, pi's
// custom messages as custom_message entries), and after each run a
// custom entry (customType [CustomType]) with the AG-UI IDs of the
// messages recorded in that run (client IDs and the handler's alike,
// reasoning messages included), the Gate's [hold.State] and the front-end
// calls waiting for their client. When the handler does not hold a
// thread (a restart, a dropped thread), it makes the Agent with NewAgent
// and restores from the file: the context of its leaf as the transcript
// (after the leading system messages NewAgent gave), its thinking level,
// the message IDs, the held calls (Gate.Restore) and the pending calls.
// So a client that held an interrupt across the restart resumes it with
// the messages and IDs it has, and the approved call's result reaches it
// under the ID the handler gave the call's placeholder. A thread that
// compacts records its compactions as pi's compaction entries through
// [RecordCompactions], the OnEvent of its [compaction.Compactor]:
//
//	c := compaction.New(compaction.Options{OnEvent: agui.RecordCompactions(nil)})
//
// The file is open (and locked) only while a request of its thread runs,
// and the handler holds the thread's own lock, the file
// <SessionDir>/agui-<hash>.lock ([session.LockPath]), for the whole
// request, the first one included, when the thread has no file yet: of
// servers sharing the folder exactly one serves a request of a thread at
// a time, and a request for a thread another handler holds (or whose file
// another writer holds) is refused with 409. A handler that finds a file
// it holds a thread for changed since its last request (another server
// served the thread) makes the thread again from the file. A thread
// whose file was deleted (by an operator) starts anew at its next
// request: the handler makes the thread from the messages the client
// sends, as for a thread it never saw, in a new file. Changes a program
// makes to a thread's Agent between its requests ([Handler.Agent]) are
// not recorded. A server that dies, even during a run, leaves no lock
// behind (see package session).
//
// # Front-end tools
//
// RunAgentInput.tools are tools the browser runs. The handler offers them
// to the model beside the program's tools (agentcore.Options.Tools, run on
// the server as always). When the model calls one, the handler writes the
// call's TOOL_CALL_START, TOOL_CALL_ARGS and TOOL_CALL_END, the turn's
// server tools run, and the run ends after that turn with RUN_FINISHED
// whose outcome is {"type": "success", "pendingToolCallIds": [...]}.
// Until the client answers, the transcript holds a placeholder result
// (what the model sees if it never does); the next request carries the
// answer as a tool message (its error field marks a failure), which
// replaces the placeholder, and the Agent continues from there.
//
// # Interrupts
//
// A program that wants a person to decide some tool calls first (run
// deploy only once someone says yes) adds a [hold.Gate] to the Layers of
// the options NewAgent returns, one Gate per thread (the handler uses the
// first Gate it finds there):
//
//	gate := hold.New(hold.Options{Policy: hold.Always(hold.Request{Title: "Deploy?"}, "deploy")})
//	return agentcore.Options{..., Tools: tools, Layers: []agentcore.Layer{gate}}, nil
//
// A run whose turn held calls ends, as AG-UI 1.0 wants, with RUN_FINISHED
// {outcome: {type: "interrupt", interrupts: [...]}}: one interrupt per
// held call, its id and toolCallId the call's ID, reason "tool_call",
// message the request's Title ("Run TOOL?" without one), expiresAt its
// deadline, responseSchema [ApprovalSchema], and metadata {tool,
// arguments, title, reason, touches, data} (data is the request's
// Metadata) for the page to show. The held calls' placeholder results are
// kept out of the client's list. The next request answers every open
// interrupt in RunAgentInput.resume ([Resume]): status "resolved" with an
// [ApprovalPayload] ({"approved": true}, with "editedArgs" to replace the
// arguments; {"approved": false, "reason": "..."}; {"result": "..."} to
// supply the result), or "cancelled", which denies the call. The run then
// writes TOOL_CALL_RESULT for each decided call against its original ID,
// and the loop goes on. A request on a thread with open interrupts that
// does not answer them all, or answers one that is not open (a resume
// replayed after it applied), or answers one twice, or whose decision the
// Gate refuses (edited arguments the tool's schema rejects), is answered
// with RUN_STARTED and RUN_ERROR {code: "interrupt"} and changes nothing.
// Cancelling a call whose deadline decided it is accepted.
//
// The Gate's [hold.State] is what a program stores beside the transcript
// (OnTranscript) to decide after a restart: NewAgent restores both
// (Gate.Restore), and a resume on a thread restored this way continues
// the server's transcript; [Options].SessionDir does both for the program
// (see Session files). Front-end tools are not interrupts: AG-UI 1.0
// ends a run that called one with a success outcome naming the calls, as
// the Front-end tools section says.
//
// # Event mapping
//
// Each agentcore event of a run maps onto AG-UI events as follows; the
// message IDs are the handler's, the tool call IDs the model's.
//
//   - Start of the request: RUN_STARTED {threadId, runId, parentRunId}.
//   - turn_start: STEP_STARTED {stepName: "turn N"}, N counting from 1
//     in the run; turn_end: STEP_FINISHED with the same name, after
//     closing whatever the turn left open.
//   - Assistant message_start: nothing; it names the message (ID A).
//   - text_start, text_delta, text_end: TEXT_MESSAGE_START {messageId: A,
//     role: "assistant"}, TEXT_MESSAGE_CONTENT {delta} (empty deltas are
//     skipped), TEXT_MESSAGE_END. Several text blocks of one message reuse A,
//     as AG-UI appends to the message of that ID.
//   - thinking_start, thinking_delta, thinking_end: REASONING_START and
//     REASONING_MESSAGE_START {messageId: R, role: "reasoning"} with R
//     "A-reasoning-i" for content block i, REASONING_MESSAGE_CONTENT per
//     delta, then REASONING_MESSAGE_END, REASONING_ENCRYPTED_VALUE {subtype:
//     "message", entityId: R, encryptedValue} when the block has a
//     signature (or is redacted: its opaque payload is the encrypted value
//     and is not streamed as text), and REASONING_END.
//   - toolcall_start, toolcall_delta, toolcall_end: TOOL_CALL_START
//     {toolCallId, toolCallName, parentMessageId: A}, TOOL_CALL_ARGS per
//     delta of the arguments' JSON (the whole arguments at the end when
//     none streamed), TOOL_CALL_END, then REASONING_ENCRYPTED_VALUE
//     {subtype: "tool-call"} for a call with a thought signature.
//     Parallel calls are separate sequences, in the order the model
//     streamed them.
//   - Assistant message_end: the end events of blocks still open (a
//     stream cut off by an abort or an error), and the whole sequence of
//     each block that never streamed.
//   - Tool result message_end: TOOL_CALL_RESULT {messageId, toolCallId,
//     content, role: "tool"}: content is the text, or text and image parts.
//     A front-end call's placeholder writes nothing. tool_execution_start,
//     _update and _end write nothing: AG-UI has no progress of a tool
//     call, and the result comes with its message.
//   - User message_end of a message the client did not send (steering or a
//     follow-up the program queued through [Handler.Agent]):
//     TEXT_MESSAGE_START {role: "user"}, TEXT_MESSAGE_CONTENT,
//     TEXT_MESSAGE_END, so the page shows what the agent was told.
//   - agent_end: nothing. The client's message list then equals the
//     transcript as AG-UI messages (system messages left out; each
//     thinking block as a reasoning message before its assistant message,
//     with its encryptedValue, keeping the ID of a client's reasoning
//     message; a failed tool result with error set; the placeholders of
//     pending front-end calls left out). When the events could not make it
//     so (a failed tool result, whose error no event carries; a run that
//     could not start), MESSAGES_SNAPSHOT follows.
//   - message_replace of a tool result the client lacks (a held call's
//     placeholder replaced by the call's result, which the Gate does as a
//     resuming run starts): TOOL_CALL_RESULT {messageId, toolCallId,
//     content} under the ID the handler gave the placeholder, after
//     RUN_STARTED, then the snapshots below when the events leave the
//     list otherwise (a result placed after one the client holds, a
//     denial's error). A replaced message the client shows keeps its ID,
//     and the snapshot that ends the run replaces it in place.
//   - Start of a run whose client lacks messages of the transcript (made
//     after it left, the placeholder of a call it never answered) or holds
//     them in another order: after RUN_STARTED, a MESSAGES_SNAPSHOT of the
//     messages both hold in the same place, then one of the whole
//     transcript. AG-UI clients keep the messages a snapshot names in
//     place and append the others, so the missing messages land in
//     transcript order, before the client's new ones. A client that holds
//     the transcript gets no snapshot: an answer's size does not grow with
//     the conversation.
//   - The run's end: RUN_FINISHED {outcome: {type: "success"}} (with
//     pendingToolCallIds after a front-end call), RUN_FINISHED {outcome:
//     {type: "interrupt", interrupts}} after held calls (see Interrupts),
//     RUN_FINISHED {outcome:
//     {type: "cancelled"}} for a run aborted through [Handler.Agent]'s
//     Abort, RUN_ERROR {message} for a failed model response (the
//     transcript's error text), a run that failed to start, or a run a
//     layer failed after it ended (a structured answer the model did not
//     give: the error's text). Both carry
//     usage: the run's tokens per provider and model, inputTokens
//     counting cache reads and writes as AG-UI's accounting wants.
//
// # State
//
// RunAgentInput.state reaches the program through [Input], which hooks and
// tools call with their ctx, as do Context and ForwardedProps (and
// NewAgent and Prepare get the input too). The handler shows none of them
// to the model: a program that wants the model to see the client's
// context adds it in a TransformContext hook that reads [Input]. A tool or
// hook that changes the state tells the client with [SetState]
// (STATE_SNAPSHOT) or [PatchState] (STATE_DELTA, a JSON Patch the handler
// forwards without applying). A program that supplies no state writes no
// state events.
//
// # Server timeouts
//
// As for [agentcore.ProxyHandler]: the handler bounds its writes
// (WriteIdleTimeout); the [http.Server] must set ReadHeaderTimeout,
// ReadTimeout and IdleTimeout, and leave WriteTimeout zero, which would
// cut long runs.
package agui
