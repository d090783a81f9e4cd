// Package models knows the models of pi-ai 1.6.0 and the facts about them
// a program needs around a request: whether a response overflowed the
// context window, and how many tokens a transcript takes.
//
// # Context overflow
//
// [IsContextOverflow] reads an assistant message the way pi-ai's
// isContextOverflow does: an error text by which a provider says the
// request was too large, a response whose reported input exceeds the
// window, or a length stop with no output on a full window. A program
// that compacts its transcript on overflow calls it on every failed or
// suspicious response.
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
