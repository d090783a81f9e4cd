package anthropic

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// textStream is an event stream answering text in pieces.
func textStream(pieces ...string) []byte {
	var b strings.Builder
	b.WriteString("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_final\",\"model\":\"claude-test\",\"usage\":{\"input_tokens\":700,\"output_tokens\":1}}}\n\n")
	b.WriteString("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n")
	for _, p := range pieces {
		delta, _ := json.Marshal(map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": p}})
		fmt.Fprintf(&b, "event: content_block_delta\ndata: %s\n\n", delta)
	}
	b.WriteString("event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n")
	b.WriteString("event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":12}}\n\n")
	b.WriteString("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	return []byte(b.String())
}

// TestAgentRun runs a whole agent against a server that first thinks and
// calls two tools in parallel, their argument pieces interleaved, then
// answers; the second request must send the signed and the redacted
// thinking back with the tool calls and their results.
func TestAgentRun(t *testing.T) {
	var script providertest.Recorder
	msgs, calls := providertest.AgentRun{
		Model: agentcore.Model{ID: "claude-test", API: "anthropic-messages", Provider: "anthropic",
			Reasoning: true, Input: []string{"text"}, MaxTokens: 32000},
		Thinking: agentcore.ThinkingMedium,
		Stream: script.Script(t, testTarget(t),
			providertest.ReadTestdata(t, "stream", "agent-tools.sse"),
			textStream("In Paris it is 14:00", "; 6*7 = 42.")),
		Key: "sk-ant-hook",
	}.Run(t)
	first := msgs[2].(*agentcore.AssistantMessage)
	assert.Equal(t, agentcore.StopToolUse, first.StopReason)
	assert.Equal(t, []agentcore.ContentBlock{
		agentcore.ThinkingBlock{Thinking: "Two lookups, in parallel.", ThinkingSignature: "sig-agent-1"},
		agentcore.ThinkingBlock{Thinking: "[Reasoning redacted]", ThinkingSignature: "opaque-agent", Redacted: true},
		agentcore.ToolCall{ID: "toolu_now", Name: "now", Arguments: json.RawMessage(`{"zone":"Europe/Paris"}`)},
		agentcore.ToolCall{ID: "toolu_calc", Name: "calc", Arguments: json.RawMessage(`{"expr":"6*7"}`)},
	}, first.Content)
	assert.Equal(t, "In Paris it is 14:00; 6*7 = 42.", msgs[5].(*agentcore.AssistantMessage).Text())
	now, _ := calls.Load("toolu_now")
	calc, _ := calls.Load("toolu_calc")
	assert.Equal(t, providertest.NowArgs{Zone: "Europe/Paris"}, now)
	assert.Equal(t, providertest.CalcArgs{Expr: "6*7"}, calc)

	bodies := script.AgentRequests(t, "X-Api-Key", "sk-ant-hook")
	var second struct {
		Thinking wireThinking `json:"thinking"`
		Messages []struct {
			Role    string            `json:"role"`
			Content []json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	require.NoError(t, json.Unmarshal(bodies[1], &second))
	assert.Equal(t, wireThinking{Type: "enabled", BudgetTokens: 8192, Display: "summarized"}, second.Thinking)
	require.Len(t, second.Messages, 3)
	assert.Equal(t, "assistant", second.Messages[1].Role)
	want := []string{
		`{"type":"thinking","thinking":"Two lookups, in parallel.","signature":"sig-agent-1"}`,
		`{"type":"redacted_thinking","data":"opaque-agent"}`,
		`{"type":"tool_use","id":"toolu_now","name":"now","input":{"zone":"Europe/Paris"}}`,
		`{"type":"tool_use","id":"toolu_calc","name":"calc","input":{"expr":"6*7"}}`,
	}
	require.Len(t, second.Messages[1].Content, len(want))
	for i, w := range want {
		assert.JSONEq(t, w, string(second.Messages[1].Content[i]))
	}
	results := second.Messages[2].Content
	require.Len(t, results, 2)
	assert.JSONEq(t, `{"type":"tool_result","tool_use_id":"toolu_now","content":"2026-12-02T14:00:00+01:00","is_error":false}`, string(results[0]))
	assert.JSONEq(t, `{"type":"tool_result","tool_use_id":"toolu_calc","content":"42","is_error":false,"cache_control":{"type":"ephemeral"}}`, string(results[1]))
}
