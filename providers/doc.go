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
// ("google-generative-ai", [GoogleGenerativeAI]): switching models is
// switching the [agentcore.Model], as with pi. [Options] carries each
// built-in provider's options (base URL, fallback key, headers, HTTP
// client).
//
// # Keys
//
// A request's key is [agentcore.StreamOptions.APIKey] (so that
// [agentcore.Hooks.GetAPIKey] can rotate keys). When it is blank, the
// registry reads the model's provider's variable from the environment, as
// pi-ai's streamSimple does ([EnvAPIKey]: GEMINI_API_KEY for "google",
// ANTHROPIC_API_KEY for "anthropic", OPENAI_API_KEY for "openai",
// OPENROUTER_API_KEY for "openrouter", ...); Options.Getenv replaces the
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
// # Your own API
//
// [Registry.Register] adds a stream function for an API of your own, or
// replaces a built-in one (to wrap it, say). A model whose API has none
// gets a stream of one error event whose message reads "No API provider
// registered for api: X" and whose Err wraps [ErrUnknownAPI].
package providers
