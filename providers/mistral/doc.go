// Package mistral is a client of Mistral's chat completions API for
// agentcore: [StreamFn] returns the [agentcore.StreamFn] that puts a model
// whose API is "mistral-conversations" (pi-ai's Mistral models, provider
// "mistral") behind an [agentcore.Agent]. It behaves as pi-ai 1.6's
// mistral-conversations provider does: the same URL, headers and body for
// a transcript, the same events and final message for a response, the
// same error texts.
//
// # Use
//
//	agent := agentcore.New(agentcore.Options{
//		Model:         agentcore.Model{ID: "mistral-medium-latest", Provider: "mistral", API: "mistral-conversations", Input: []string{"text", "image"}},
//		StreamFn:      mistral.StreamFn(mistral.Options{}),
//		StreamOptions: agentcore.StreamOptions{APIKey: os.Getenv("MISTRAL_API_KEY"), SessionID: "chat-42"},
//	})
//
// # The request
//
// One streaming POST to BaseURL/v1/chat/completions (see [Options]), the
// key as a bearer. The transcript is prepared for replay as for every
// API, and the tool-call IDs of other models become IDs Mistral accepts
// (nine letters and digits: an ID that is nine once its other characters
// are dropped keeps them, another is hashed, and rehashed on a collision
// within the request), their results following them. System messages give
// system messages (collapsed into the first unless the model's compat
// keeps them in place); user text and images (as data URLs) give chunks,
// a model without images getting a placeholder; an assistant's non-blank
// text and thinking give text and thinking chunks and its calls
// tool_calls; a tool result gives a tool message of its text (or a note:
// "(no tool output)", "(see attached image)", "[tool error] ...") and
// images. Tools are declared as functions, strict false; a tool whose
// ConstrainedSampling requires a JSON schema fails the request, as pi-ai
// fails it where strict tools are off (the default).
//
// max_tokens is StreamOptions.MaxTokens (else the model's), fitted into
// the model's ContextWindow as pi-ai fits it. A thinking level is first
// fitted to those the model supports (off counting as none). A reasoning
// model with a ThinkingLevelMap gets reasoning_effort: the map's value
// for the level ("high" when it has none), or without a level the map's
// value for off, if any; another reasoning model asked to think gets
// "prompt_mode": "reasoning". A SessionID (unless
// CacheRetention is "none") is sent as prompt_cache_key and as the
// x-affinity header, which routes the session's requests to the same
// cache; an x-affinity header of the model, the Options or the request
// replaces it.
//
// # The response
//
// Each chunk's content (a string, or text and thinking chunks) extends
// the open text or thinking block, a change of kind ending it; empty
// pieces open nothing. A tool call (found by its index, else its ID; an
// ID missing or "null" is made up from the index) ends the open block and
// streams its arguments, which may come as text or as an object; calls
// end with the stream. Usage counts the cached prompt tokens (under any
// of the names Mistral uses) as cacheRead, and is priced at the model's
// rates (its price tiers included). Finish reasons map as pi-ai
// maps them: "stop", "length" and "model_length", "tool_calls"; "error"
// fails with "Provider stopped with: error (server error)", any other
// with "Provider stopped with: REASON".
//
// # Failures
//
// A refusal reads "Mistral API error (STATUS): " and the body, trimmed
// and cut to 4000 characters, else the status text ([ErrorName]). Data
// that is no JSON fails with [MalformedChunkPrefix] and the parser's
// reason, JSON that is no chunk with [InvalidEventText], a stream without
// a finish reason with [NoFinishReasonText], an abort with [AbortedText].
// The limits of [Options] (MaxResponseBytes, IdleTimeout) and the refusal
// of redirects to another origin are those of every provider of this
// module.
//
// # Where Go differs from pi-ai
//
// Data that is no JSON is reported with Go's parser's words after
// [MalformedChunkPrefix] (pi-ai gives JavaScript's alone); a request
// that got no response, or a body cut off, names Go's reason after
// "fetch failed: " and "terminated: " (pi-ai's Mistral adapter gives
// none). pi-ai's default 60-second wait for the response headers is left
// to [agentcore.StreamOptions.Timeout].
package mistral
