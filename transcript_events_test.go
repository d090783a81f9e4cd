package agentcore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// mirror rebuilds an Agent's transcript from its events alone, as a
// recorder does, and checks that its listener is never called
// concurrently.
type mirror struct {
	t        *testing.T
	busy     atomic.Int32
	mu       sync.Mutex
	messages []agentcore.Message
	types    []string
}

func newMirror(t *testing.T, a *agentcore.Agent) *mirror {
	m := &mirror{t: t, messages: a.Messages()}
	a.Subscribe(m.listen)
	return m
}

func (m *mirror) listen(_ context.Context, ev agentcore.AgentEvent) {
	if m.busy.Add(1) != 1 {
		m.t.Error("listeners called concurrently")
	}
	defer m.busy.Add(-1)
	m.mu.Lock()
	defer m.mu.Unlock()
	switch ev := ev.(type) {
	case *agentcore.MessageEndEvent:
		m.messages = append(m.messages, ev.Message)
	case *agentcore.MessageReplaceEvent:
		if assert.Less(m.t, ev.Index, len(m.messages)) {
			assert.Same(m.t, ev.Old, m.messages[ev.Index], "Old is the message at Index")
			m.messages = slices.Clone(m.messages)
			m.messages[ev.Index] = ev.Message
		}
	case *agentcore.TranscriptSetEvent:
		m.messages = ev.Messages
	case *agentcore.MessageUpdateEvent:
		return
	}
	m.types = append(m.types, ev.Type())
}

func (m *mirror) snapshot() ([]agentcore.Message, []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.messages), slices.Clone(m.types)
}

func user(text string) *agentcore.UserMessage {
	return &agentcore.UserMessage{Content: agentcore.Text(text)}
}

// TestTranscriptChangeEvents checks the event each method that changes the
// transcript emits outside a run, and that the events rebuild the
// transcript.
func TestTranscriptChangeEvents(t *testing.T) {
	first, second := user("one"), user("two")
	tests := []struct {
		name   string
		change func(a *agentcore.Agent) error
		want   []string
		after  []agentcore.Message
	}{
		{"AppendMessage", func(a *agentcore.Agent) error { a.AppendMessage(second); return nil },
			[]string{"message_start", "message_end"}, []agentcore.Message{first, second}},
		{"AppendMessage nil", func(a *agentcore.Agent) error { a.AppendMessage(nil); return nil },
			nil, []agentcore.Message{first}},
		{"SetMessages", func(a *agentcore.Agent) error { a.SetMessages([]agentcore.Message{second, nil}); return nil },
			[]string{"transcript_set"}, []agentcore.Message{second}},
		{"SetMessages empty", func(a *agentcore.Agent) error { a.SetMessages(nil); return nil },
			[]string{"transcript_set"}, nil},
		{"Reset", func(a *agentcore.Agent) error { return a.Reset() },
			[]string{"transcript_set"}, nil},
		{"ReplaceMessage", func(a *agentcore.Agent) error { return a.ReplaceMessage(first, second) },
			[]string{"message_replace"}, []agentcore.Message{second}},
		{"ReplaceMessage by itself", func(a *agentcore.Agent) error { return a.ReplaceMessage(first, first) },
			nil, []agentcore.Message{first}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := agentcore.New(agentcore.Options{Messages: []agentcore.Message{first}})
			m := newMirror(t, a)
			require.NoError(t, tt.change(a))
			got, types := m.snapshot()
			assert.Equal(t, tt.want, types)
			assert.Equal(t, tt.after, a.Messages())
			assert.Equal(t, a.Messages(), got, "the events rebuild the transcript")
		})
	}
}

func TestReplaceMessageRefusals(t *testing.T) {
	first := user("one")
	a := agentcore.New(agentcore.Options{Messages: []agentcore.Message{first}})
	m := newMirror(t, a)
	assert.ErrorIs(t, a.ReplaceMessage(user("one"), user("x")), agentcore.ErrMessageNotFound, "found by identity, not content")
	assert.ErrorIs(t, a.ReplaceMessage(nil, user("x")), agentcore.ErrMessageNotFound)
	assert.ErrorIs(t, a.ReplaceMessage(first, nil), agentcore.ErrNilMessage)
	assert.ErrorIs(t, a.ReplaceMessage(first, (*agentcore.UserMessage)(nil)), agentcore.ErrNilMessage)
	_, types := m.snapshot()
	assert.Empty(t, types)
	assert.Equal(t, []agentcore.Message{first}, a.Messages())
}

// uncomparable is an app-defined message whose type == cannot compare.
type uncomparable struct{ Parts []string }

func (uncomparable) Role() string { return "parts" }

func TestReplaceMessageUncomparable(t *testing.T) {
	a := agentcore.New(agentcore.Options{Messages: []agentcore.Message{uncomparable{Parts: []string{"a"}}}})
	assert.ErrorIs(t, a.ReplaceMessage(uncomparable{Parts: []string{"a"}}, user("x")), agentcore.ErrMessageNotFound)
}

// TestReplaceMessageKeepsEventsImmutable checks that a replacement does not
// change the transcript an earlier event carried.
func TestReplaceMessageKeepsEventsImmutable(t *testing.T) {
	first := user("one")
	a := agentcore.New(agentcore.Options{})
	var set *agentcore.TranscriptSetEvent
	a.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		if ev, ok := ev.(*agentcore.TranscriptSetEvent); ok {
			set = ev
		}
	})
	a.SetMessages([]agentcore.Message{first})
	require.NoError(t, a.ReplaceMessage(first, user("two")))
	assert.Same(t, first, set.Messages[0])
}

