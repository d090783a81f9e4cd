package compaction

import (
	"context"
	"math"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/tokens"
	"github.com/pi-go/agentcore/models"
)

// charsPerToken is the estimate pi's coding agent makes where it decides
// to compact and where to cut: 4 characters a token. (pi-ai's providers
// estimate 3.5 a token to clamp a response's max tokens; that estimate,
// [models.EstimateContextTokens], stays theirs.)
const charsPerToken = 4

// EstimateContextTokens estimates the context size of llm, a request's
// messages (summaries already mapped by [ConvertMessages]), as pi's coding
// agent does when it decides to compact: the context size the last usable
// usage reports ([models.ContextTokens], read as
// [models.EstimateContextTokens] reads it) plus the messages after it at 4
// characters a token. [ShouldCompact] takes this estimate.
func EstimateContextTokens(llm []agentcore.Message) int {
	last, used := tokens.LastUsage(llm)
	total := int64(used)
	for _, m := range llm[last+1:] {
		total = tokens.Sum(total, int64(estimateMessage(m)))
	}
	return int(min(total, math.MaxInt))
}

// estimateMessage estimates one message as pi's coding agent does: its
// characters (as [models.EstimateMessageTokens] counts them) at 4 a
// token, a summary by its text.
func estimateMessage(m agentcore.Message) int {
	if s, ok := AsSummary(m); ok {
		return ofChars(tokens.JSLen(s.Summary))
	}
	return ofChars(tokens.MessageChars(m))
}

func ofChars(chars int) int { return (chars + charsPerToken - 1) / charsPerToken }

// ConvertFunc maps a transcript's app-defined messages to the standard
// roles, as an [agentcore.Hooks.ConvertToLLM] does.
type ConvertFunc func(ctx context.Context, messages []agentcore.Message) ([]agentcore.Message, error)

// messageTokens estimates m as the model sees it: a root message or a
// summary by its characters, any other message by what convert turns it
// into (0 when convert is nil or fails).
func messageTokens(ctx context.Context, m agentcore.Message, convert ConvertFunc) int {
	switch m.(type) {
	case *agentcore.SystemMessage, *agentcore.UserMessage, *agentcore.AssistantMessage, *agentcore.ToolResultMessage:
		return estimateMessage(m)
	}
	if _, ok := AsSummary(m); ok || convert == nil {
		return estimateMessage(m)
	}
	out, err := convert(ctx, []agentcore.Message{m})
	if err != nil {
		return 0
	}
	n := 0
	for _, o := range out {
		n += estimateMessage(o)
	}
	return n
}

// isContextOverflow reports whether msg says its request did not fit a
// window of contextWindow tokens.
func isContextOverflow(msg *agentcore.AssistantMessage, contextWindow int) bool {
	return models.IsContextOverflow(*msg, contextWindow)
}

// clampMaxTokens is the max tokens a provider of this module sends for a
// request of messages to model asking for maxTokens.
func clampMaxTokens(model agentcore.Model, messages []agentcore.Message, maxTokens int) int {
	return tokens.ClampMaxTokens(model, messages, maxTokens)
}

// providerEstimate is the estimate the providers clamp max tokens with
// (3.5 characters a token).
func providerEstimate(llm []agentcore.Message) int { return models.EstimateContextTokens(llm).Tokens }
