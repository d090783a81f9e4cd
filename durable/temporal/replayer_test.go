package temporal_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/compaction"
	durable "github.com/pi-go/agentcore/durable/temporal"
	"github.com/pi-go/agentcore/hold"
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
	do := durableOptions(o, fake.Stream)
	do.Tools[0] = abortableEcho() // the same declaration
	// A second tool, inactive until a session selects it: the histories
	// recorded with echo alone replay unchanged.
	do.Tools = append(do.Tools, shoutTool())
	do.ActiveTools = []string{"echo"}
	// A hook that fails only the turns of a prompt the other histories
	// lack.
	do.PrepareNextTurn = failCompaction
	// Compaction, which only a session on a model with a known window
	// does: the other histories replay unchanged.
	do.Compaction = &compactSettings
	// Held calls, of echo calls whose text starts with heldPrefix, which
	// the other histories lack.
	do.Hold = &hold.Options{Policy: hold.When("echo", func(a struct {
		Text string `json:"text"`
	}) *hold.Request {
		if !strings.HasPrefix(a.Text, heldPrefix) {
			return nil
		}
		return &hold.Request{Title: "Echo?"}
	})}
	return durable.New(do)
}

// heldPrefix starts the text of the echo calls historySessions holds.
const heldPrefix = "held "

// abortMe is the text of an echo call that waits for its ctx.
const abortMe = "wait for the abort"

// abortable receives a value when an echo call of abortMe starts.
var abortable = make(chan struct{}, 1)

// waitMe is the text of an echo call that waits for a value on released
// (or its ctx), after sending one on waiting.
const waitMe = "wait for the release"

var waiting, released = make(chan struct{}, 1), make(chan struct{}, 1)

// abortableEcho is the echo tool, whose calls of abortMe wait for an
// abort, and those of waitMe for released.
func abortableEcho() agentcore.Tool {
	return echoTool(agentcore.ReplayNever, func(ctx context.Context, text string) (string, error) {
		if text == waitMe {
			waiting <- struct{}{}
			select {
			case <-released:
				return text, nil
			case <-ctx.Done():
				return "", ctx.Err()
			}
		}
		if text != abortMe {
			return text, nil
		}
		select {
		case abortable <- struct{}{}:
		default:
		}
		<-ctx.Done()
		return "", ctx.Err()
	})
}

