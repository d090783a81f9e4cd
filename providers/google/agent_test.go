package google

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// TestAgentRun runs a whole agent against a server that first thinks and
// calls two tools in parallel (Gemini 3: with IDs and a signature), then
// answers; the second request must send the thought, the calls with
// their IDs and signature, and both results in one user turn.
func TestAgentRun(t *testing.T) {
	var script providertest.Recorder
	answer := []byte("data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"In Paris it is 14:00\"}],\"role\":\"model\"}}]}\r\n\r\n" +
		"data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"; 6*7 = 42.\"}],\"role\":\"model\"},\"finishReason\":\"STOP\"}]}\r\n\r\n")
	target := testTarget(t)
	msgs, calls := providertest.AgentRun{
		Model: agentcore.Model{ID: "gemini-3-pro-preview", API: "google-generative-ai", Provider: "google",
			Reasoning: true, Input: []string{"text"}, MaxTokens: 32000},
		Thinking: agentcore.ThinkingMedium,
		Stream:   script.Script(t, target, providertest.ReadTestdata(t, "stream", "agent-tools.sse"), answer),
		Key:      "gm-hook",
	}.Run(t)
	first := msgs[2].(*agentcore.AssistantMessage)
	assert.Equal(t, agentcore.StopToolUse, first.StopReason)
	assert.Equal(t, []agentcore.ContentBlock{
		agentcore.ThinkingBlock{Thinking: "Two lookups, in parallel."},
		agentcore.ToolCall{ID: "fc_now", Name: "now", Arguments: json.RawMessage(`{"zone":"Europe/Paris"}`), ThoughtSignature: "c2lnLWFnZW50"},
		agentcore.ToolCall{ID: "fc_calc", Name: "calc", Arguments: json.RawMessage(`{"expr":"6*7"}`)},
	}, first.Content)
	assert.Equal(t, "In Paris it is 14:00; 6*7 = 42.", msgs[5].(*agentcore.AssistantMessage).Text())
	now, _ := calls.Load("fc_now")
	calc, _ := calls.Load("fc_calc")
	assert.Equal(t, providertest.NowArgs{Zone: "Europe/Paris"}, now)
	assert.Equal(t, providertest.CalcArgs{Expr: "6*7"}, calc)

	bodies := script.AgentRequests(t, "X-Goog-Api-Key", "gm-hook")
	var second wireRequest
	require.NoError(t, json.Unmarshal(bodies[1], &second))
	assert.Equal(t, "MEDIUM", second.GenerationConfig.ThinkingConfig.ThinkingLevel)
	require.Len(t, second.Contents, 3)
	model, results := second.Contents[1], second.Contents[2]
	assert.Equal(t, "model", model.Role)
	require.Len(t, model.Parts, 3)
	assert.True(t, model.Parts[0].Thought)
	assert.Equal(t, "Two lookups, in parallel.", *model.Parts[0].Text)
	assert.Equal(t, "fc_now", model.Parts[1].FunctionCall.ID)
	assert.Equal(t, "c2lnLWFnZW50", model.Parts[1].ThoughtSignature)
	assert.JSONEq(t, `{"expr":"6*7"}`, string(model.Parts[2].FunctionCall.Args))
	assert.Equal(t, "user", results.Role)
	require.Len(t, results.Parts, 2)
	assert.Equal(t, "fc_now", results.Parts[0].FunctionResponse.ID)
	assert.JSONEq(t, `{"output":"2026-12-02T14:00:00+01:00"}`, string(results.Parts[0].FunctionResponse.Response))
	assert.JSONEq(t, `{"output":"42"}`, string(results.Parts[1].FunctionResponse.Response))
}
