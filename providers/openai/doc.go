// Package openai is an OpenAI-compatible Chat Completions client for
// agentcore: [StreamFn] returns the [agentcore.StreamFn] that puts a model
// behind an [agentcore.Agent]. It talks to api.openai.com and to any server
// that speaks the same streaming API (vLLM, llama.cpp, Ollama, LM Studio,
// OpenRouter, LiteLLM and others), and behaves as pi-ai 1.6's
// openai-completions provider does: the same request body for a
// transcript, the same events for a response, the same error texts.
//
// It is plain net/http and a small server-sent-events reader, no SDK: the
// module depends on nothing but agentcore, and the package controls every
// error text and the abort path. It never logs or prints.
//
// # Use
//
//	agent := agentcore.New(agentcore.Options{
//		Model:         agentcore.Model{ID: "gpt-4.1-mini", Provider: "openai", API: "openai-completions", Input: []string{"text", "image"}},
//		StreamFn:      openai.StreamFn(openai.Options{}),
//		StreamOptions: agentcore.StreamOptions{APIKey: os.Getenv("OPENAI_API_KEY")},
//		SystemPrompt:  "You are terse.",
//		Tools:         tools,
//	})
//	err := agent.Prompt(ctx, "What time is it?")
//
// For another server set [Options.BaseURL] (or the model's BaseURL), for
// example "http://localhost:11434/v1". The per-request key is
// [agentcore.StreamOptions.APIKey], so [agentcore.Hooks.GetAPIKey] can
// rotate keys; [Options.APIKey] is the fallback, and with no key the
// request has no Authorization header.
//
// # The request
//
// The transcript is the only input. Its system messages give the prompt
// (rendered with [agentcore.SystemPromptText]) and the tools
// ([agentcore.CurrentTools]), sent as "tools" of type function. By default
// every system message is collapsed into one leading prompt, which every
// server accepts; [SystemMessagesInPlace] keeps later ones where they are.
// Reasoning models served by OpenAI's API get the prompt as role
// "developer", others as "system", unless the model's Compat says
// otherwise. User text and images (as data URLs) become user
// messages; assistant text and tool calls are replayed, and thinking is
// sent back in the field it came in (reasoning_content, reasoning or
// reasoning_text) when it came from the same model, else dropped. Tool
// results become role "tool" messages; their images follow in a user
// message. Images are replaced by a placeholder text when the model's
// Input does not list "image", so list it for vision models. Failed or
// aborted assistant messages are not replayed, and a tool call without a
// result gets an error result, as the API requires.
//
// The request asks for a stream with usage; StreamOptions.MaxTokens (else
// the model's MaxTokens), fitted into the model's ContextWindow with a
// margin for the estimated input as pi-ai does, is sent as
// max_completion_tokens (or max_tokens, see [Options]),
// Temperature as temperature, and Reasoning as reasoning_effort when the
// model has Reasoning (xhigh and max are sent as high); to OpenRouter, as
// pi-ai sends it there, as "reasoning": {"effort": LEVEL}, and as {"effort":
// "none"} when thinking is off, so that the model does not reason at its
// default. The members of
// StreamOptions.SamplingParams are merged in last, as pi-ai does: one the
// body already has takes the new value, a new one (top_p, seed, ...) is
// added. StreamOptions.SessionID, unless CacheRetention is "none", is
// sent as prompt_cache_key to api.openai.com (to any server with
// CacheRetention "long", which also sends "prompt_cache_retention":
// "24h"), and in session affinity headers to OpenRouter (x-session-id)
// and to servers whose Compat asks for them (see [Options]), so that a
// session's requests meet its prompt cache.
//
// StreamOptions.ResponseFormat, when set, is sent as response_format
// {type: json_schema, json_schema: {name, schema, strict}}; the answer
// streams as text (pi-ai sends none).
//
// # The response
//
// Text deltas, reasoning deltas (as a thinking block whose signature names
// the field) and tool calls stream as events. Tool calls may stream in
// parallel, their argument pieces interleaved by index; while they stream
// the partial message shows the arguments parsed so far, and when the
// stream ends every block ends and the arguments are parsed for good (text
// that is no JSON object sets [agentcore.ToolCall.ArgumentsError]). Usage
// counts prompt, completion and cached tokens and is priced with the
// model's Cost; through OpenRouter, the cost it reports billing replaces
// the total (Cost.TotalFromProvider says so), as pi-ai does. The finish
// reason stop gives stopReason "stop", length
// "length", tool_calls "toolUse"; any other (content_filter, say) ends the
// stream with an error "Provider finish_reason: REASON". The first
// finish_reason ends the response: later chunks are read only for their
// usage (servers send it in a last chunk), and neither their content, a
// later finish_reason, an error nor a malformed chunk changes the message.
// pi-ai applies later chunks and keeps the last finish_reason; a response
// that changes after it said it finished is not one to trust.
//
// Failures end the stream with an error event, never a panic: an HTTP
// error status, as pi-ai words it ("429: {...the server's error
// object...}" for an error with a message, else the status and the body:
// "502 Bad Gateway"), a network error ("Connection error.: ..." before
// the response, "terminated: ..." when its body broke off), an
// error the server sent mid-stream (its message), a malformed chunk
// ([MalformedChunkText]), a line of the event stream over 16 MiB
// ([LineTooLongText]), a stream that ended without a finish reason
// ([NoFinishReasonText]). An event without data, or with empty data, is
// skipped (pi-ai's SDK fails on it as malformed). The message's Err holds
// the failure as an [agentcore.ProviderError] (the HTTP status, the delay
// the server asked for, the network error). Cancelling ctx aborts:
// stopReason "aborted" with [AbortedBeforeResponseText] or [AbortedText],
// the content streamed so far kept, no Err.
//
// # Request options
//
// The request options of [agentcore.StreamOptions] apply where pi-ai's
// openai-completions adapter applies them, all on the goroutine ranging
// over the stream: Identity gives the User-Agent and the attribution
// headers of OpenRouter, NVIDIA NIM and OpenCode, below every other header,
// and an empty header value removes one; OnPayload sees the built body
// (after SamplingParams) and a replacement is sent as returned; Timeout
// bounds each attempt's wait for the response headers ("Request timed
// out."); MaxRetries (zero by default, as in pi-ai) resends the same body
// after a 408, 409, 429, 5xx or a request that got no response, waiting
// what the server asks unless it exceeds MaxRetryDelay (a minute by
// default; the failure then begins "Server requested Ns retry delay (max:
// Ms)." and goes on in the SDK's words, "429 slow down"); OnResponse sees
// each response's status and headers before its body is read, refusals
// included; OnProviderStreamEvent sees the JSON of each chunk pi-ai's SDK
// would yield (not [DONE], not error chunks) before it is applied. A
// hook's error ends the response as an error message with its text.
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
// The error of a refusal quotes at most 4000 characters of the server's
// error object, as pi-ai does, and a failed message's ErrorMessage is cut
// to 16000 characters, "... [truncated N chars]" saying how many were
// left off: a server cannot put megabytes into the transcript.
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
// OpenRouter reasoning_details and the cache_control
// breakpoints pi-ai sets for Anthropic models there, provider-specific
// thinking formats (zai, qwen, ...), grammar and strict tools are not
// implemented.
package openai
