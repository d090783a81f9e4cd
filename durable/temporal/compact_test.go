package temporal_test

import (
	"strings"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/compaction"
	durable "github.com/pi-go/agentcore/durable/temporal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/worker"
)

// compactSettings compact a smallWindow session above 600 tokens of
// context, keeping about 100.
var compactSettings = compaction.Settings{ReserveTokens: 7400, KeepRecentTokens: 100}

// smallWindow is the fake model with a 8,000-token context window.
func smallWindow() agentcore.Model {
	m := agentcoretest.Model()
	m.ContextWindow = 8000
	return m
}

// compactText is the summary the fake writes.
const compactText = "The user sent two long prompts."

// compactResponses answer compactScript: two runs, the summary, a third
// run.
func compactResponses() []agentcoretest.Response {
	return []agentcoretest.Response{agentcoretest.TextResponse("one"), agentcoretest.TextResponse("two"),
		agentcoretest.TextResponse(compactText), agentcoretest.TextResponse("three")}
}

// compactScript prompts s three times: 1,400 characters (about 400
// tokens), which stays below the threshold, 1,400 more, after which the
// session compacts, and a short one.
func compactScript(t *testing.T, s *durable.Session) {
	ctx := testCtx(t)
	require.NoError(t, s.SetModel(ctx, smallWindow()))
	require.NoError(t, s.Prompt(ctx, strings.Repeat("a", 1400)))
	require.NoError(t, s.Prompt(ctx, strings.Repeat("b", 1400)))
	require.NoError(t, s.Prompt(ctx, "three?"))
}

// TestCompactionBetweenRuns runs a session on a small window: after its
// second run the transcript is past the threshold and is compacted, the
// summary written by a model activity, and the third run's request
// starts with the summary after the system message. The history replays.
func TestCompactionBetweenRuns(t *testing.T) {
	ctx := testCtx(t)
	fake := agentcoretest.New(compactResponses()...)
	o := durableOptions(scenarios[0].agentOptions(), fake.Stream)
	o.Compaction = &compactSettings
	sessions := durable.New(o)
	queue := taskQueue(t)
	startWorker(t, queue, sessions)
	cl := newClient(t, queue, sessions)
	s, err := cl.Start(ctx, queue)
	require.NoError(t, err)
	compactScript(t, s)

	calls := fake.Calls()
	require.Len(t, calls, 4)
	summaryCall := calls[2]
	assert.Equal(t, compaction.SummaryMaxTokens(8000, 0, compactSettings), summaryCall.Options.MaxTokens)
	assert.Contains(t, summaryCall.Request.Messages[len(summaryCall.Request.Messages)-1].(*agentcore.UserMessage).Text(), strings.Repeat("a", 100))
	third := calls[3].Request.Messages
	require.GreaterOrEqual(t, len(third), 3)
	assert.Equal(t, "system", third[0].Role())
	first := third[1].(*agentcore.UserMessage).Text()
	assert.Contains(t, first, "<summary>")
	assert.Contains(t, first, compactText)

	st, err := s.State(ctx)
	require.NoError(t, err)
	roles := make([]string, len(st.Messages))
	for i, m := range st.Messages {
		roles[i] = m.Role()
	}
	assert.Equal(t, []string{"system", compaction.Role, "user", "assistant", "user", "assistant"}, roles)
	sum, ok := compaction.AsSummary(st.Messages[1])
	require.True(t, ok)
	assert.Contains(t, sum.Summary, compactText)
	assert.Equal(t, strings.Repeat("b", 1400), st.Messages[2].(*agentcore.UserMessage).Text())

	h, err := cl.History(ctx, queue)
	require.NoError(t, err)
	models := 0
	for _, ev := range h.GetEvents() {
		if ev.GetEventType() == enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED &&
			ev.GetActivityTaskScheduledEventAttributes().GetActivityType().GetName() == sessions.Name()+".model" {
			models++
		}
	}
	assert.Equal(t, 4, models, "three runs' requests and the summary")

	r := worker.NewWorkflowReplayer()
	durable.New(o).RegisterWorkflow(r)
	require.NoError(t, r.ReplayWorkflowHistory(quietLogger{}, h))
}
