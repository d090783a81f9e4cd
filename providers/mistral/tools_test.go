package mistral

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// TestToolParameters: a tool's parameters are sent as declared, and a
// tool declared without any is sent without "parameters", as pi-ai's
// JSON.stringify leaves an undefined member out (never as null).
func TestToolParameters(t *testing.T) {
	tests := []struct {
		name       string
		parameters json.RawMessage
		want       string
	}{
		{name: "declared", parameters: json.RawMessage(`{"type":"object","properties":{}}`),
			want: `{"type":"function","function":{"name":"t","description":"d","parameters":{"type":"object","properties":{}},"strict":false}}`},
		{name: "none",
			want: `{"type":"function","function":{"name":"t","description":"d","strict":false}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tools, err := convertTools([]agentcore.ToolDeclaration{{Name: "t", Description: "d", Parameters: tt.parameters}})
			require.NoError(t, err)
			require.Len(t, tools, 1)
			got, err := json.Marshal(tools[0])
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(got))
		})
	}
}
