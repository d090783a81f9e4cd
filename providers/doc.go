// Package providers is one [agentcore.StreamFn] for every model, as pi-ai's
// streamSimple is: [Registry.Stream] dispatches each request on the
// model's API to the provider package that speaks it.
//
// # Use
//
//	agent := agentcore.New(agentcore.Options{
//		Model:    agentcore.Model{ID: "gemini-2.5-flash", Provider: "google", API: "google-generative-ai", MaxTokens: 8192},
//		StreamFn: providers.StreamFn(providers.Options{}),
//	})
//
// The same stream function serves a Claude model (API
// "anthropic-messages", [AnthropicMessages]), an OpenAI-compatible one
// ("openai-completions", [OpenAICompletions]), OpenAI's Responses API
// ("openai-responses", [OpenAIResponses]) or Gemini
// ("google-generative-ai", [GoogleGenerativeAI]), and the enterprise
// clouds: Azure OpenAI ("azure-openai-responses", [AzureOpenAIResponses],
// package providers/azure), Gemini on Vertex AI ("google-vertex",
// [GoogleVertex], package providers/vertex) and Mistral
// ("mistral-conversations", [MistralConversations], package
// providers/mistral): switching models is switching the
// [agentcore.Model], as with pi. [Options] carries each built-in
// provider's options (base URL, fallback key, headers, HTTP client;
// Azure's endpoint and deployments; Vertex's project, location and token
// source for Application Default Credentials).
//
// # The APIs of pi-ai
//
// pi-ai 1.6 speaks ten chat APIs. The seven above are built in; Amazon
// Bedrock ("bedrock-converse-stream") lives in a module of its own, for
// its AWS dependencies, and joins a registry with one call
// ([Registry.Register]). Two stay out: "openai-codex-responses", which
// signs in with a ChatGPT subscription (an OAuth login of OpenAI's own
// apps, not an API key), and "pi-messages", pi's own hosted gateway.
//
// # Keys
//
// A request's key is [agentcore.StreamOptions.APIKey] (so that
// [agentcore.Hooks.GetAPIKey] can rotate keys). When it is blank, the
// registry reads the model's provider's variable from the environment, as
// pi-ai's streamSimple does ([EnvAPIKey]: GEMINI_API_KEY for "google",
// ANTHROPIC_API_KEY for "anthropic", OPENAI_API_KEY for "openai",
// AZURE_OPENAI_API_KEY for "azure", GOOGLE_CLOUD_API_KEY for
// "google-vertex", MISTRAL_API_KEY for "mistral", OPENROUTER_API_KEY for
// "openrouter", ...); a Vertex request without one takes its token from
// the vertex Options' Token. Options.Getenv replaces the
// process environment and Options.NoEnvKeys turns the fallback off. The
// providers' own fallback keys (their Options.APIKey) come after both.
//
// # Where Go differs from pi-ai
//
// The providers follow pi-ai 1.6.0 event for event and text for text,
// but for what Go says in its own words or numbers:
//
//   - Tool-call arguments that are no JSON object: ArgumentsError gives
//     the parser's reason in encoding/json's words ("invalid character
//     '}' looking for beginning of object key string") where pi-ai gives
//     V8's ("Expected double-quoted property name in JSON at position
//     9"); the "Received arguments:" part that follows is the same.
//   - Token counts are integers: a fractional count a server reports
//     (12.7) is truncated (12), where pi-ai keeps the fraction, and costs
//     are computed from the truncated counts; a count beyond int64 (or
//     float64: 1e400, JavaScript's Infinity) is clamped to math.MaxInt64,
//     a negative one to 0.
//   - A refusal's x-should-retry header ("true" retries it, "false" does
//     not, whatever its status) and Retry-After are honored by every
//     provider, as pi-ai's OpenAI and Anthropic clients honor them;
//     pi-ai's Google client never sees a refusal's headers.
//   - The token cap follows pi-ai's clampMaxTokensToContext: with a
//     context window, a cap of 0 (none asked, none in the model) stays 0;
//     without one it becomes 1, which providers/openai and
//     providers/google leave out of the request (pi-ai would send 1)
//     while providers/openairesponses and providers/anthropic send their
//     minimum, as pi-ai does.
//
// # Limits
//
// Every provider bounds what a server may cost it with two options of its
// own (MaxResponseBytes and IdleTimeout, in each provider's Options), by
// the same rules as the proxy client's [agentcore.ProxyOptions]:
//
//   - The idle timeout (zero means [agentcore.DefaultStreamIdleTimeout],
//     10 minutes) bounds each wait for the server: for the response's
//     headers, then each read of its body, counted only while the stream
//     waits for the server. A server that stalls before its headers ends
//     as one that stalls mid-body, with an error wrapping
//     [agentcore.ErrStreamIdleTimeout] ("Stream idle timeout: no data from
//     the server for D"), which may be retried.
//     [agentcore.StreamOptions.Timeout], when set, bounds the wait for the
//     headers alone, with the SDKs' "Request timed out.".
//   - The response cap (zero means [agentcore.DefaultMaxResponseBytes],
//     16 MiB) bounds the content a response builds, and the bytes a
//     compressed body (gzip, which Go's transport asks for and inflates)
//     inflates to, so that 1 MB of gzip cannot cost a gigabyte of reading.
//     Past it the response ends with the content that fit and an error
//     wrapping [agentcore.ErrResponseTooLarge].
//
// # Your own API
//
// [Registry.Register] adds a stream function for an API of your own, or
// replaces a built-in one (to wrap it, say). A model whose API has none
// gets a stream of one error event whose message reads "No API provider
// registered for api: X" and whose Err wraps [ErrUnknownAPI].
//
// # Models by name
//
// [LookupModel] takes a model from pi-ai's catalog by name
// ("anthropic/claude-sonnet-4-5", through package models) with its API,
// server, window and prices, so responses report their cost; with a base
// URL it sends a catalog model elsewhere, or makes a model of a local
// OpenAI-compatible server (llama.cpp, Ollama, vLLM) the catalog does not
// know, with the context window the server reports
// ([ServerContextWindow]), so compaction works on it.
package providers
