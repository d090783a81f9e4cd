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
	"go.temporal.io/sdk/workflow"
)

// blockingSession runs a tool that waits for release (or its ctx).
func blockingSession(t *testing.T) (*durable.Session, chan struct{}, chan struct{}) {
	started, release := make(chan struct{}, 8), make(chan struct{})
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release)
		}
	})
	tool := echoTool(agentcore.ReplayNever, func(ctx context.Context, text string) (string, error) {
		started <- struct{}{}
		select {
		case <-release:
			return text, nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	})
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(echoCall("c1", "a")), agentcoretest.TextResponse("done"), agentcoretest.TextResponse("next"))
	o := durable.Options{SystemPrompt: "sys", Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{tool}}
	o.ToolActivity = workflow.ActivityOptions{StartToCloseTimeout: time.Minute, HeartbeatTimeout: 3 * time.Second}
	s := startSession(t, o)
	return s, started, release
}

func TestBusyAndReset(t *testing.T) {
	ctx := testCtx(t)
	s, started, release := blockingSession(t)
	seq, err := s.Start(ctx, agentcore.UserText("go"))
	require.NoError(t, err)
	<-started
	_, err = s.Start(ctx, agentcore.UserText("again"))
	require.ErrorIs(t, err, agentcore.ErrBusy)
	require.ErrorIs(t, s.Reset(ctx), agentcore.ErrBusy)
	_, err = s.StartContinue(ctx)
	require.ErrorIs(t, err, agentcore.ErrBusy)
	_, err = s.Start(ctx)
	require.ErrorContains(t, err, "prompt without messages")
	require.NotErrorIs(t, err, agentcore.ErrBusy)
	st, err := s.State(ctx)
	require.NoError(t, err)
	assert.True(t, st.Running)

	close(release)
	require.NoError(t, s.Wait(ctx, seq))
	st, err = s.State(ctx)
	require.NoError(t, err)
	assert.False(t, st.Running)
	assert.Len(t, st.Messages, 5) // system, user, call, result, answer
	assert.Equal(t, 1, st.Runs, "the refusals started no run")

	require.NoError(t, s.Reset(ctx))
	st, err = s.State(ctx)
	require.NoError(t, err)
	require.Len(t, st.Messages, 1)
	assert.Equal(t, "system", st.Messages[0].Role())
}

func TestAbortWhileToolRuns(t *testing.T) {
	ctx := testCtx(t)
	s, started, _ := blockingSession(t)
	require.NoError(t, s.FollowUp(ctx, agentcore.UserText("kept")))
	seq, err := s.Start(ctx, agentcore.UserText("go"))
	require.NoError(t, err)
	<-started
	require.NoError(t, s.Abort(ctx))
	err = s.Wait(ctx, seq)
	var runErr *agentcore.RunError
	require.ErrorAs(t, err, &runErr)
	assert.ErrorIs(t, err, context.Canceled)

	st, err := s.State(ctx)
	require.NoError(t, err)
	assertOneResultPerCall(t, st.Messages)
	results := toolResults(st.Messages)
	// The blocking tool returns its ctx's error: the call is recorded
	// with it, as by the Agent (see the package doc's Aborts).
	assert.Equal(t, context.Canceled.Error(), results["c1"].Text())
	last := st.Messages[len(st.Messages)-1].(*agentcore.AssistantMessage)
	assert.Equal(t, agentcore.StopAborted, last.StopReason)
	assert.Len(t, st.FollowUp, 1, "an abort keeps the queues")
}

func TestMessagesCursor(t *testing.T) {
	ctx := testCtx(t)
	s, started, release := blockingSession(t)
	seq, err := s.Start(ctx, agentcore.UserText("go"))
	require.NoError(t, err)
	<-started
	var got []agentcore.Message
	msgs, next, _, err := s.Messages(ctx, 0)
	require.NoError(t, err)
	got = append(got, msgs...)
	close(release)
	for {
		msgs, n, reset, err := s.Messages(ctx, next)
		require.NoError(t, err)
		require.False(t, reset)
		got = append(got, msgs...)
		if n == next {
			break
		}
		next = n
	}
	require.NoError(t, s.Wait(ctx, seq))
	st, err := s.State(ctx)
	require.NoError(t, err)
	assert.Equal(t, normalize(t, st.Messages), normalize(t, got), "every message once, in order")
}

