package openairesponses

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// TestAgentRun runs a whole agent against a server that first calls both
// tools, in parallel and interleaved, then answers; the second request
// replays the calls with their item IDs and the results by call ID.
func TestAgentRun(t *testing.T) {
	var script providertest.Recorder
	var calls sync.Map
	agent := agentcore.New(agentcore.Options{
		Model: testTarget(t).Model,
		StreamFn: script.Script(t, testTarget(t),
			providertest.ReadTestdata(t, "stream", "tool-calls-parallel.sse"),
			providertest.ReadTestdata(t, "stream", "text.sse")),
		SystemPrompt: "You are terse.",
		Tools:        providertest.Tools(&calls),
		Hooks: agentcore.Hooks{GetAPIKey: func(context.Context, string) (string, error) {
			return "sk-hook", nil
		}},
	})
	var mu sync.Mutex
	var ended []string
	agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		if e, ok := ev.(*agentcore.ToolExecutionEndEvent); ok {
			mu.Lock()
			ended = append(ended, e.ToolName)
			mu.Unlock()
		}
	})
	require.NoError(t, agent.Prompt(t.Context(), "What time is it in Paris, and what is 6*7?"))
	state := agent.State()
	require.Empty(t, state.ErrorMessage)

	var roles []string
	for _, m := range state.Messages {
		roles = append(roles, m.Role())
	}
	assert.Equal(t, "system user assistant toolResult toolResult assistant", strings.Join(roles, " "))
	assert.Equal(t, "Hello, world! ✓", state.Messages[len(state.Messages)-1].(*agentcore.AssistantMessage).Text())
	now, _ := calls.Load("call_now|fc_now")
	assert.Equal(t, providertest.NowArgs{Zone: "Europe/Paris"}, now)
	calc, _ := calls.Load("call_calc|fc_calc")
	assert.Equal(t, providertest.CalcArgs{Expr: "6*7", Precise: true, Digits: 12}, calc)
	slices.Sort(ended)
	assert.Equal(t, []string{"calc", "now"}, ended)

	headers, bodies := script.Requests()
	require.Len(t, bodies, 2)
	for i, h := range headers {
		assert.Equal(t, "Bearer sk-hook", h.Get("Authorization"), "request %d", i)
	}
	var second struct {
		Input []json.RawMessage `json:"input"`
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(bodies[1], &second))
	assert.Len(t, second.Tools, 2)
	var items []string
	for _, it := range second.Input {
		items = append(items, string(it))
	}
	assert.Equal(t, []string{
		`{"role":"developer","content":"You are terse."}`,
		`{"role":"user","content":[{"type":"input_text","text":"What time is it in Paris, and what is 6*7?"}]}`,
		`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Checking both.","annotations":[]}],"status":"completed","id":"msg_5"}`,
		`{"type":"function_call","id":"fc_now","call_id":"call_now","name":"now","arguments":"{\"zone\":\"Europe/Paris\"}"}`,
		`{"type":"function_call","id":"fc_calc","call_id":"call_calc","name":"calc","arguments":"{\"expr\":\"6*7\",\"precise\":true,\"digits\":12}"}`,
		`{"type":"function_call_output","call_id":"call_now","output":"2026-12-02T14:00:00+01:00"}`,
		`{"type":"function_call_output","call_id":"call_calc","output":"42"}`,
	}, items)
}
