package temporal_test

import (
	"context"
	"slices"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	durable "github.com/pi-go/agentcore/durable/temporal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestToolAddedAcrossContinueAsNew upgrades the workers in the middle of a
// run that continues as new between its steps: worker A is lost during
// the second tool call and worker B registers one more tool. The run goes
// on with the tools it started with, and no message is committed twice.
func TestToolAddedAcrossContinueAsNew(t *testing.T) {
	ctx := testCtx(t)
	step := newHang(t)
	tool := echoTool(agentcore.ReplayNever, func(_ context.Context, text string) (string, error) {
		if text == "b" {
			step.enter()
		}
		return text, nil
	})
	fake := byTurn(agentcoretest.ToolCallResponse(echoCall("c1", "a")), agentcoretest.ToolCallResponse(echoCall("c2", "b")),
		agentcoretest.TextResponse("done"), agentcoretest.TextResponse("after the upgrade"))
	oa := durable.Options{SystemPrompt: "sys", Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{tool}, MaxHistoryLength: 12}
	crashOptions(&oa)
	ob := oa
	ob.Tools = append(slices.Clone(oa.Tools), shoutTool())

	s, st, _ := upgrade(t, durable.New(oa), durable.New(ob), step, 0)
	assert.GreaterOrEqual(t, st.Continued, 1, "the run continued as new")
	assertOneResultPerCall(t, st.Messages)
	count := map[string]int{}
	for _, m := range st.Messages {
		if r, ok := m.(*agentcore.ToolResultMessage); ok {
			count[r.ToolCallID]++
		}
	}
	assert.Equal(t, map[string]int{"c1": 1, "c2": 1}, count, "each call has one result")
	assert.Equal(t, "done", st.Messages[len(st.Messages)-1].(*agentcore.AssistantMessage).Text())

	// The next run declares the added tool to the model.
	require.NoError(t, s.Prompt(ctx, "again"))
	st, err := s.State(ctx)
	require.NoError(t, err)
	var added []string
	for _, m := range st.Messages {
		if sys, ok := m.(*agentcore.SystemMessage); ok {
			for _, d := range sys.ToolsAdded {
				added = append(added, d.Name)
			}
		}
	}
	assert.Equal(t, []string{"echo", "shout"}, added)
}
