package agentcore_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pi-go/agentcore"
)

// TestResponseFormatCloned checks that the Agent keeps its own copy of the
// response format: the caller's later writes do not reach it, nor do
// writes into the copy StreamOptions returns.
func TestResponseFormatCloned(t *testing.T) {
	schema := json.RawMessage(`{"type":"object"}`)
	agent := agentcore.New(agentcore.Options{})
	rf := &agentcore.ResponseFormat{Name: "answer", Schema: schema, Strict: true}
	agent.SetStreamOptions(agentcore.StreamOptions{ResponseFormat: rf})
	rf.Name, schema[0] = "changed", '['

	got := agent.StreamOptions().ResponseFormat
	assert.Equal(t, &agentcore.ResponseFormat{Name: "answer", Schema: json.RawMessage(`{"type":"object"}`), Strict: true}, got)
	got.Schema[0] = '['
	assert.JSONEq(t, `{"type":"object"}`, string(agent.StreamOptions().ResponseFormat.Schema))
	assert.Nil(t, agentcore.New(agentcore.Options{}).StreamOptions().ResponseFormat)
}
