// Package anthropic is an Anthropic Messages API client for agentcore:
// [StreamFn] returns the [agentcore.StreamFn] that puts Claude behind an
// [agentcore.Agent]. It behaves as pi-ai 1.6's anthropic-messages provider
// does: the same request body for a transcript, the same events for a
// response, the same error texts.
//
// # Why no SDK
//
// It is plain net/http and the project's server-sent-events reader, not
// github.com/anthropics/anthropic-sdk-go. The SDK would bring typed request
// and event structs, its own SSE decoder and helpers for features this
// package does not use (batches, files, the beta tool runner), and with
// them a large dependency tree in every program that embeds an agent. It
// would also bring its own retry loop (on by default, two retries with
// backoff on 408/409/429/5xx and connection errors), its own error texts
// and its own abort path. Retries stay off unless a request asks for them
// ([agentcore.StreamOptions.MaxRetries]): the caller of the agent loop owns
// them (see the core's examples/retry), and a retry hidden in the provider
// would run under the loop's events and double the caller's backoff. pi-ai
// itself turns the SDK's retries off and runs its own, off by default. A request is one JSON body and one event stream; doing
// it directly lets the package control every error text, keep the abort
// path to ctx, and depend on nothing but agentcore.
//
// # Use
//
//	agent := agentcore.New(agentcore.Options{
//		Model: agentcore.Model{ID: "claude-sonnet-4-5", Provider: "anthropic", API: "anthropic-messages",
//			Reasoning: true, Input: []string{"text", "image"}, MaxTokens: 64000},
//		StreamFn:      anthropic.StreamFn(anthropic.Options{}),
//		StreamOptions: agentcore.StreamOptions{APIKey: os.Getenv("ANTHROPIC_API_KEY")},
//		SystemPrompt:  "You are terse.",
//		Tools:         tools,
//	})
//	err := agent.Prompt(ctx, "What time is it?")
//
// The per-request key is [agentcore.StreamOptions.APIKey] (so
// [agentcore.Hooks.GetAPIKey] can rotate keys), sent as x-api-key;
// [Options.APIKey] is the fallback. A gateway that authenticates otherwise
// gets its Authorization header through [Options.Headers]. Set the model's
// MaxTokens: the API requires max_tokens, and without a model catalog this
// package falls back to [DefaultMaxTokens].
//
// # The request
//
// The transcript is the only input. Its leading system message gives the
// system prompt (rendered with [agentcore.SystemPromptText]); later system
// messages are collapsed into it ([agentcore.CollapseSystemMessages]) unless
// the model's Compat sets supportsMidConvoSystemMessages, when they are
// sent in place as role "system" messages, just before the next assistant
// message. The tools are [agentcore.CurrentTools], each with its schema's
// properties, required and shared definitions as input_schema. User text
// and images, assistant text, thinking with its signature (unsigned
// thinking is sent as text), redacted thinking, tool calls, and tool
// results with text, images and is_error are replayed; the images of an
// error result follow the results with a caption, since the API takes only
// text there. Failed or aborted turns are not replayed, thinking from
// another model is dropped, tool-call IDs from another model are made
// valid, and a tool call without a result gets an error result, as for
// every provider of pi-ai.
//
// The request is posted to /v1/messages?beta=true with the header
// anthropic-dangerous-direct-browser-access: true, as pi-ai's client (the
// SDK's beta messages, allowed in browsers) sends it; Options.Headers or
// StreamOptions.Headers remove the header with an empty value.
//
// Prompt caching follows [agentcore.StreamOptions.CacheRetention]: "none"
// sends no cache breakpoint; "short" (the default) puts an ephemeral one on
// the system prompt, the last tool and the last block of the conversation;
// "long" asks for a 1h TTL on them.
//
// Thinking follows [agentcore.StreamOptions.Reasoning] for a model whose
// Reasoning is true. With the level empty or off it sends thinking
// {"type":"disabled"}. Otherwise, when the model's Compat sets
// forceAdaptiveThinking (Claude models with adaptive thinking), it sends
// adaptive thinking with an effort (minimal and low: low, medium: medium,
// higher: high); else a token budget from
// [agentcore.StreamOptions.ThinkingBudgets] or pi-ai's defaults (1024,
// 2048, 8192, 16384 from minimal to high; xhigh and max count as high),
// with max_tokens raised by the budget up to the model's MaxTokens and the
// budget kept 1024 tokens under it, and the interleaved-thinking beta.
// Temperature is sent only without thinking. max_tokens is
// StreamOptions.MaxTokens, else the model's MaxTokens, fitted into the
// model's ContextWindow (when set) with a margin for the estimated input,
// as pi-ai does. A string user_id in
// StreamOptions.Metadata is sent as metadata; SessionID goes into a
// session affinity header for gateways that want one (OpenRouter).
//
// StreamOptions.ResponseFormat, when set, is sent as
// output_config.format {type: json_schema, schema} (structured outputs,
// no beta header; pi-ai sends none): the model must support it, else the
// API refuses the request.
//
// # The response
//
// Text, thinking and tool-call blocks stream as events in the order the
// server opens them; thinking signatures (signature_delta) accumulate
// without events, and a redacted_thinking block becomes a redacted
// thinking block whose signature holds its data. While a tool call's
// input_json_delta pieces stream, the partial message shows the arguments
// parsed so far; when its block ends they are parsed for good (text that is
// no JSON object sets [agentcore.ToolCall.ArgumentsError]). Usage counts
// input, output, cache read and cache write tokens (and thinking tokens
// when reported) and is priced with the model's Cost; through OpenRouter,
// the cost it reports billing replaces the total (Cost.TotalFromProvider
// says so), as pi-ai does. Stop reasons map as
// pi-ai maps them: end_turn, stop_sequence and pause_turn give "stop",
// max_tokens "length", tool_use "toolUse"; refusal ends the stream with an
// error carrying the server's explanation; an unknown reason is an error.
// Events are told apart by their name, as pi-ai does: an "error" event
// fails the response, the message and content-block events are parsed
// and applied by the type field of their data, and other events (ping,
// unknown ones, events without a name) are skipped unread.
//
// Failures end the stream with an error event, never a panic: an HTTP
// error status (`429 {"type":"error","error":{...}}`, as the server sent
// it), a network error ("Connection error.: ..." before the response,
// "terminated: ..." when its body broke off), an error event
// mid-stream (its data, such as an overloaded_error), a malformed event
// ([MalformedEventPrefix]), a stream that ends without message_stop
// ([NoMessageStopText]). The message's Err holds the failure as an
// [agentcore.ProviderError] (the HTTP status, the delay the server asked
// for with retry-after-ms or Retry-After, the network error), which a
// retry policy above the Agent classifies. Cancelling ctx aborts:
// stopReason "aborted", the content streamed so far kept, no Err. Nothing
// is retried unless MaxRetries asks.
//
// # Request options
//
// The request options of [agentcore.StreamOptions] apply where pi-ai's
// adapter applies them, all on the goroutine ranging over the stream:
// Identity gives the User-Agent (and, for a model served through
// OpenRouter, the attribution headers), below every other header, and an
// empty header value removes one; OnPayload sees the built body once the
// headers and the key are checked, and a replacement is sent with its
// "stream" member set to true; Timeout bounds each attempt's wait for the
// response headers ("Request timed out."); MaxRetries resends the same
// body after a 408, 409, 429, 5xx or a request that got no response,
// waiting what the server asks unless it exceeds MaxRetryDelay (a minute by
// default; the failure then begins "Server requested Ns retry delay (max:
// Ms)."); OnResponse sees each response's status and headers before
// anything is read of it, refusals included; OnProviderStreamEvent sees the
// JSON of each message or content-block event once it parses, before it
// becomes assistant events (not ping, unknown or error events). A hook's
// error ends the response as an error message with its text.
//
// # Hostile servers
//
// The package assumes the server may be hostile or broken and bounds
// what it can make a client do. A redirect is followed only within the
// origin (scheme, host and port) of the request's URL: one to another
// origin fails the request with [agentcore.ErrCrossOriginRedirect] before
// anything is sent there, so neither the key nor any other header (an
// Options.Headers credential included) nor the transcript leaves the
// configured server, whatever the HTTPClient's own CheckRedirect.
//
// Token counts are clamped to 0…math.MaxInt64 (a negative count is 0, a
// huge one math.MaxInt64) and their total saturates, so no usage count
// or cost is ever negative.
//
// A response may build at most [Options.MaxResponseBytes] of content
// (16 MiB by default): past it the stream ends with an error wrapping
// [agentcore.ErrResponseTooLarge] and the content that fit, so memory
// stays within a small multiple of the cap whatever the server sends. A
// body that sends nothing for [Options.IdleTimeout] (10 minutes by
// default; pings and comments count as data) ends with an error wrapping
// [agentcore.ErrStreamIdleTimeout], retryable, the content so far kept.
// Their texts are documented with the options.
//
// The error of a malformed event quotes at most 4000 characters of its
// data (see [MalformedEventPrefix]), and a failed message's ErrorMessage
// is cut to 16000 characters, "... [truncated N chars]" saying how many
// were left off: a server cannot put megabytes into the transcript.
//
// # Connections
//
// Requests go out on the HTTP client's keep-alive connections. A request
// that fails on a reused connection before any byte of a response arrived
// (the server closed the idle connection as the request went out, as
// llama-server does between the turns of a run) is sent again on a fresh
// connection, by default and whatever MaxRetries says: Go's transport
// retries only idempotent requests, and a POST that got no answer on a
// stale connection is the transport's failure, not the server's. A request
// that fails on a fresh connection, or once its response began, is not.
//
// # Not done
//
// pi-ai's OAuth (Claude subscription tokens and the Claude Code identity),
// GitHub Copilot and workload identity federation; message threads
// (server-side continuation); native mid-conversation tool changes,
// mid-conversation effort, strict tools, server-side model fallbacks and
// tool_choice; the PI_CACHE_RETENTION environment variable; the thinking level map of pi's
// model catalog (the Go model has none, so levels map as above).
package anthropic
