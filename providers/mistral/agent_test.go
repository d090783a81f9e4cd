package mistral

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// TestAgentRun runs a whole agent against a server that first thinks and
// calls both tools in parallel (Mistral's nine-character IDs), then
// answers; the second request must replay the thinking and the calls as
// they came, the results after them, under the session's affinity.
func TestAgentRun(t *testing.T) {
	var script providertest.Recorder
	calls := []byte(chunkEvent(`{"role":"assistant","content":[{"type":"thinking","thinking":[{"type":"text","text":"Two lookups."}]}]}`, "") +
		chunkEvent(`{"tool_calls":[{"id":"nowParis1","function":{"name":"now","arguments":"{\"zone\":\"Europe/Paris\"}"},"index":0},{"id":"calcSix42","function":{"name":"calc","arguments":{"expr":"6*7"}},"index":1}]}`, "") +
		chunkEvent(`{}`, `"tool_calls"`) + "data: [DONE]\n\n")
	answer := []byte(chunkEvent(`{"content":"In Paris it is 14:00"}`, "") + chunkEvent(`{"content":"; 6*7 = 42."}`, `"stop"`) + "data: [DONE]\n\n")
	msgs, ran := providertest.AgentRun{
		Model:    agentcore.Model{ID: "magistral-test", API: "mistral-conversations", Provider: "mistral", Reasoning: true, Input: []string{"text"}, MaxTokens: 4096},
		Thinking: agentcore.ThinkingHigh,
		Stream:   script.Script(t, testTarget(t), calls, answer),
		Key:      "mi-hook",
	}.Run(t)
	assert.Equal(t, "In Paris it is 14:00; 6*7 = 42.", msgs[len(msgs)-1].(*agentcore.AssistantMessage).Text())
	now, _ := ran.Load("nowParis1")
	calc, _ := ran.Load("calcSix42")
	assert.Equal(t, providertest.NowArgs{Zone: "Europe/Paris"}, now)
	assert.Equal(t, providertest.CalcArgs{Expr: "6*7"}, calc)

	bodies := script.AgentRequests(t, "Authorization", "Bearer mi-hook")
	var second request
	require.NoError(t, json.Unmarshal(bodies[1], &second))
	assert.Equal(t, "reasoning", second.PromptMode)
	text := bodies[1]
	for _, want := range []string{
		`{"role":"system","content":"You are terse."}`,
		`"content":[{"type":"thinking","thinking":[{"type":"text","text":"Two lookups."}]}]`,
		`{"id":"nowParis1","type":"function","function":{"name":"now","arguments":"{\"zone\":\"Europe/Paris\"}"},"index":0}`,
		`{"id":"calcSix42","type":"function","function":{"name":"calc","arguments":"{\"expr\":\"6*7\"}"},"index":0}`,
		`{"role":"tool","name":"now","content":[{"type":"text","text":"2026-12-02T14:00:00+01:00"}],"tool_call_id":"nowParis1"}`,
		`{"role":"tool","name":"calc","content":[{"type":"text","text":"42"}],"tool_call_id":"calcSix42"}`,
	} {
		assert.True(t, strings.Contains(string(text), want), "second request lacks %s:\n%s", want, text)
	}
}
