// Package agentcoretest provides a scripted fake model for testing code
// built on agentcore, in the manner of net/http/httptest: no network, no
// key, deterministic answers.
//
//	fake := agentcoretest.New(
//		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "read", map[string]any{"path": "a.txt"})),
//		agentcoretest.TextResponse("done"),
//	)
//	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: tools})
//
// # Scripts
//
// A [Fake] made by [New] answers each model request with the next scripted
// [Response]; one made by [NewFunc] asks a function, which sees the request
// as a [Call]. [TextResponse], [ThinkingResponse], [ToolCallResponse] and
// [ErrorResponse] build the usual responses, [ToolCall] a tool call, and
// [Model] the model the fake claims to be.
//
// # Streaming
//
// A response streams as a provider's would: a start event, then per content
// block its start, deltas and end events, then done or error. Text and
// thinking arrive in [Response.Chunks] deltas (the pieces [SplitText]
// returns), tool call arguments in one delta, as scripted. A response
// can wait [Response.ChunkDelay] before each content event, hang until it is
// aborted ([Response.Hang]), fail before its start event
// ([Response.NoStart]), or act when it starts ([Response.OnStart]).
//
// # Abort
//
// The fake honors its ctx as a provider does: a cancelled ctx ends the
// response, whatever it streamed so far kept, with stopReason "aborted" and
// errorMessage [AbortedText]. Delays and hangs wait on timers and ctx only,
// so they take virtual time inside a testing/synctest bubble.
//
// # Recorded requests
//
// The fake records every request; [Fake.Calls] returns them. The records
// keep the messages of all requests in one append-only transcript: a request
// that extends the previous one, as the requests of a session do, adds only
// its new messages, so that N requests of a growing transcript hold O(N)
// messages, not O(N²). A request whose slice extends the previous request's
// in the same backing array (the requests of one run) is taken to start
// with the messages that request had, without comparing them again: a
// caller that changes sent messages in place passes a fresh slice instead.
//
// # JavaScript JSON
//
// [CanonicalJSON] and [MarshalJS] print JSON as the TypeScript reference
// does, so that traces of both can be compared.
package agentcoretest