// TestContinueAsNew runs runs until the session continued as new, and
// checks that the transcript and the queues were carried over.
func TestContinueAsNew(t *testing.T) {
	ctx := testCtx(t)
	fake := agentcoretest.NewFunc(func(_ context.Context, c agentcoretest.Call) agentcoretest.Response {
		if c.Index%2 == 1 {
			return agentcoretest.ToolCallResponse(echoCall("c1", "x"))
		}
		return agentcoretest.TextResponse("ok")
	})
	o := durable.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{echoTool(agentcore.ReplayNever, nil)}, MaxHistoryLength: 60}
	s := startSession(t, o)
	var before durable.State
	runs := 0
	for ; runs < 10; runs++ {
		require.NoError(t, s.Prompt(ctx, "go"))
		st, err := s.State(ctx)
		require.NoError(t, err)
		if st.Continued > 0 {
			break
		}
		before = st
	}
	require.Less(t, runs, 10, "the session never continued as new")
	require.NoError(t, s.FollowUp(ctx, agentcore.UserText("queued")))
	require.NoError(t, s.Prompt(ctx, "after"))
	st, err := s.State(ctx)
	require.NoError(t, err)
	require.Greater(t, len(st.Messages), len(before.Messages))
	assert.Equal(t, normalize(t, before.Messages), normalize(t, st.Messages[:len(before.Messages)]))
	assert.Equal(t, runs+2, st.Runs)
	assert.Empty(t, st.FollowUp, "the follow-up was taken by the run after continue-as-new")
}

// TestContinueAsNewMidRun continues as new between the steps of one long
// run: the run goes on in the new execution and ends with the transcript a
// plain Agent gives.
func TestContinueAsNewMidRun(t *testing.T) {
	ctx := testCtx(t)
	var responses []agentcoretest.Response
	for i := range 8 {
		responses = append(responses, agentcoretest.ToolCallResponse(echoCall("c1", string(rune('a'+i)))))
	}
	responses = append(responses, agentcoretest.TextResponse("done"))
	sc := scenario{name: "long run", responses: responses}
	want, err := runAgent(t, sc)
	require.NoError(t, err)

	o := durableOptions(sc.agentOptions(), agentcoretest.New(responses...).Stream)
	o.MaxHistoryLength = 40
	s := startSession(t, o)
	require.NoError(t, s.Prompt(ctx, "go"))
	st, err := s.State(ctx)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, st.Continued, 2)
	assert.Equal(t, normalize(t, want), normalize(t, st.Messages))
	assertOneResultPerCall(t, st.Messages)
}

func TestAbortWhileModelStreams(t *testing.T) {
	ctx := testCtx(t)
	streaming := make(chan struct{})
	fake := agentcoretest.New(agentcoretest.Response{
		Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "partial"}}, Hang: true,
		OnStart: func(context.Context) { close(streaming) },
	})
	o := durable.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream}
	o.ModelActivity = workflow.ActivityOptions{StartToCloseTimeout: time.Minute, HeartbeatTimeout: 3 * time.Second}
	s := startSession(t, o)
	seq, err := s.Start(ctx, agentcore.UserText("go"))
	require.NoError(t, err)
	<-streaming
	require.NoError(t, s.Abort(ctx))
	require.ErrorIs(t, s.Wait(ctx, seq), context.Canceled)
	st, err := s.State(ctx)
	require.NoError(t, err)
	require.Len(t, st.Messages, 2)
	last := st.Messages[1].(*agentcore.AssistantMessage)
	assert.Equal(t, agentcore.StopAborted, last.StopReason)
	assert.Equal(t, "Request was aborted", last.ErrorMessage)
	assert.Equal(t, "Request was aborted", st.ErrorMessage)

	// The session takes the next prompt.
	fake.Append(agentcoretest.TextResponse("again"))
	require.NoError(t, s.Prompt(ctx, "go on"))
}
