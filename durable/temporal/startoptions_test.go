package temporal_test

import (
	"testing"
	"time"

	"github.com/pi-go/agentcore/agentcoretest"
	durable "github.com/pi-go/agentcore/durable/temporal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/converter"
)

// TestStartWith starts a session with a workflow task timeout, an ID
// reuse policy and a memo, which the server reports for its workflow.
func TestStartWith(t *testing.T) {
	ctx := testCtx(t)
	sessions := durable.New(durable.Options{Model: agentcoretest.Model(), StreamFn: agentcoretest.New(agentcoretest.TextResponse("hi")).Stream})
	queue := taskQueue(t)
	startWorker(t, queue, sessions)
	cl := newClient(t, queue, sessions)
	s, err := cl.StartWith(ctx, queue, durable.StartOptions{
		WorkflowTaskTimeout: 3 * time.Second,
		IDReusePolicy:       enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		Memo:                map[string]any{"title": "a session"},
	})
	require.NoError(t, err)
	require.NoError(t, s.Prompt(ctx, "hello"))

	c := dial(t)
	defer c.Close()
	d, err := c.DescribeWorkflowExecution(ctx, s.ID(), "")
	require.NoError(t, err)
	assert.Equal(t, 3*time.Second, d.GetExecutionConfig().GetDefaultWorkflowTaskTimeout().AsDuration())
	var title string
	require.NoError(t, converter.GetDefaultDataConverter().FromPayload(d.GetWorkflowExecutionInfo().GetMemo().GetFields()["title"], &title))
	assert.Equal(t, "a session", title)
}
