package agentotel_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	agentotel "github.com/pi-go/agentcore/otel"
)

// TestDuplicateCallIDs runs a turn whose tool calls share one ID, as a
// server that sends none (or the same) may: every tool span started is
// ended, once, and each call is measured once.
func TestDuplicateCallIDs(t *testing.T) {
	for _, id := range []string{"", "dup"} {
		t.Run("id "+id, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := newHarness(agentotel.Config{})
				agent := h.inst.NewAgent(agentcore.Options{
					Model: model(), Tools: []agentcore.Tool{readTool()},
					StreamFn: agentcoretest.New(
						agentcoretest.ToolCallResponse(
							agentcoretest.ToolCall(id, "read", readArgs{Path: "a.txt"}),
							agentcoretest.ToolCall(id, "read", readArgs{Path: "b.txt"}),
							agentcoretest.ToolCall(id, "read", readArgs{Path: "c.txt"}),
						),
						agentcoretest.TextResponse("done"),
					).Stream,
				})
				require.NoError(t, agent.Prompt(context.Background(), "read them"))
				tools := 0
				for _, s := range h.spans.Started() {
					if s.Name() == "execute_tool read" {
						tools++
					}
				}
				assert.Equal(t, 3, tools, "one span per call")
				assert.Len(t, h.spans.Ended(), len(h.spans.Started()), "every span started is ended")
				assert.Contains(t, h.metrics(t), "gen_ai.execute_tool.duration (s) The duration of a single tool execution.\n  gen_ai.tool.name=read,gen_ai.tool.type=function count=3")
			})
		})
	}
}
