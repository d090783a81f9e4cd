package temporal_test

import (
	"context"
	"testing"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	durable "github.com/pi-go/agentcore/durable/temporal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestToolResumesFromProgress kills the worker while a tool that records
// its progress runs: the attempt that runs the call again reads the
// progress the lost one recorded, and resumes from there.
func TestToolResumesFromProgress(t *testing.T) {
	step := newHang(t)
	tool := echoTool(agentcore.ReplaySafe, func(ctx context.Context, text string) (string, error) {
		var done string
		if durable.LastToolProgress(ctx, &done) {
			return "resumed after " + done, nil
		}
		durable.ToolProgress(ctx, "step 1")
		time.Sleep(time.Second) // the heartbeat carrying it reaches the server
		step.enter()
		return "from the start", nil
	})
	fake := byTurn(agentcoretest.ToolCallResponse(echoCall("c1", "a")), agentcoretest.TextResponse("done"))
	o := durable.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{tool}}
	crashOptions(&o)
	st, att := crash(t, durable.New(o), step, 0)
	require.Contains(t, toolResults(st.Messages), "c1")
	assert.Equal(t, "echo: resumed after step 1", toolResults(st.Messages)["c1"].Text())
	assert.GreaterOrEqual(t, att.tools["c1"], int32(2))
}
