package anthropic

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// scriptedServer answers the n-th request with bodies[n] and records the
// requests. A request past the script gets a 500.
type scriptedServer struct {
	mu       sync.Mutex
	bodies   [][]byte
	requests []recordedRequest
}

type recordedRequest struct {
	key  string
	body json.RawMessage
}

func (s *scriptedServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	data, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, recordedRequest{key: r.Header.Get("X-Api-Key"), body: data})
	s.mu.Unlock()
	if n >= len(s.bodies) {
		http.Error(w, `{"type":"error","error":{"type":"api_error","message":"no scripted response"}}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Write(s.bodies[n])
}

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

type nowArgs struct {
	Zone string `json:"zone" jsonschema:"required"`
}

type calcArgs struct {
	Expr string `json:"expr" jsonschema:"required"`
}

// TestAgentRun runs a whole agent against a server that first thinks and
// calls two tools in parallel, their argument pieces interleaved, then
// answers; the second request must send the signed and the redacted
// thinking back with the tool calls and their results.
func TestAgentRun(t *testing.T) {
	script := &scriptedServer{bodies: [][]byte{
		providertest.ReadTestdata(t, "stream", "agent-tools.sse"),
		textStream("In Paris it is 14:00", "; 6*7 = 42."),
	}}
	srv := providertest.Serve(t, script.ServeHTTP)
	var calls sync.Map
	agent := agentcore.New(agentcore.Options{
		Model: agentcore.Model{ID: "claude-test", API: "anthropic-messages", Provider: "anthropic",
			Reasoning: true, Input: []string{"text"}, MaxTokens: 32000},
		ThinkingLevel: agentcore.ThinkingMedium,
		StreamFn:      StreamFn(Options{BaseURL: srv.URL, HTTPClient: srv.Client()}),
		SystemPrompt:  "You are terse.",
		Tools: []agentcore.Tool{
			agentcore.NewTool("now", "The current time in a time zone.", func(_ context.Context, id string, a nowArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
				calls.Store(id, a)
				return agentcore.TextResult("2026-12-02T14:00:00+01:00"), nil
			}),
			agentcore.NewTool("calc", "Evaluates an arithmetic expression.", func(_ context.Context, id string, a calcArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
				calls.Store(id, a)
				return agentcore.TextResult("42"), nil
			}),
		},
		Hooks: agentcore.Hooks{GetAPIKey: func(context.Context, string) (string, error) {
			return "sk-ant-hook", nil
		}},
	})
	require.NoError(t, agent.Prompt(t.Context(), "What time is it in Paris, and what is 6*7?"))
	state := agent.State()
	require.Empty(t, state.ErrorMessage)

	var roles []string
	for _, m := range state.Messages {
		roles = append(roles, m.Role())
	}
	assert.Equal(t, []string{"system", "user", "assistant", "toolResult", "toolResult", "assistant"}, roles)
	first := state.Messages[2].(*agentcore.AssistantMessage)
	assert.Equal(t, agentcore.StopToolUse, first.StopReason)
	assert.Equal(t, []agentcore.ContentBlock{
		agentcore.ThinkingBlock{Thinking: "Two lookups, in parallel.", ThinkingSignature: "sig-agent-1"},
		agentcore.ThinkingBlock{Thinking: "[Reasoning redacted]", ThinkingSignature: "opaque-agent", Redacted: true},
		agentcore.ToolCall{ID: "toolu_now", Name: "now", Arguments: json.RawMessage(`{"zone":"Europe/Paris"}`)},
		agentcore.ToolCall{ID: "toolu_calc", Name: "calc", Arguments: json.RawMessage(`{"expr":"6*7"}`)},
	}, first.Content)
	assert.Equal(t, "In Paris it is 14:00; 6*7 = 42.", state.Messages[5].(*agentcore.AssistantMessage).Text())
	now, _ := calls.Load("toolu_now")
	calc, _ := calls.Load("toolu_calc")
	assert.Equal(t, nowArgs{Zone: "Europe/Paris"}, now)
	assert.Equal(t, calcArgs{Expr: "6*7"}, calc)

	require.Len(t, script.requests, 2)
	for _, r := range script.requests {
		assert.Equal(t, "sk-ant-hook", r.key)
	}
	var second struct {
		Thinking wireThinking `json:"thinking"`
		Messages []struct {
			Role    string            `json:"role"`
			Content []json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	require.NoError(t, json.Unmarshal(script.requests[1].body, &second))
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
