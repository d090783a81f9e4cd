// Package models knows the chat models of pi-ai 1.6.0 — their API, base
// URL, context window, output limit, prices, thinking levels and
// compatibility settings — and the facts about them a program needs
// around a request: what a response cost, which thinking levels a model
// takes, whether a response overflowed the context window, and how many
// tokens a transcript takes.
//
// # Catalog
//
// [Lookup] finds a model by provider and ID, as pi-ai's getModel does:
//
//	model, ok := models.Lookup("anthropic", "claude-fable-5")
//
// [List] gives a provider's models in pi-ai's order and [Providers] the
// providers. The catalog is pi-ai 1.6.0's, generated from its data files
// by internal/gen (go generate) and embedded; it is read once, on the
// first lookup. A model the catalog does not know still works as a
// hand-written [agentcore.Model].
//
// # Registry
//
// The package functions read the [Default] registry. A [Registry] is a
// set of providers a program extends and overrides, as pi-ai's
// createModels and setProvider allow: [Registry.Add] adds a model (a
// local llama.cpp, Ollama or vLLM server with its context window and no
// prices) or replaces one, [Registry.SetProvider] replaces a provider's
// models (the same models at another base URL), and
// [Registry.DeleteProvider] removes one. [Builtin] returns a registry
// holding the catalog; the zero Registry is empty.
//
// # Cost
//
// [CalculateCost] prices a response's usage with a model's rates, price
// tiers and 1h cache writes included, as pi-ai's calculateCost does. The
// providers fill a response's Usage.Cost the same way, so a model from
// the catalog reports what a response cost.
//
// # Thinking levels
//
// [SupportedThinkingLevels] and [ClampThinkingLevel] read a model's
// Reasoning flag and ThinkingLevelMap as pi-ai does.
//
// # Context overflow
//
// [IsContextOverflow] reads an assistant message the way pi-ai's
// isContextOverflow does: an error text by which a provider says the
// request was too large, a response whose reported input exceeds the
// window, or a length stop with no output on a full window. A program
// that compacts its transcript on overflow calls it on every response.
//
// # Token estimates
//
// [EstimateContextTokens] estimates the context size of a transcript as
// pi-ai does: the usage the provider reported for the last assistant
// message that has one, plus an estimate from characters of the messages
// after it. [ContextEstimate] keeps the two parts apart, so a compaction
// can tell measured tokens from estimated ones; [EstimateMessageTokens]
// and [ContextTokens] are its two halves.
package models
