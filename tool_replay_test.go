package agentcore_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// TestReplayNotDeclared: as pi-ai's toToolDeclaration, the declaration the
// model sees (and the transcript's toolsAdded keep) holds name, description
// and parameters only; the replay policy stays on the Tool.
func TestReplayNotDeclared(t *testing.T) {
	tool := agentcore.Tool{Name: "charge", Description: "Charge a card.", Parameters: json.RawMessage(`{"type":"object"}`), Replay: agentcore.ReplayNever}
	data, err := json.Marshal(tool.Declaration())
	require.NoError(t, err)
	assert.JSONEq(t, `{"name":"charge","description":"Charge a card.","parameters":{"type":"object"}}`, string(data))
}

// TestReplayPolicyJSON: the policy's JSON is pi's wire form, so a durable
// layer's own record of a tool ({"name": ..., "replay": "safe"}, as pi
// keeps AgentTool.replay beside the declaration) round-trips, and an
// unknown policy is refused rather than read as a replay.
func TestReplayPolicyJSON(t *testing.T) {
	type record struct {
		agentcore.ToolDeclaration
		Replay agentcore.ReplayPolicy `json:"replay,omitempty"`
	}
	for _, tc := range []struct {
		name string
		in   record
		want string
	}{
		{"safe", record{agentcore.ToolDeclaration{Name: "read", Parameters: json.RawMessage(`{}`)}, agentcore.ReplaySafe},
			`{"name":"read","description":"","parameters":{},"replay":"safe"}`},
		{"never", record{agentcore.ToolDeclaration{Name: "charge", Parameters: json.RawMessage(`{}`)}, agentcore.ReplayNever},
			`{"name":"charge","description":"","parameters":{},"replay":"never"}`},
		{"unset", record{agentcore.ToolDeclaration{Name: "x", Parameters: json.RawMessage(`{}`)}, ""},
			`{"name":"x","description":"","parameters":{}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := json.Marshal(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(data))
			var back record
			require.NoError(t, json.Unmarshal(data, &back))
			assert.Equal(t, tc.in.Replay, back.Replay)
			assert.Equal(t, tc.in.Name, back.Name)
		})
	}
	var p agentcore.ReplayPolicy
	err := json.Unmarshal([]byte(`"always"`), &p)
	assert.ErrorIs(t, err, agentcore.ErrInvalidReplayPolicy)
	assert.Empty(t, p)
}
