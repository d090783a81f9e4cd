package bedrock

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// TestAgentRun runs a whole agent against a server that first thinks
// (signed) and calls two tools in parallel, then answers; the second
// request must send the signed reasoning, both calls and both results in
// one user message, with the hook's key as bearer token.
func TestAgentRun(t *testing.T) {
	start := eventFrame("messageStart", `{"role":"assistant"}`)
	tools := concat(start,
		eventFrame("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"reasoningContent":{"text":"Two lookups, in parallel."}}}`),
		eventFrame("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"reasoningContent":{"signature":"c2lnLWFnZW50"}}}`),
		eventFrame("contentBlockStop", `{"contentBlockIndex":0}`),
		eventFrame("contentBlockStart", `{"contentBlockIndex":1,"start":{"toolUse":{"toolUseId":"tooluse_now","name":"now"}}}`),
		eventFrame("contentBlockStart", `{"contentBlockIndex":2,"start":{"toolUse":{"toolUseId":"tooluse_calc","name":"calc"}}}`),
		argumentsAt(1, `{"zone":`), argumentsAt(2, `{"expr":"6*7"}`), argumentsAt(1, `"Europe/Paris"}`),
		eventFrame("contentBlockStop", `{"contentBlockIndex":1}`),
		eventFrame("contentBlockStop", `{"contentBlockIndex":2}`),
		eventFrame("messageStop", `{"stopReason":"tool_use"}`),
		eventFrame("metadata", `{"usage":{"inputTokens":50,"outputTokens":20,"totalTokens":70}}`))
	answer := concat(start,
		eventFrame("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"In Paris it is 14:00; 6*7 = 42."}}`),
		eventFrame("contentBlockStop", `{"contentBlockIndex":0}`),
		eventFrame("messageStop", `{"stopReason":"end_turn"}`))
	var script providertest.Recorder
	msgs, calls := providertest.AgentRun{
		Model: agentcore.Model{ID: "anthropic.claude-sonnet-4-5-20250929-v1:0", Name: "Claude Sonnet 4.5", API: API, Provider: "amazon-bedrock",
			Reasoning: true, Input: []string{"text"}, MaxTokens: 32000},
		Thinking: agentcore.ThinkingMedium,
		Stream:   script.Script(t, testTarget(t), tools, answer),
		Key:      "bedrock-hook",
	}.Run(t)
	first := msgs[2].(*agentcore.AssistantMessage)
	assert.Equal(t, agentcore.StopToolUse, first.StopReason)
	assert.Equal(t, []agentcore.ContentBlock{
		agentcore.ThinkingBlock{Thinking: "Two lookups, in parallel.", ThinkingSignature: "c2lnLWFnZW50"},
		agentcore.ToolCall{ID: "tooluse_now", Name: "now", Arguments: json.RawMessage(`{"zone":"Europe/Paris"}`)},
		agentcore.ToolCall{ID: "tooluse_calc", Name: "calc", Arguments: json.RawMessage(`{"expr":"6*7"}`)},
	}, first.Content)
	assert.Equal(t, "In Paris it is 14:00; 6*7 = 42.", msgs[5].(*agentcore.AssistantMessage).Text())
	now, _ := calls.Load("tooluse_now")
	assert.Equal(t, providertest.NowArgs{Zone: "Europe/Paris"}, now)

	bodies := script.AgentRequests(t, "Authorization", "Bearer bedrock-hook")
	var second wireRequest
	require.NoError(t, json.Unmarshal(bodies[1], &second))
	require.Len(t, second.Messages, 3)
	assistant, results := second.Messages[1], second.Messages[2]
	require.Len(t, assistant.Content, 3)
	assert.Equal(t, &reasoningText{Text: "Two lookups, in parallel.", Signature: "c2lnLWFnZW50"}, assistant.Content[0].ReasoningContent.ReasoningText)
	assert.Equal(t, "tooluse_calc", assistant.Content[2].ToolUse.ToolUseID)
	require.Len(t, results.Content, 3, "two results and the cache point")
	assert.Equal(t, "tooluse_now", results.Content[0].ToolResult.ToolUseID)
	assert.Equal(t, "42", *results.Content[1].ToolResult.Content[0].Text)
	assert.NotNil(t, results.Content[2].CachePoint)
	assert.JSONEq(t, `{"thinking":{"type":"enabled","budget_tokens":8192,"display":"summarized"},"anthropic_beta":["interleaved-thinking-2025-05-14"]}`,
		string(second.AdditionalModelRequestFields))
}
