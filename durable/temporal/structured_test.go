package temporal_test

import (
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	durable "github.com/pi-go/agentcore/durable/temporal"
	"github.com/pi-go/agentcore/structured"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/worker"
)

// orderLine is the typed answer of TestStructuredAnswerInASession.
type orderLine struct {
	Item     string  `json:"item"`
	Quantity int     `json:"quantity" jsonschema:"minimum=1"`
	Price    float64 `json:"price"`
}

// TestStructuredAnswerInASession gives a session type a structured
// answer as its layer: the model's first call of the final-answer tool
// fails validation and is repaired by its second, which ends the run
// (its execution is pure, so the workflow runs it without an activity).
// The value is read with Result from the session's transcript, and the
// history replays.
func TestStructuredAnswerInASession(t *testing.T) {
	ctx := testCtx(t)
	answerCall := func(id string, args map[string]any) agentcoretest.Response {
		return agentcoretest.ToolCallResponse(agentcoretest.ToolCall(id, structured.DefaultName, args))
	}
	fake := agentcoretest.New(
		answerCall("c1", map[string]any{"item": "tea", "quantity": 0, "price": 3.5}),
		answerCall("c2", map[string]any{"item": "tea", "quantity": 2, "price": 3.5}),
	)
	answer := structured.New[orderLine](structured.Options[orderLine]{})
	o := durable.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Layers: []agentcore.Layer{answer}}
	sessions := durable.New(o)
	queue := taskQueue(t)
	startWorker(t, queue, sessions)
	cl := newClient(t, queue, sessions)
	s, err := cl.Start(ctx, queue)
	require.NoError(t, err)
	require.NoError(t, s.Prompt(ctx, "Extract the line."))

	require.Equal(t, 2, fake.CallCount(), "one repair")
	repair := fake.Calls()[1].Request.Messages
	last, ok := repair[len(repair)-1].(*agentcore.ToolResultMessage)
	require.True(t, ok)
	assert.True(t, last.IsError)
	assert.Contains(t, last.Text(), "quantity", "the validator's words went back to the model")

	st, err := s.State(ctx)
	require.NoError(t, err)
	got, err := answer.Result(st.Messages)
	require.NoError(t, err)
	assert.Equal(t, orderLine{Item: "tea", Quantity: 2, Price: 3.5}, got)

	h, err := cl.History(ctx, queue)
	require.NoError(t, err)
	for _, ev := range h.GetEvents() {
		if ev.GetEventType() == enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED {
			assert.Equal(t, sessions.Name()+".model", ev.GetActivityTaskScheduledEventAttributes().GetActivityType().GetName(),
				"the final-answer tool ran in the workflow")
		}
	}
	r := worker.NewWorkflowReplayer()
	durable.New(o).RegisterWorkflow(r)
	require.NoError(t, r.ReplayWorkflowHistory(quietLogger{}, h))
}
