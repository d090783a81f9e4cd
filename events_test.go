package agentcore_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

func textOf(m *agentcore.AssistantMessage) string {
	if len(m.Content) == 0 {
		return ""
	}
	return m.Content[0].(agentcore.TextBlock).Text
}

var fourChunks = agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "abcd"}}, Chunks: 4}

// eventPartial returns the Partial of a text event.
func eventPartial(ev agentcore.AssistantEvent) *agentcore.AssistantMessage {
	switch e := ev.(type) {
	case *agentcore.TextStartEvent:
		return e.Partial
	case *agentcore.TextDeltaEvent:
		return e.Partial
	case *agentcore.TextEndEvent:
		return e.Partial
	}
	return nil
}

// describe renders kept message_update events: their provider event's type
// and the text their message shows.
func describe(updates []*agentcore.MessageUpdateEvent) string {
	var parts []string
	for _, u := range updates {
		parts = append(parts, u.AssistantEvent.Type()+":"+textOf(u.Message))
	}
	return strings.Join(parts, ",")
}

const fourChunksUpdates = "text_start:,text_delta:a,text_delta:ab,text_delta:abc,text_delta:abcd,text_end:abcd"

// TestEventsImmutable checks that message_update events, whether an Agent's
// listener or a RunLoop reader gets them, stay as they were when they were
// delivered: a consumer may keep them and read them after the stream moved
// on, and the provider event's Partial is the event's own message.
func TestEventsImmutable(t *testing.T) {
	collectAgent := func(t *testing.T) []*agentcore.MessageUpdateEvent {
		a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: agentcoretest.New(fourChunks).Stream})
		var kept []*agentcore.MessageUpdateEvent
		var seen []*agentcore.MessageUpdateEvent
		a.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
			if u, ok := ev.(*agentcore.MessageUpdateEvent); ok {
				kept = append(kept, u)
				seen = append(seen, &agentcore.MessageUpdateEvent{Message: u.Message.Clone(), AssistantEvent: u.AssistantEvent})
			}
		})
		require.NoError(t, a.Prompt(context.Background(), "go"))
		require.Equal(t, fourChunksUpdates, describe(seen))
		return kept
	}
	collectLoop := func(t *testing.T) []*agentcore.MessageUpdateEvent {
		run, err := agentcore.RunLoop(context.Background(), []agentcore.Message{agentcore.UserText("go")}, agentcore.AgentContext{},
			agentcore.LoopConfig{Model: agentcoretest.Model(), StreamFn: agentcoretest.New(fourChunks).Stream})
		require.NoError(t, err)
		var kept []*agentcore.MessageUpdateEvent
		for ev := range run.Events() {
			if u, ok := ev.(*agentcore.MessageUpdateEvent); ok {
				kept = append(kept, u)
			}
		}
		_, err = run.Wait()
		require.NoError(t, err)
		return kept
	}
	tests := []struct {
		name    string
		collect func(*testing.T) []*agentcore.MessageUpdateEvent
	}{
		{"agent", collectAgent},
		{"run loop", collectLoop},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kept := tt.collect(t)
			assert.Equal(t, fourChunksUpdates, describe(kept), "kept events read after the run")
			for i, u := range kept {
				assert.Same(t, u.Message, eventPartial(u.AssistantEvent), "event %d: Partial is not the event's message", i)
			}
		})
	}
}

// TestEventsAcrossGoroutines hands every event to another goroutine that
// marshals it while the run goes on; run with -race.
func TestEventsAcrossGoroutines(t *testing.T) {
	resp := agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: strings.Repeat("x", 200)}}, Chunks: 200}
	a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: agentcoretest.New(resp).Stream})
	events := make(chan agentcore.AgentEvent, 1024)
	var wg sync.WaitGroup
	var lengths []int
	wg.Go(func() {
		for ev := range events {
			_, err := json.Marshal(ev)
			assert.NoError(t, err)
			if u, ok := ev.(*agentcore.MessageUpdateEvent); ok {
				lengths = append(lengths, len(textOf(u.Message)))
			}
		}
	})
	a.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) { events <- ev })
	err := a.Prompt(context.Background(), "go")
	close(events)
	wg.Wait()
	require.NoError(t, err)
	require.Len(t, lengths, 202)
	for i := 1; i < 201; i++ {
		assert.Equal(t, i, lengths[i], "update %d", i)
	}
}

// TestStateStreamingMessage reads the Agent's state from another goroutine
// while a stream runs: the streaming message it shows never goes back; run
// with -race.
func TestStateStreamingMessage(t *testing.T) {
	resp := agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: strings.Repeat("x", 200)}}, Chunks: 200}
	a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: agentcoretest.New(resp).Stream})
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		shown := 0
		for {
			select {
			case <-done:
				return
			default:
			}
			if m, ok := a.State().StreamingMessage.(*agentcore.AssistantMessage); ok {
				n := len(textOf(m))
				if !assert.GreaterOrEqual(t, n, shown, "State went back") {
					return
				}
				shown = n
			}
		}
	})
	err := a.Prompt(context.Background(), "go")
	close(done)
	wg.Wait()
	require.NoError(t, err)
}

// TestMessageUpdateEventZero checks that the zero event marshals.
func TestMessageUpdateEventZero(t *testing.T) {
	data, err := json.Marshal(&agentcore.MessageUpdateEvent{})
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"message_update","message":null,"assistantMessageEvent":null}`, string(data))
}
