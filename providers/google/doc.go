// Package google is a Gemini API client for agentcore: [StreamFn] returns
// the [agentcore.StreamFn] that puts Gemini behind an [agentcore.Agent]. It
// behaves as pi-ai 1.6's google-generative-ai provider does (with Google's
// JavaScript SDK under it): the same request body for a transcript, the
// same events for a response, the same error texts.
//
// # Why no SDK
//
// It is plain net/http and the project's server-sent-events reader, not
// google.golang.org/genai: a request is one JSON body posted to
// streamGenerateContent?alt=sse and one event stream back. Doing it
// directly keeps the dependency tree of every program that embeds an agent
// to agentcore's, lets the package control every error text, and keeps
// the abort path to ctx. Retries stay off unless a request asks for them
// ([agentcore.StreamOptions.MaxRetries]), as for the other providers.
//
// # Use
//
//	agent := agentcore.New(agentcore.Options{
//		Model: agentcore.Model{ID: "gemini-2.5-flash", Provider: "google", API: "google-generative-ai",
//			Reasoning: true, Input: []string{"text", "image"}, MaxTokens: 65536},
//		StreamFn:      google.StreamFn(google.Options{}),
//		StreamOptions: agentcore.StreamOptions{APIKey: os.Getenv("GEMINI_API_KEY")},
//	})
//
// The per-request key is [agentcore.StreamOptions.APIKey] (so
// [agentcore.Hooks.GetAPIKey] can rotate keys), sent as x-goog-api-key;
// [Options.APIKey] is the fallback. The package providers dispatches on
// the model's API and reads GEMINI_API_KEY when a request has no key.
// A model whose BaseURL is set (pi-ai's catalog sets
// https://generativelanguage.googleapis.com/v1beta) is reached there.
//
// # The request
//
// The transcript is the only input. Its system messages are collapsed
// into one system instruction ([agentcore.SystemPromptText]): Gemini has
// no system turns. The tools are [agentcore.CurrentTools], declared as
// function declarations whose parametersJsonSchema is the tool's schema
// with each string or number const rewritten as a one-value enum (Gemini
// ignores const). A tool whose ConstrainedSampling asks for a JSON schema
// ({"type":"json_schema"}) is declared in its strict form for Gemini 3 and
// later (every object closed, all properties required, optional ones made
// nullable), with function calling VALIDATED, when its schema has one;
// one that requires it ("strict":"require") and cannot have it fails the
// request with pi-ai's words. User text and images (inlineData), model text, thinking
// (thought parts) and tool calls (functionCall parts), and tool results
// (functionResponse parts, {"output": text} or {"error": text}, the
// results of one turn in one user turn) are replayed. Thought signatures
// (on text, thinking and function calls) go back only to the model that
// made them and only when they are base64; Gemini 3 and later get the
// IDs of function calls and responses, and a tool result's images inside
// its function response, where older models get them in a user turn of
// their own after it. Failed or aborted turns are not replayed, thinking
// from another model is dropped, tool-call IDs from another model are made
// valid, and a tool call without a result gets an error result, as for
// every provider of pi-ai.
//
// generationConfig carries the temperature, maxOutputTokens
// ([agentcore.StreamOptions.MaxTokens], else the model's MaxTokens, fitted
// into the model's ContextWindow as pi-ai does; none when both are 0) and
// the thinking config of a model whose Reasoning is true: with the level
// empty or off, a zero thinking budget; for Gemini 3 Pro and Flash, Gemini
// 4 and later and Gemma 4, a thinkingLevel (MINIMAL, LOW, MEDIUM, HIGH;
// xhigh and max count as high); for others a thinkingBudget: the entry of
// [agentcore.StreamOptions.ThinkingBudgets] for the level, else pi-ai's
// default for the family (2.5 Pro: 128, 2048, 8192, 32768; 2.5 Flash:
// 128, 2048, 8192, 24576; 2.5 Flash-Lite: 512, 2048, 8192, 24576), else
// -1 (the model decides); thoughts are then included. No safety settings
// are sent (pi-ai sends none: Google's defaults apply).
//
// StreamOptions.ResponseFormat, when set, makes generationConfig ask for
// responseMimeType application/json with the schema as
// responseJsonSchema, consts written as enums as for tools (pi-ai sends
// none).
//
// # The response
//
// Each chunk's first candidate is read: consecutive text parts grow one
// text block and consecutive thought parts one thinking block, each switch
// between them ending the open block; a part's thoughtSignature becomes
// the block's signature (the last non-empty one wins). A functionCall part
// is a whole tool call at once (start, one delta with its arguments, end);
// its ID is the server's, or, when it has none or repeats one, pi-ai's
// made-up "NAME_MILLISECONDS_N". Usage is the last chunk's usageMetadata:
// input without the cached tokens, output with the thoughts tokens,
// cached tokens as cache reads, thoughts as Reasoning, priced with the
// model's Cost. Finish reasons map as pi-ai maps them: STOP gives "stop"
// ("toolUse" when the message has tool calls), MAX_TOKENS and CONTINUATION
// "length"; SAFETY, RECITATION, PROHIBITED_CONTENT, BLOCKLIST, SPII,
// LANGUAGE, OTHER, MALFORMED_FUNCTION_CALL and the other error reasons end
// the stream with "Provider stopped with: REASON"; an unknown reason
// fails with "Unhandled stop reason: REASON". A prompt blocked by
// Google's filters (promptFeedback, no candidate) ends with
// [NoFinishReasonText], as in pi-ai.
//
// Failures end the stream with an error event, never a panic: an HTTP
// error status (the JSON body as sent, compacted, or Google's error
// envelope around a text body, either cut as "Hostile servers" says), an
// error object in the stream ("got status: INTERNAL. {...}"), a network
// error ([FetchFailedPrefix],
// [TerminatedPrefix]), a malformed chunk ([MalformedChunkPrefix]), a
// stream cut in the middle of an event ([IncompleteText]) or before a
// finish reason ([NoFinishReasonText]). The message's Err holds the
// failure as an [agentcore.ProviderError] (the HTTP status or the error
// object's code, the delay the server asked for, the network error),
// which a retry policy above the Agent classifies. Cancelling ctx aborts:
// stopReason "aborted", the content streamed so far kept, no Err.
//
// # Request options
//
// The request options of [agentcore.StreamOptions] apply as for the other
// providers, on the goroutine ranging over the stream: Identity gives the
// User-Agent, below every other header, and an empty header value removes
// one; OnPayload sees the built body (the wire body, where pi-ai shows the
// SDK's parameters) and a replacement is sent as is; Timeout bounds each
// attempt's wait for the response headers ("Request timed out.");
// MaxRetries resends the same body after a 408, 409, 429 or 5xx, as pi-ai
// does, and after a request that got no response; OnResponse sees each
// response's status and headers; OnProviderStreamEvent sees the JSON of
// each chunk once it parses (pi-ai shows the SDK's object). A hook's error
// ends the response as an error message with its text.
//
// # Hostile servers
//
// The package assumes the server may be hostile or broken and bounds
// what it can make a client do. A redirect is followed only within the
// origin (scheme, host and port) of the request's URL: one to another
// origin fails the request with [agentcore.ErrCrossOriginRedirect] before
// anything is sent there, so neither the key (x-goog-api-key) nor any
// other header (an Options.Headers credential included) nor the
// transcript leaves the configured server, whatever the HTTPClient's own
// CheckRedirect.
//
// Token counts are clamped to 0…math.MaxInt64 (a negative count is 0, a
// huge one math.MaxInt64) and the output (candidates and thoughts)
// saturates, so no usage count or cost is ever negative.
//
// A response may build at most [Options.MaxResponseBytes] of content
// (16 MiB by default; text, thinking, signatures and function calls,
// each counted whole as Gemini sends it): past it the stream ends with an
// error wrapping [agentcore.ErrResponseTooLarge] and the content that
// fit, so memory stays within a small multiple of the cap whatever the
// server sends. A body that sends nothing for [Options.IdleTimeout] (10
// minutes by default; comments count as data) ends with an error
// wrapping [agentcore.ErrStreamIdleTimeout], retryable, the content so
// far kept. Their texts are documented with the options.
//
// The error of a refusal or of an error chunk quotes at most 4000
// characters of what the server sent, and a failed message's
// ErrorMessage is cut to 16000 characters, "... [truncated N chars]"
// saying how many were left off: a server cannot put megabytes into the
// transcript.
//
// # Differences from pi-ai
//
// pi-ai's Google provider never sees a refusal's headers (its SDK keeps
// them from it): it does not honor Retry-After and does not retry a
// request that got no response; this package does, as its siblings do,
// so a 429 asking a longer wait than MaxRetryDelay fails at once with
// "Server requested Ns retry delay (max: Ms)." before the refusal's text.
// pi-ai calls no OnResponse and knows no Timeout for Google; this package
// honors both. A refusal sent as JSON that does not parse is reported in
// Google's envelope rather than with JavaScript's parser error. A request
// without any token cap sends none (pi-ai would send 1). Function-call
// arguments that are not a JSON object become {}. A refusal's
// x-should-retry header is honored as the other providers honor it.
//
// Requests send no x-goog-api-client header: pi-ai's SDK sends its own
// name and version and Node's ("google-genai-sdk/1.x gl-node/v20.x"),
// which would misreport this client to Google; the User-Agent of the
// request identity names it instead.
//
// # Not done
//
// Vertex AI (google-vertex) and its credentials; tool choice (the Go
// stream options have none); the thinking level map of pi's model catalog (the Go model has none, so
// levels map as above); the SDK's automatic function calling and
// continuation (pi-ai turns both off).
package google
