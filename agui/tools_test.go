package agui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

func TestCheckTools(t *testing.T) {
	deep := json.RawMessage(strings.Repeat(`{"type":"object","properties":{"a":`, 3000) + `{}` + strings.Repeat("}}", 3000))
	many := make([]Tool, MaxTools+1)
	for i := range many {
		many[i] = Tool{Name: fmt.Sprint("t", i)}
	}
	tests := []struct {
		name  string
		tools []Tool
		want  string
	}{
		{"3,000 levels", []Tool{{Name: "f", Parameters: deep}}, fmt.Sprintf("nested deeper than the limit of %d levels", agentcore.MaxSchemaDepth)},
		{"too many tools", many, "129 front-end tools, over the limit of 128"},
		{"twice", []Tool{{Name: "a"}, {Name: "a"}}, `tool "a" is declared twice`},
		{"bad name", []Tool{{Name: "a b"}}, `name "a b"`},
		{"boolean schema", []Tool{{Name: "a", Parameters: json.RawMessage(`true`)}}, "want a JSON Schema object, got true"},
		{"array schema", []Tool{{Name: "a", Parameters: json.RawMessage(`{"type":"array"}`)}}, `want a schema of "type": "object"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkTools(t.Context(), tt.tools)
			require.ErrorIs(t, err, ErrBadInput)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	t.Run("valid", func(t *testing.T) {
		assert.NoError(t, checkTools(t.Context(), many[:MaxTools]))
	})
	t.Run("stops on ctx", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		assert.ErrorIs(t, checkTools(ctx, many[:MaxTools]), context.Canceled)
	})
}
