package temporal_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	durable "github.com/pi-go/agentcore/durable/temporal"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/worker"
	"google.golang.org/protobuf/encoding/protojson"
)

var update = flag.Bool("update", false, "record the replayer test's histories again")

// historySessions is the session type of the recorded histories: a change
// to the workflow that makes it decide differently on these histories
// fails TestReplayRecordedHistories.
func historySessions(fake *agentcoretest.Fake) *durable.Sessions {
	o := scenarios[6].agentOptions() // steering and follow-up: tools, polls of both queues
	if fake == nil {
		fake = agentcoretest.New()
	}
	return durable.New(durableOptions(o, fake.Stream))
}

// TestRecordHistory records, when run with -update, the histories of a
// session that steers, follows up, prompts twice and resets, and of one
// aborted while the model streams that then runs again.
func TestRecordHistory(t *testing.T) {
	if !*update {
		t.Skip("run with -update to record testdata/history-*.json")
	}
	ctx := testCtx(t)
	sc := scenarios[6]
	fake := agentcoretest.New(append(sc.responses, agentcoretest.TextResponse("second run"))...)
	sessions := historySessions(fake)
	queue := taskQueue(t)
	startWorker(t, queue, sessions)
	cl := newClient(t, queue, sessions)
	s, err := cl.Start(ctx, "history-steering")
	require.NoError(t, err)
	for _, m := range sc.steer {
		require.NoError(t, s.Steer(ctx, agentcore.UserText(m)))
	}
	for _, m := range sc.followUp {
		require.NoError(t, s.FollowUp(ctx, agentcore.UserText(m)))
	}
	require.NoError(t, s.Prompt(ctx, "go"))
	require.NoError(t, s.Prompt(ctx, "again"))
	require.NoError(t, s.Reset(ctx))
	writeHistory(t, cl, "history-steering")

	// An abort while the model streams, then a run that succeeds.
	streaming := make(chan struct{})
	fake = agentcoretest.New(agentcoretest.Response{
		Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "partial"}}, Hang: true,
		OnStart: func(context.Context) { close(streaming) },
	}, agentcoretest.TextResponse("after the abort"))
	sessions = historySessions(fake)
	queue = taskQueue(t)
	startWorker(t, queue, sessions)
	cl = newClient(t, queue, sessions)
	s, err = cl.Start(ctx, "history-abort")
	require.NoError(t, err)
	seq, err := s.Start(ctx, agentcore.UserText("go"))
	require.NoError(t, err)
	select {
	case <-streaming:
	case <-ctx.Done():
		t.Fatal("the request never started")
	}
	require.NoError(t, s.Abort(ctx))
	require.ErrorIs(t, s.Wait(ctx, seq), context.Canceled)
	require.NoError(t, s.Prompt(ctx, "again"))
	writeHistory(t, cl, "history-abort")
}

// writeHistory saves the workflow's history as JSON, in the CLI's format.
func writeHistory(t *testing.T, cl *durable.Client, id string) {
	ctx := testCtx(t)
	h, err := cl.History(ctx, id)
	require.NoError(t, err)
	data, err := protojson.MarshalOptions{Indent: "  "}.Marshal(h)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join("testdata", id+".json"), data, 0o644))
}

// TestReplayRecordedHistories replays every recorded history with the
// current workflow code.
func TestReplayRecordedHistories(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "history-*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			r := worker.NewWorkflowReplayer()
			historySessions(nil).RegisterWorkflow(r)
			require.NoError(t, r.ReplayWorkflowHistoryFromJSONFile(quietLogger{}, file))
		})
	}
}
