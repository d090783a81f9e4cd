package providertest

import (
	"context"
	"sync"

	"github.com/pi-go/agentcore"
)

// NowArgs are the arguments of the "now" tool of [Tools].
type NowArgs struct {
	Zone string `json:"zone" jsonschema:"required"`
}

// CalcArgs are the arguments of the "calc" tool of [Tools]: Expr is
// required, Precise and Digits are optional.
type CalcArgs struct {
	Expr    string `json:"expr" jsonschema:"required"`
	Precise bool   `json:"precise,omitempty"`
	Digits  int    `json:"digits,omitempty"`
}

// Tools are the two tools of the agent runs: "now", answering
// "2026-12-02T14:00:00+01:00", and "calc", answering "42". Each stores its
// arguments ([NowArgs], [CalcArgs]) in calls under the call's ID.
func Tools(calls *sync.Map) []agentcore.Tool {
	return []agentcore.Tool{
		agentcore.NewTool("now", "The current time in a time zone.", func(_ context.Context, id string, a NowArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			calls.Store(id, a)
			return agentcore.TextResult("2026-12-02T14:00:00+01:00"), nil
		}),
		agentcore.NewTool("calc", "Evaluates an arithmetic expression.", func(_ context.Context, id string, a CalcArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			calls.Store(id, a)
			return agentcore.TextResult("42"), nil
		}),
	}
}
