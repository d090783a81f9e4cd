package agentcore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

type goodArgs struct {
	Path string `json:"path"`
}

type chanArgs struct {
	Path   string        `json:"path"`
	Events chan struct{} `json:"events"`
}

type nestedFuncArgs struct {
	Options struct {
		Callback func() `json:"callback"`
	} `json:"options"`
}

func noop[A any](context.Context, string, A, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
	return agentcore.TextResult("ok"), nil
}

func TestValidateTools(t *testing.T) {
	good := agentcore.NewTool("read", "Reads.", noop[goodArgs])
	pointer := agentcore.NewTool("stat", "Stats.", noop[*goodArgs])
	tests := []struct {
		name  string
		tools []agentcore.Tool
		want  string // the error text; empty for none
	}{
		{"valid", []agentcore.Tool{good, pointer}, ""},
		{"no tools", nil, ""},
		{"duplicate names", []agentcore.Tool{good, good}, `agentcore: invalid tool "read": two tools have this name`},
		{"not a struct", []agentcore.Tool{agentcore.NewTool("echo", "", noop[string])},
			`agentcore: invalid tool "echo": arguments type string is not a struct`},
		{"chan field", []agentcore.Tool{agentcore.NewTool("watch", "", noop[chanArgs])},
			`agentcore: invalid tool "watch": field chanArgs.Events: JSON Schema cannot describe a chan`},
		{"nested func field", []agentcore.Tool{agentcore.NewTool("hook", "", noop[nestedFuncArgs])},
			`agentcore: invalid tool "hook": field nestedFuncArgs.Options.Callback: JSON Schema cannot describe a func`},
		{"unsupported pattern", []agentcore.Tool{{Name: "raw", Parameters: json.RawMessage(`{"type":"object","properties":{"n":{"type":"string","pattern":"(?<=x)y"}}}`)}},
			`agentcore: invalid tool "raw": Parameters: invalid tool schema: pattern "(?<=x)y" is not supported`},
		{"not JSON", []agentcore.Tool{{Name: "raw", Parameters: json.RawMessage(`{"type":`)}}, `agentcore: invalid tool "raw": Parameters: `},
		{"not a schema", []agentcore.Tool{{Name: "out", OutputSchema: json.RawMessage(`[1]`)}}, `agentcore: invalid tool "out": OutputSchema: `},
		{"no name", []agentcore.Tool{{}}, "agentcore: invalid tool: a tool has no name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := agentcore.ValidateTools(tt.tools)
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, agentcore.ErrInvalidTool)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// TestInvalidToolRefusesRun checks that a misconfigured tool fails Prompt
// and RunLoop before any request, and changes nothing.
func TestInvalidToolRefusesRun(t *testing.T) {
	bad := agentcore.NewTool("echo", "", noop[string])
	fake := agentcoretest.New(agentcoretest.TextResponse("never"))
	a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{bad}})
	before := a.Messages()
	err := a.Prompt(context.Background(), "go")
	require.ErrorIs(t, err, agentcore.ErrInvalidTool)
	_, ran := err.(*agentcore.RunError)
	assert.False(t, ran, "a refusal is not a run's error")
	assert.Equal(t, before, a.Messages())
	assert.Zero(t, fake.CallCount())

	_, err = agentcore.RunLoop(context.Background(), []agentcore.Message{agentcore.UserText("go")},
		agentcore.AgentContext{Tools: []agentcore.Tool{bad}}, agentcore.LoopConfig{StreamFn: fake.Stream})
	require.ErrorIs(t, err, agentcore.ErrInvalidTool)
	assert.Zero(t, fake.CallCount())
}

func TestValidateBoundsSchemas(t *testing.T) {
	// 3,000 levels of nested properties: refused before compiling (which
	// cost minutes), the error naming the bound.
	deep := strings.Repeat(`{"type":"object","properties":{"a":`, 3000) + `{}` + strings.Repeat("}}", 3000)
	err := agentcore.Tool{Name: "deep", Parameters: json.RawMessage(deep)}.Validate()
	require.ErrorIs(t, err, agentcore.ErrInvalidTool)
	assert.Contains(t, err.Error(), fmt.Sprintf("nested deeper than the limit of %d levels", agentcore.MaxSchemaDepth))

	big := `{"description":"` + strings.Repeat("x", agentcore.MaxSchemaBytes) + `"}`
	err = agentcore.Tool{Name: "big", OutputSchema: json.RawMessage(big)}.Validate()
	require.ErrorIs(t, err, agentcore.ErrInvalidTool)
	assert.Contains(t, err.Error(), fmt.Sprintf("over the limit of %d", agentcore.MaxSchemaBytes))
}
