package bedrock

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// TestToolInputSchema: a tool's parameters are its inputSchema's json
// document, and a tool declared without any is sent with an empty
// inputSchema, as the AWS SDK (3.1127.0) serializes pi-ai's
// {json: undefined}: no document, never an empty one.
func TestToolInputSchema(t *testing.T) {
	tests := []struct {
		name       string
		parameters json.RawMessage
		want       string
	}{
		{name: "declared", parameters: json.RawMessage(`{"type":"object","properties":{}}`),
			want: `{"toolSpec":{"name":"t","description":"d","inputSchema":{"json":{"type":"object","properties":{}}}}}`},
		{name: "none",
			want: `{"toolSpec":{"name":"t","description":"d","inputSchema":{}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			messages := []agentcore.Message{
				&agentcore.SystemMessage{ToolsAdded: []agentcore.ToolDeclaration{{Name: "t", Description: "d", Parameters: tt.parameters}}},
				agentcore.UserText("hi"),
			}
			req, err := buildRequest(agentcore.Model{ID: "anthropic.claude-sonnet-4-5", API: "bedrock-converse-stream"}, messages, agentcore.StreamOptions{}, settings{cache: "none"})
			require.NoError(t, err)
			require.NotNil(t, req.ToolConfig)
			require.Len(t, req.ToolConfig.Tools, 1)
			got, err := json.Marshal(req.ToolConfig.Tools[0])
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(got))
		})
	}
}
