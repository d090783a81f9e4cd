// Package openairesponses is a client of OpenAI's Responses API for
// agentcore: [StreamFn] returns the [agentcore.StreamFn] that puts a model
// whose API is "openai-responses" behind an [agentcore.Agent]. It behaves
// as pi-ai 1.6's openai-responses provider does: the same request body for
// a transcript, the same events and final message for a response, the
// same error texts.
//
// The Responses API is where OpenAI's reasoning models keep their
// reasoning across turns: each response's reasoning items come back
// encrypted and are replayed in the next request ("store": false, nothing
// kept on the server). It is plain net/http and the project's one
// server-sent-events reader, no SDK. It never logs or prints.
//
// # Use
//
//	agent := agentcore.New(agentcore.Options{
//		Model:         agentcore.Model{ID: "gpt-5-mini", Provider: "openai", API: "openai-responses", Reasoning: true, Input: []string{"text", "image"}},
//		StreamFn:      openairesponses.StreamFn(openairesponses.Options{}),
//		StreamOptions: agentcore.StreamOptions{APIKey: os.Getenv("OPENAI_API_KEY"), Reasoning: agentcore.ThinkingMedium},
//		SystemPrompt:  "You are terse.",
//		Tools:         tools,
//	})
//	err := agent.Prompt(ctx, "What time is it?")
//
// For another server that speaks the API set [Options.BaseURL] (or the
// model's BaseURL). The per-request key is [agentcore.StreamOptions.APIKey]
// ([agentcore.Hooks.GetAPIKey] can rotate it); [Options.APIKey] is the
// fallback. A request without a key fails, as pi-ai's does, unless its
// headers carry an Authorization.
//
// # The request
//
// The transcript is the only input. Its system messages give the
// instructions (rendered with [agentcore.SystemPromptText]), as role
// "developer" for reasoning models and "system" for others; they are
// collapsed into one leading message unless the model's compat keeps them
// in place (see [Options]). The current tools ([agentcore.CurrentTools])
// are declared as functions. The transcript is first prepared as pi-ai
// prepares it for every API: failed and aborted turns dropped, images
// replaced by a placeholder for a model whose Input lacks "image",
// thinking of other models dropped, a result made up for a call without
// one. Then:
//
//   - user text and images become input_text and input_image parts;
//   - an assistant's text becomes a message item, its ID taken from the
//     text's signature when the text came from this model (else made up
//     from its position: msg_pi_N);
//   - thinking of this model is replayed as the reasoning item its
//     signature holds, with its encrypted content;
//   - a tool call becomes a function_call: its ID is "call|item" (the
//     call ID and the item ID, as this package reports calls), the item ID
//     kept only for this model's calls; IDs of other providers are made
//     safe, and items of another Responses API get an ID hashed from
//     theirs, as pi-ai does;
//   - a tool result becomes a function_call_output of its text, or of its
//     text and images.
//
// The body asks for a stream with "store": false. StreamOptions.MaxTokens
// (else the model's MaxTokens), fitted into the model's ContextWindow as
// pi-ai fits it and raised to the API's minimum of 16, is sent as
// max_output_tokens; Temperature as temperature. For a model with
// Reasoning, the thinking level is sent as reasoning.effort (xhigh and max
// as high) with a summary ([Options.ReasoningSummary], "auto" by default)
// and "include": ["reasoning.encrypted_content"]; with no level the effort
// is "none". StreamOptions.SessionID is sent as prompt_cache_key (cut to
// 64 characters) and in session headers unless CacheRetention is "none";
// CacheRetention "long" adds "prompt_cache_retention": "24h".
// [Options.ServiceTier] is sent as service_tier. The members of
// StreamOptions.SamplingParams are merged in last, as pi-ai does. A key
// that is no API key ("sk-...") to api.openai.com is a ChatGPT sign-in
// token: its request leaves out the fields ChatGPT rejects.
//
// StreamOptions.ResponseFormat, when set, is sent as text.format
// {type: json_schema, name, schema, strict} (pi-ai sends none).
//
// # The response
//
// Each output item the server streams becomes one content block, started
// when the item is added, streamed, and ended when the item is done, so
// that parallel tool calls interleaved by output_index each grow their own
// block:
//
//   - a reasoning item is a thinking block: the summary deltas (parts
//     separated by a blank line) or the reasoning text deltas; when done,
//     its text is the item's summary and its ThinkingSignature the item's
//     JSON, encrypted content included (taken from the completed response
//     when the item lacked it), ready to be replayed;
//   - a message item is a text block of its text and refusal deltas; when
//     done, its text is the item's and its TextSignature names the item's
//     ID and phase;
//   - a function_call item is a tool call: while its arguments stream the
//     partial message shows the arguments parsed so far; when done they
//     are parsed for good (text that is no JSON object sets
//     [agentcore.ToolCall.ArgumentsError]).
//
// Other items (web searches, say) show nothing. The message takes the
// response ID; response.completed or response.incomplete gives the usage
// (input less cached and cache-write tokens, cached tokens as CacheRead,
// reasoning tokens) priced with the model's Cost at the service tier the
// response reports (half for flex, double for priority), and the stop
// reason: completed is "stop" ("toolUse" when the message has tool
// calls), incomplete for max_output_tokens is "length". Replayed
// reasoning items the API reports it removed (input_transformations,
// other than at a turn boundary) are recorded in the message's
// Diagnostics, as pi-ai records them. Any other incomplete reason
// ("Response incomplete: content_filter"), a failed or cancelled status,
// or a status pi-ai does not know ends the stream with an error.
//
// Failures end the stream with an error event, never a panic, worded as
// pi-ai words them: an HTTP error status as "NAME API error (STATUS): " and
// the OpenAI SDK's text of the error or the server's error object ("test
// API error (429): {...}", "OpenAI API error (502): 502 Bad Gateway"), with
// pi-ai's hints for ChatGPT's usage limits; a network error
// ("Connection error.: ..." before the response, "terminated: ..." when
// its body broke off); a response.failed event ("CODE: MESSAGE"); an
// "error" event (its message, or "Error Code CODE: MESSAGE"); a malformed
// event ([MalformedEventText]); a line of the event stream over 16 MiB
// ([LineTooLongText]); a stream that ended before its terminal event
// ([NoTerminalEventText]), an abort while streaming and a body sent with
// "Connection: close" that ended early included; a tool call whose item never ended. Blocks not ended stay as
// they streamed. The message's Err holds the failure as an
// [agentcore.ProviderError] (the HTTP status, the delay the server asked
// for, the network error), so that [agentcore.IsRetryable] classifies it.
// Cancelling ctx before the response gives stopReason "aborted" with
// [AbortedBeforeResponseText].
//
// # Request options
//
// The request options of [agentcore.StreamOptions] apply where pi-ai's
// adapter applies them, all on the goroutine ranging over the stream:
// Identity gives the User-Agent and attribution headers, below every other
// header; OnPayload sees the built body and a replacement is sent as
// returned; Timeout bounds each attempt's wait for the response headers;
// MaxRetries resends the same body after a 408, 409, 429, 5xx or a
// request that got no response, waiting what the server asks unless it
// exceeds MaxRetryDelay ("Server requested Ns retry delay (max: Ms).
// 429 ..."); OnResponse sees each response's status and headers;
// OnProviderStreamEvent sees the JSON of each event pi-ai's SDK would
// yield before it is applied. A hook's error ends the response as an error
// message with its text.
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
// huge one math.MaxInt64), so no usage count or cost is ever negative.
//
// A response may build at most [Options.MaxResponseBytes] of content
// (16 MiB by default; text, thinking and its signatures, tool calls, the
// texts an item's end replaces them with): past it the stream ends with
// an error wrapping [agentcore.ErrResponseTooLarge] and the content that
// fit, so memory stays within a small multiple of the cap whatever the
// server sends. A body that sends nothing for [Options.IdleTimeout] (10
// minutes by default; comments count as data) ends with an error
// wrapping [agentcore.ErrStreamIdleTimeout], retryable, the content so
// far kept. Their texts are documented with the options.
//
// The error of a refusal quotes at most 4000 characters of the server's
// error object, as pi-ai does, and a failed message's ErrorMessage is cut
// to 16000 characters, "... [truncated N chars]" saying how many were
// left off: a server cannot put megabytes into the transcript.
//
// # Not done
//
// Grammar (custom) tools and their custom_tool_call items, strict JSON
// schemas, tools declared mid-conversation (additional_tools, tool
// search), configuration_update items for mid-conversation effort, the
// thinking level map and sampling parameters of pi's model catalog,
// tool_choice, GitHub Copilot's headers and the PI_CACHE_RETENTION
// environment variable are not implemented. An event whose fields have
// other JSON types than the API's is read without them, where pi-ai's
// JavaScript may fail on it.
package openairesponses
