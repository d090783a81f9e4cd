package compaction

import (
	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/tokens"
	"github.com/pi-go/agentcore/models"
)

// estimateContext estimates the context size of llm, a request's messages,
// as pi-ai does: the last applicable usage plus an estimate of the
// messages after it.
func estimateContext(llm []agentcore.Message) int { return models.EstimateContextTokens(llm).Tokens }

// estimateMessage estimates one message of a request from its characters.
func estimateMessage(m agentcore.Message) int { return models.EstimateMessageTokens(m) }

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
