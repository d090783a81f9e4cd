package models

import (
	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/tokens"
)

// ContextEstimate is how many tokens a transcript takes in a model's
// context, split the way a compaction needs it: the part the provider
// measured (the usage of the last assistant message that reported one)
// and the part estimated from characters (the messages after it).
type ContextEstimate struct {
	// Tokens is the estimated context size: UsageTokens + TrailingTokens.
	Tokens int
	// UsageTokens is the context size the usage of the message at
	// LastUsageIndex reports (see [ContextTokens]); 0 when none applies.
	UsageTokens int
	// TrailingTokens is the estimate of the messages after LastUsageIndex,
	// or of every message when none reported usage.
	TrailingTokens int
	// LastUsageIndex is the index of the assistant message whose usage
	// counts, or -1 when no message's usage applies.
	LastUsageIndex int
}

// EstimateContextTokens estimates the context size of messages as pi-ai's
// estimateContextTokens does. The last assistant message whose usage
// applies gives the size up to and including itself; every message after
// it is estimated with [EstimateMessageTokens]. An assistant message's
// usage applies when the message neither failed nor was aborted, its
// [ContextTokens] are above 0, and no message before it has a later
// timestamp (a message inserted afterwards, such as a compaction summary,
// makes the usage stale). With no such message, every message is
// estimated and LastUsageIndex is -1.
//
// The providers clamp a request's max tokens with this same estimate.
func EstimateContextTokens(messages []agentcore.Message) ContextEstimate {
	last, used := tokens.LastUsage(messages)
	trailing := 0
	for _, m := range messages[last+1:] {
		trailing += tokens.MessageTokens(m)
	}
	return ContextEstimate{Tokens: used + trailing, UsageTokens: used, TrailingTokens: trailing, LastUsageIndex: last}
}

// EstimateMessageTokens estimates the tokens of one message from its
// length, as pi-ai's estimateMessageTokens does: characters as JavaScript
// counts them (UTF-16 code units) at 3.5 a token, rounded up, with an
// image counted as 4800 characters, a tool call as its name and its
// arguments' JSON, and a system message's added and removed tools as
// their JSON. A message of a type it does not know counts 0.
func EstimateMessageTokens(m agentcore.Message) int { return tokens.MessageTokens(m) }

// ContextTokens is the context size a usage reports, as pi-ai's
// calculateContextTokens: its TotalTokens, or when that is 0 the sum of
// its input, output, cache-read and cache-write counts.
func ContextTokens(u agentcore.Usage) int { return tokens.ContextTokens(u) }
