package openairesponses

import (
	"encoding/json"
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
	msgs, calls := providertest.AgentRun{
		Model: testTarget(t).Model,
		Stream: script.Script(t, testTarget(t),
			providertest.ReadTestdata(t, "stream", "tool-calls-parallel.sse"),
			providertest.ReadTestdata(t, "stream", "text.sse")),
		Key: "sk-hook",
	}.Run(t)
	assert.Equal(t, "Hello, world! ✓", msgs[len(msgs)-1].(*agentcore.AssistantMessage).Text())
	now, _ := calls.Load("call_now|fc_now")
	assert.Equal(t, providertest.NowArgs{Zone: "Europe/Paris"}, now)
	calc, _ := calls.Load("call_calc|fc_calc")
	assert.Equal(t, providertest.CalcArgs{Expr: "6*7", Precise: true, Digits: 12}, calc)

	bodies := script.AgentRequests(t, "Authorization", "Bearer sk-hook")
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