// TestTranscriptEventsDuringRun checks that changes made during a run (by a
// listener, on the run's goroutine) are delivered before the run's next
// event, in the order the transcript changed, and that the events rebuild
// the transcript.
func TestTranscriptEventsDuringRun(t *testing.T) {
	a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: agentcoretest.New(agentcoretest.TextResponse("hi")).Stream})
	note, replaced := user("note"), user("replaced")
	a.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		switch ev := ev.(type) {
		case *agentcore.TurnStartEvent:
			a.AppendMessage(note)
			a.SetMessages(append(a.Messages(), user("set")))
		case *agentcore.MessageEndEvent:
			if ev.Message.Role() == "user" && ev.Message != agentcore.Message(note) {
				require.NoError(t, a.ReplaceMessage(note, replaced))
			}
		}
	})
	m := newMirror(t, a)
	require.NoError(t, a.Prompt(context.Background(), "go"))
	got, types := m.snapshot()
	assert.Equal(t, []string{
		"agent_start", "turn_start",
		"message_start", "message_end", "transcript_set", // the listener's changes
		"message_start", "message_end", // the prompt
		"message_replace",
		"message_start", "message_end", "turn_end", "agent_end",
	}, types)
	assert.Equal(t, a.Messages(), got)
	assert.Same(t, replaced, got[0])
}

// TestTranscriptEventsReentrant checks that a listener may change the
// transcript from inside a listener outside a run: the change is delivered
// after the event being delivered, to every listener, without deadlock.
func TestTranscriptEventsReentrant(t *testing.T) {
	a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: agentcoretest.New(agentcoretest.TextResponse("hi")).Stream})
	var busy error
	a.Subscribe(func(ctx context.Context, ev agentcore.AgentEvent) {
		if end, ok := ev.(*agentcore.MessageEndEvent); ok && end.Message.Role() == "custom" {
			a.SetMessages(nil)
			busy = a.Prompt(ctx, "refused")
		}
	})
	m := newMirror(t, a)
	a.AppendMessage(custom{})
	_, types := m.snapshot()
	assert.Equal(t, []string{"message_start", "message_end", "transcript_set"}, types)
	assert.ErrorIs(t, busy, agentcore.ErrBusy, "a listener outside a run cannot start one")
	assert.Empty(t, a.Messages())
	require.NoError(t, a.Prompt(context.Background(), "after"))
}

type custom struct{}

func (custom) Role() string { return "custom" }

// TestTranscriptEventsListenerPanic checks that a listener's panic on a
// change outside a run is ignored: the other listeners get the event.
func TestTranscriptEventsListenerPanic(t *testing.T) {
	a := agentcore.New(agentcore.Options{})
	a.Subscribe(func(context.Context, agentcore.AgentEvent) { panic("boom") })
	m := newMirror(t, a)
	assert.NotPanics(t, func() { a.AppendMessage(user("x")) })
	_, types := m.snapshot()
	assert.Equal(t, []string{"message_start", "message_end"}, types)
}

// TestTranscriptEventsOutsideRunContext checks the ctx listeners get for a
// change outside a run, and that the change is delivered before the
// method returns.
func TestTranscriptEventsOutsideRunContext(t *testing.T) {
	a := agentcore.New(agentcore.Options{})
	var got context.Context
	a.Subscribe(func(ctx context.Context, _ agentcore.AgentEvent) { got = ctx })
	a.SetMessages(nil)
	assert.Equal(t, context.Background(), got)
}

// TestTranscriptEventsConcurrent changes the transcript from many
// goroutines while runs go on: the listeners are never called
// concurrently and the events rebuild the transcript.
func TestTranscriptEventsConcurrent(t *testing.T) {
	fake := agentcoretest.NewFunc(func(context.Context, agentcoretest.Call) agentcoretest.Response {
		return agentcoretest.TextResponse("ok")
	})
	a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream})
	m := newMirror(t, a)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 30 {
				msg := user(fmt.Sprintf("%d-%d", g, i))
				a.AppendMessage(msg)
				switch i % 10 {
				case 3:
					_ = a.ReplaceMessage(msg, user("r"))
				case 7:
					a.SetMessages(a.Messages()[:1])
				}
			}
		})
	}
	wg.Go(func() {
		for range 10 {
			if err := a.Prompt(context.Background(), "p"); err != nil && !errors.Is(err, agentcore.ErrBusy) {
				t.Error(err)
			}
		}
	})
	wg.Wait()
	require.NoError(t, a.WaitForIdle(context.Background()))
	got, _ := m.snapshot()
	assert.Equal(t, a.Messages(), got)
}

// TestTranscriptEventsJSON checks the wire form of the new events against
// golden files.
func TestTranscriptEventsJSON(t *testing.T) {
	old := &agentcore.ToolResultMessage{ToolCallID: "call_1", ToolName: "bash", Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "held"}}, IsError: true, Timestamp: 1}
	real := &agentcore.ToolResultMessage{ToolCallID: "call_1", ToolName: "bash", Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "ran"}}, Timestamp: 2}
	tests := []struct {
		name string
		ev   agentcore.AgentEvent
	}{
		{"message_replace", &agentcore.MessageReplaceEvent{Index: 2, Old: old, Message: real}},
		{"transcript_set", &agentcore.TranscriptSetEvent{Messages: []agentcore.Message{user("hi"), real}}},
		{"transcript_set_empty", &agentcore.TranscriptSetEvent{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.ev)
			require.NoError(t, err)
			want, err := os.ReadFile(filepath.Join("testdata", "events", tt.name+".json"))
			require.NoError(t, err)
			assert.JSONEq(t, string(want), string(got))
			var typed struct{ Type string }
			require.NoError(t, json.Unmarshal(got, &typed))
			assert.Equal(t, tt.ev.Type(), typed.Type)
		})
	}
}
