package temporal_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	durable "github.com/pi-go/agentcore/durable/temporal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLiveEvents subscribes to a session's live events and checks that a
// run's two requests streamed, in order, the events the committed
// messages were built from.
func TestLiveEvents(t *testing.T) {
	ctx := testCtx(t)
	live := durable.NewLive(0)
	text := agentcoretest.TextResponse("hello there, world")
	text.Chunks = 3
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(echoCall("c1", "a")), text)
	o := durableOptions(scenarios[0].agentOptions(), fake.Stream)
	o.OnStream = live.Publish
	s := startSession(t, o)

	sub := live.Subscribe(s.ID())
	other := live.Subscribe("another session")
	defer other.Close()
	require.NoError(t, s.Prompt(ctx, "go"))
	// Every event was published before its request's activity returned.
	sub.Close()
	sub.Close()
	var events []durable.StreamEvent
	for ev := range sub.Events(ctx) {
		events = append(events, ev)
	}
	assert.Zero(t, sub.Dropped())

	var types []string
	var streamed strings.Builder
	for _, ev := range events {
		assert.Equal(t, s.ID(), ev.SessionID)
		assert.Equal(t, 1, ev.Run)
		assert.Equal(t, 1, ev.Attempt)
		types = append(types, ev.Event.Type())
		if d, ok := ev.Event.(*agentcore.TextDeltaEvent); ok {
			assert.Equal(t, 1, ev.Request)
			streamed.WriteString(d.Delta)
			assert.Equal(t, streamed.String(), d.Partial.Text(), "the partial message so far")
		}
	}
	assert.Equal(t, []string{
		"start", "toolcall_start", "toolcall_delta", "toolcall_end", "done",
		"start", "text_start", "text_delta", "text_delta", "text_delta", "text_end", "done",
	}, types)
	assert.Equal(t, "hello there, world", streamed.String())

	// The final events carry the messages the transcript committed (the
	// loop then sets their thinking level).
	st, err := s.State(ctx)
	require.NoError(t, err)
	var streamedMsgs, committed []any
	for _, ev := range events {
		if d, ok := ev.Event.(*agentcore.DoneEvent); ok {
			streamedMsgs = append(streamedMsgs, d.Message.Content)
		}
	}
	for _, m := range st.Messages {
		if a, ok := m.(*agentcore.AssistantMessage); ok {
			committed = append(committed, a.Content)
		}
	}
	assert.Equal(t, committed, streamedMsgs)

	other.Close()
	assert.Empty(t, slices.Collect(other.Events(ctx)))
}

func TestLiveBuffer(t *testing.T) {
	live := durable.NewLive(2)
	sub := live.Subscribe("s")
	for i := range 5 {
		live.Publish(context.Background(), durable.StreamEvent{SessionID: "s", Request: i})
	}
	live.Publish(context.Background(), durable.StreamEvent{SessionID: "t"})
	assert.Equal(t, int64(3), sub.Dropped())

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var got []int
	for ev := range sub.Events(ctx) {
		got = append(got, ev.Request)
		if len(got) == 2 {
			cancel() // nothing more is buffered: Events ends with ctx
		}
	}
	assert.Equal(t, []int{0, 1}, got)

	sub.Close()
	live.Publish(context.Background(), durable.StreamEvent{SessionID: "s"})
	assert.Empty(t, slices.Collect(sub.Events(context.Background())))
	assert.Equal(t, int64(3), sub.Dropped())
}

// TestLiveSinkPanic checks that a panicking sink loses its events but not
// the run.
func TestLiveSinkPanic(t *testing.T) {
	ctx := testCtx(t)
	o := durableOptions(scenarios[0].agentOptions(), agentcoretest.New(agentcoretest.TextResponse("fine")).Stream)
	o.OnStream = func(context.Context, durable.StreamEvent) { panic("sink broke") }
	s := startSession(t, o)
	require.NoError(t, s.Prompt(ctx, "go"))
	st, err := s.State(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, st.Messages)
	assert.Equal(t, "fine", st.Messages[len(st.Messages)-1].(*agentcore.AssistantMessage).Text())
}