// TestRecordHistory records, when run with -update, the histories of a
// session that steers, follows up, prompts twice and resets; of one
// aborted while the model streams that then runs again; of one whose
// request fails with a provider error; of one that continues; and of one
// whose settings, transcript and queues are edited, idle and during a
// run; of one whose failed run puts back the follow-up it took; and of one
// aborted while its tool runs, recorded with the pin-run-settings and
// wait-for-cancellation versions; of one that compacts between runs; of
// one that holds two calls, decided apart and continued; and of one whose
// held call is decided while its run goes on. Each
// is a subtest: record one alone with -run, so that the others
// keep the format of the version that recorded them (the replayer must
// go on reading old histories).
func TestRecordHistory(t *testing.T) {
	if !*update {
		t.Skip("run with -update to record testdata/history-*.json")
	}
	t.Run("steering", func(t *testing.T) {
		ctx := testCtx(t)
		sc := scenarios[6]
		fake := agentcoretest.New(append(sc.responses, agentcoretest.TextResponse("second run"))...)
		cl, s := recordedSession(t, fake, "history-steering")
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
	})
	t.Run("abort", func(t *testing.T) {
		// An abort while the model streams, then a run that succeeds.
		ctx := testCtx(t)
		streaming := make(chan struct{})
		fake := agentcoretest.New(agentcoretest.Response{
			Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "partial"}}, Hang: true,
			OnStart: func(context.Context) { close(streaming) },
		}, agentcoretest.TextResponse("after the abort"))
		cl, s := recordedSession(t, fake, "history-abort")
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
	})
	t.Run("provider-error", func(t *testing.T) {
		// A request failing with a provider error, then a run that
		// succeeds: the model activity's result carries the error.
		ctx := testCtx(t)
		fake := agentcoretest.New(agentcoretest.Response{StopReason: agentcore.StopError, Err: rateLimited()},
			agentcoretest.TextResponse("after the failure"))
		cl, s := recordedSession(t, fake, "history-provider-error")
		var pe *agentcore.ProviderError
		require.ErrorAs(t, s.Prompt(ctx, "go"), &pe)
		require.NoError(t, s.Prompt(ctx, "again"))
		writeHistory(t, cl, "history-provider-error")
	})
	t.Run("continue", func(t *testing.T) {
		// A prompt, a continue taking a follow-up, and a refused continue.
		ctx := testCtx(t)
		fake := agentcoretest.New(agentcoretest.TextResponse("first"), agentcoretest.TextResponse("after the follow-up"))
		cl, s := recordedSession(t, fake, "history-continue")
		require.NoError(t, s.Prompt(ctx, "go"))
		require.NoError(t, s.FollowUp(ctx, agentcore.UserText("more")))
		require.NoError(t, s.Continue(ctx))
		require.ErrorIs(t, s.Continue(ctx), agentcore.ErrContinueFromAssistant)
		writeHistory(t, cl, "history-continue")
	})
	t.Run("edits", func(t *testing.T) {
		// Every setting changed before a run that steers in QueueModeAll
		// mode; the transcript replaced and the tools deselected while
		// a request streams; queues cleared, an idle abort, a continue.
		ctx := testCtx(t)
		streaming, release := make(chan struct{}), make(chan struct{})
		fake := agentcoretest.New(
			agentcoretest.ToolCallResponse(echoCall("c1", "a")),
			agentcoretest.TextResponse("after steering"),
			agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "mid-run"}}, OnStart: func(context.Context) {
				close(streaming)
				<-release
			}},
			agentcoretest.TextResponse("after the continue"))
		cl, s := recordedSession(t, fake, "history-edits")
		second := agentcoretest.Model()
		second.ID = "second"
		require.NoError(t, s.SetModel(ctx, second))
		require.NoError(t, s.SetThinkingLevel(ctx, agentcore.ThinkingHigh))
		require.NoError(t, s.SetToolExecution(ctx, agentcore.ToolsSequential))
		require.NoError(t, s.SetTools(ctx, "shout", "echo"))
		require.NoError(t, s.SetSteeringMode(ctx, agentcore.QueueModeAll))
		require.NoError(t, s.SetFollowUpMode(ctx, agentcore.QueueModeAll))
		require.NoError(t, s.Steer(ctx, agentcore.UserText("steer 1")))
		require.NoError(t, s.Steer(ctx, agentcore.UserText("steer 2")))
		require.NoError(t, s.Prompt(ctx, "go"))

		seq, err := s.Start(ctx, agentcore.UserText("again"))
		require.NoError(t, err)
		select {
		case <-streaming:
		case <-ctx.Done():
			t.Fatal("the request never started")
		}
		require.NoError(t, s.SetMessages(ctx, []agentcore.Message{agentcore.UserText("replaced")}))
		require.NoError(t, s.SetTools(ctx))
		require.NoError(t, s.AppendMessage(ctx, agentcore.UserText("appended")))
		close(release)
		require.NoError(t, s.Wait(ctx, seq))

		require.NoError(t, s.FollowUp(ctx, agentcore.UserText("dropped")))
		require.NoError(t, s.ClearQueue(ctx, agentcore.AllQueues))
		require.NoError(t, s.Abort(ctx))
		require.NoError(t, s.AppendMessage(ctx, agentcore.UserText("more")))
		require.NoError(t, s.Continue(ctx))
		st, err := s.State(ctx)
		require.NoError(t, err)
		require.Equal(t, "replaced", st.Messages[0].(*agentcore.UserMessage).Text())
		require.Equal(t, "after the continue", st.Messages[len(st.Messages)-1].(*agentcore.AssistantMessage).Text())
		writeHistory(t, cl, "history-edits")
	})
	t.Run("abort-tool", func(t *testing.T) {
		// A run aborted while its tool runs, which the run waits for, and
		// a large prompt refused: recorded with pinned run settings.
		ctx := testCtx(t)
		fake := agentcoretest.New(agentcoretest.ToolCallResponse(echoCall("c1", abortMe)), agentcoretest.TextResponse("after the abort"))
		cl, s := recordedSession(t, fake, "history-abort-tool")
		seq, err := s.Start(ctx, agentcore.UserText("go"))
		require.NoError(t, err)
		select {
		case <-abortable:
		case <-ctx.Done():
			t.Fatal("the call never started")
		}
		require.NoError(t, s.Abort(ctx))
		require.ErrorIs(t, s.Wait(ctx, seq), context.Canceled)
		require.NoError(t, s.Prompt(ctx, "again"))
		writeHistory(t, cl, "history-abort-tool")
	})
	t.Run("requeue", func(t *testing.T) {
		// A run that fails in PrepareNextTurn after taking a follow-up
		// puts it back; the next run delivers it.
		ctx := testCtx(t)
		fake := agentcoretest.New(agentcoretest.TextResponse("first"), agentcoretest.TextResponse("after the retry"),
			agentcoretest.TextResponse("after the follow-up"))
		cl, s := recordedSession(t, fake, "history-requeue")
		require.NoError(t, s.FollowUp(ctx, agentcore.UserText("later")))
		require.ErrorContains(t, s.Prompt(ctx, failPrompt), errCompaction.Error())
		st, err := s.State(ctx)
		require.NoError(t, err)
		require.Len(t, st.FollowUp, 1)
		require.NoError(t, s.Prompt(ctx, "retry"))
		st, err = s.State(ctx)
		require.NoError(t, err)
		require.Empty(t, st.FollowUp)
		require.Equal(t, "after the follow-up", st.Messages[len(st.Messages)-1].(*agentcore.AssistantMessage).Text())
		writeHistory(t, cl, "history-requeue")
	})
	t.Run("compaction", func(t *testing.T) {
		// A session on a small window compacts between its second and
		// third runs.
		cl, s := recordedSession(t, agentcoretest.New(compactResponses()...), "history-compaction")
		compactScript(t, s)
		st, err := s.State(testCtx(t))
		require.NoError(t, err)
		require.Equal(t, compaction.Role, st.Messages[1].Role())
		writeHistory(t, cl, "history-compaction")
	})
	t.Run("hold", func(t *testing.T) {
		// Two calls held, decided by two requests (one approved, one
		// denied), then continued: the approved call runs and the model
		// answers.
		ctx := testCtx(t)
		fake := agentcoretest.New(agentcoretest.ToolCallResponse(echoCall("c1", heldPrefix+"a"), echoCall("c2", heldPrefix+"b")),
			agentcoretest.TextResponse("after the decisions"))
		cl, s := recordedSession(t, fake, "history-hold")
		var held *hold.HeldError
		require.ErrorAs(t, s.Prompt(ctx, "go"), &held)
		require.Len(t, held.Calls, 2)
		require.NoError(t, s.Decide(ctx, hold.Approve{ID: "c1"}))
		require.ErrorIs(t, s.Continue(ctx), hold.ErrHeld)
		require.NoError(t, s.Decide(ctx, hold.Deny{ID: "c2", Reason: "not b"}))
		require.NoError(t, s.Continue(ctx))
		st, err := s.State(ctx)
		require.NoError(t, err)
		require.Equal(t, "after the decisions", st.Messages[len(st.Messages)-1].(*agentcore.AssistantMessage).Text())
		writeHistory(t, cl, "history-hold")
	})
	t.Run("hold-during-run", func(t *testing.T) {
		// A call held while another call of its batch runs, decided
		// during the run (approved), and a stray decision refused at the
		// run's end: the run goes on and the model answers.
		ctx := testCtx(t)
		fake := agentcoretest.New(agentcoretest.ToolCallResponse(echoCall("c1", heldPrefix+"a"), echoCall("c2", waitMe)),
			agentcoretest.TextResponse("after the decision"))
		cl, s := recordedSession(t, fake, "history-hold-during-run")
		seq, err := s.Start(ctx, agentcore.UserText("go"))
		require.NoError(t, err)
		select {
		case <-waiting:
		case <-ctx.Done():
			t.Fatal("the call never started")
		}
		approve := durable.Control{Key: "approve", Kind: durable.ControlDecide, Decisions: durable.Decisions{hold.Approve{ID: "c1"}}}
		stray := durable.Control{Key: "stray", Kind: durable.ControlDecide, Decisions: durable.Decisions{hold.Deny{ID: "c9"}}}
		sendDuringRun(ctx, t, s, approve, stray)
		released <- struct{}{}
		require.NoError(t, s.Wait(ctx, seq))
		require.NoError(t, s.Send(ctx, approve))
		require.ErrorIs(t, s.Send(ctx, stray), hold.ErrNotHeld)
		st, err := s.State(ctx)
		require.NoError(t, err)
		require.Equal(t, "after the decision", st.Messages[len(st.Messages)-1].(*agentcore.AssistantMessage).Text())
		writeHistory(t, cl, "history-hold-during-run")
	})
}

// recordedSession starts a worker of historySessions on fake and the
// session id.
func recordedSession(t *testing.T, fake *agentcoretest.Fake, id string) (*durable.Client, *durable.Session) {
	sessions := historySessions(fake)
	queue := taskQueue(t)
	startWorker(t, queue, sessions)
	cl := newClient(t, queue, sessions)
	s, err := cl.Start(testCtx(t), id)
	require.NoError(t, err)
	return cl, s
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
