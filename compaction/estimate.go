package compaction

import (
	"regexp"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/tokens"
)

// This file is the package's seam to the token estimate and the overflow
// check of pi-ai; models.EstimateContextTokens and models.IsContextOverflow
// replace it once package models is merged.

// estimateContext estimates the context size of llm, a request's messages:
// the last applicable usage plus an estimate of the messages after it.
func estimateContext(llm []agentcore.Message) int { return tokens.Estimate(llm) }

// estimateMessage estimates one message of a request from its characters,
// ignoring any usage it reports.
func estimateMessage(m agentcore.Message) int {
	if a, ok := m.(*agentcore.AssistantMessage); ok && a.Usage != (agentcore.Usage{}) {
		c := *a
		c.Usage = agentcore.Usage{}
		m = &c
	}
	return tokens.Estimate([]agentcore.Message{m})
}

// overflowText matches the error texts by which providers say a request
// did not fit; a subset of pi-ai's list.
var overflowText = regexp.MustCompile(`prompt (?:is )?too long|exceeds the context window|maximum context length|context window exceeded|exceeds the available context size|greater than the context length|context[_ ]length[_ ]exceeded|too many tokens|token limit exceeded`)

// isContextOverflow reports whether msg says its request did not fit a
// window of contextWindow tokens, as pi-ai's isContextOverflow does.
func isContextOverflow(msg *agentcore.AssistantMessage, contextWindow int) bool {
	if msg.StopReason == agentcore.StopError && overflowText.MatchString(strings.ToLower(msg.ErrorMessage)) &&
		!strings.Contains(strings.ToLower(msg.ErrorMessage), "rate limit") {
		return true
	}
	if contextWindow <= 0 {
		return false
	}
	input := msg.Usage.Input + msg.Usage.CacheRead
	switch msg.StopReason {
	case agentcore.StopStop:
		return input > int64(contextWindow)
	case agentcore.StopLength:
		return msg.Usage.Output == 0 && float64(input) >= float64(contextWindow)*0.99
	}
	return false
}

// clampMaxTokens is the max tokens a provider of this module sends for a
// request of messages to model asking for maxTokens.
func clampMaxTokens(model agentcore.Model, messages []agentcore.Message, maxTokens int) int {
	return tokens.ClampMaxTokens(model, messages, maxTokens)
}
