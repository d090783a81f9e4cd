package agentcore_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// TestBeforeToolCallAnswers checks what each answer of a BeforeToolCall
// hook does to a call, and that the hook reads the arguments typed.
func TestBeforeToolCallAnswers(t *testing.T) {
	type args struct {
		Path string `json:"path"`
	}
	tests := []struct {
		name    string
		answer  *agentcore.BeforeToolCallResult
		ran     bool
		text    string
		isError bool
	}{
		{"nil lets it run", nil, true, "read a.go", false},
		{"Block with a reason", agentcore.Block("not a.go"), false, "not a.go", true},
		{"Block without a reason", agentcore.Block(""), false, "Tool execution was blocked", true},
		{"a reason without Block does nothing", &agentcore.BeforeToolCallResult{Reason: "ignored"}, true, "read a.go", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ran := false
			read := agentcore.NewTool("read", "", func(_ context.Context, _ string, a args, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
				ran = true
				return agentcore.TextResult("read " + a.Path), nil
			})
			var seen args
			opts := agentcore.RunToolCallOptions{Tools: []agentcore.Tool{read},
				BeforeToolCall: func(_ context.Context, hc agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
					var err error
					seen, err = agentcore.DecodeArgs[args](hc.Args)
					return tt.answer, err
				}}
			out := agentcore.RunToolCall(context.Background(), agentcore.ToolCall{ID: "c1", Name: "read", Arguments: json.RawMessage(`{"path":"a.go"}`)}, opts)
			require.Equal(t, args{Path: "a.go"}, seen)
			assert.Equal(t, tt.ran, ran)
			assert.Equal(t, tt.isError, out.IsError)
			assert.Equal(t, tt.text, agentcore.Blocks(out.Result.Content...).Text())
		})
	}
}
