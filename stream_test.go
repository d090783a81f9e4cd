package agentcore_test

import (
	"context"
	"errors"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newMsg() *agentcore.AssistantMessage {
	return &agentcore.AssistantMessage{Content: []agentcore.ContentBlock{}, StopReason: agentcore.StopStop}
}

func TestStreamWriterContract(t *testing.T) {
	tests := []struct {
		name      string
		produce   func(w *agentcore.StreamWriter)
		wantTypes []string
		wantLast  agentcore.StopReason
		wantError string
	}{
		{
			name: "done once, later events dropped",
			produce: func(w *agentcore.StreamWriter) {
				m := newMsg()
				w.Push(&agentcore.StartEvent{Partial: m})
				w.Done(m)
				if w.Push(&agentcore.TextStartEvent{Partial: m}) {
					panic("push after done accepted")
				}
				w.Done(m)
			},
			wantTypes: []string{"start", "done"}, wantLast: agentcore.StopStop,
		},
		{
			name:      "no final event becomes an error",
			produce:   func(w *agentcore.StreamWriter) { w.Push(&agentcore.StartEvent{Partial: newMsg()}) },
			wantTypes: []string{"start", "error"}, wantLast: agentcore.StopError, wantError: agentcore.ErrStreamIncomplete.Error(),
		},
		{
			name: "nil events are ignored, typed or not",
			produce: func(w *agentcore.StreamWriter) {
				m := newMsg()
				if !w.Push(nil) || !w.Push((*agentcore.TextDeltaEvent)(nil)) || !w.Push((*agentcore.DoneEvent)(nil)) {
					panic("a nil event ended the stream")
				}
				w.Push(&agentcore.StartEvent{Partial: m})
				w.Done(m)
			},
			wantTypes: []string{"start", "done"}, wantLast: agentcore.StopStop,
		},
		{
			name:      "panic becomes an error",
			produce:   func(w *agentcore.StreamWriter) { panic(errors.New("provider bug")) },
			wantTypes: []string{"error"}, wantLast: agentcore.StopError, wantError: "provider bug",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var types []string
			var last *agentcore.AssistantMessage
			for ev := range agentcore.NewAssistantStream(tt.produce) {
				types = append(types, ev.Type())
				switch e := ev.(type) {
				case *agentcore.DoneEvent:
					last = e.Message
				case *agentcore.ErrorEvent:
					last = e.Message
				}
			}
			assert.Equal(t, tt.wantTypes, types, "events")
			require.NotNil(t, last, "final message")
			assert.Equal(t, tt.wantLast, last.StopReason, "final %+v", last)
			assert.Equal(t, tt.wantError, last.ErrorMessage, "final %+v", last)
			assert.NotNil(t, last.DurationMs, "final message has no durationMs")
		})
	}
}

// TestStreamEarlyStop stops consuming mid-stream: the producer must see
// Push return false and nothing may be left running.
func TestStreamEarlyStop(t *testing.T) {
	stopped := make(chan bool, 1)
	stream := agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
		m := newMsg()
		ok := w.Push(&agentcore.StartEvent{Partial: m})
		ok = ok && w.Push(&agentcore.TextStartEvent{Partial: m})
		stopped <- !ok && w.Ended()
	})
	for range stream {
		break
	}
	assert.True(t, <-stopped, "producer was not told the consumer stopped")
}

// TestStreamPartialsAreTheProducers checks that a stream hands out the
// producer's own message as it is at each event, and that a clone taken
// during the event keeps that state.
func TestStreamPartialsAreTheProducers(t *testing.T) {
	var m *agentcore.AssistantMessage
	var kept []*agentcore.AssistantMessage
	stream := agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
		m = newMsg()
		m.Content = append(m.Content, agentcore.TextBlock{Text: "a"})
		w.Push(&agentcore.TextDeltaEvent{Delta: "a", Partial: m})
		m.Content[0] = agentcore.TextBlock{Text: "ab"}
		m.Content = append(m.Content, agentcore.TextBlock{Text: "c"})
		w.TextDelta(0, "b", m)
		w.Done(m)
	})
	for ev := range stream {
		if d, ok := ev.(*agentcore.TextDeltaEvent); ok {
			assert.Same(t, m, d.Partial, "the partial is not the producer's message")
			kept = append(kept, d.Partial.Clone())
		}
	}
	assert.Equal(t, "a", kept[0].Text(), "first clone changed")
	assert.Len(t, kept[0].Content, 1, "first clone changed")
	assert.Equal(t, "ab\nc", kept[1].Text(), "second clone")
}

func TestDefaultStreamFn(t *testing.T) {
	agent := agentcore.New(agentcore.Options{})
	assert.ErrorIs(t, agent.Prompt(context.Background(), "hi"), agentcore.ErrNoStreamFn, "without a stream function")
	fake := agentcoretest.New(agentcoretest.TextResponse("from default"))
	agentcore.SetDefaultStreamFn(fake.Stream)
	defer agentcore.SetDefaultStreamFn(nil)
	require.NoError(t, agent.Prompt(context.Background(), "hi"))
	msgs := agent.Messages()
	assert.Equal(t, "from default", msgs[len(msgs)-1].(*agentcore.AssistantMessage).Text(), "answer")
}

func TestStreamWriterFail(t *testing.T) {
	cause := &agentcore.ProviderError{StatusCode: 503, Message: "503 busy"}
	tests := []struct {
		name    string
		aborted bool
		want    agentcore.StopReason
		err     error
	}{
		{"failed", false, agentcore.StopError, cause},
		{"aborted", true, agentcore.StopAborted, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			if tt.aborted {
				cancel()
			}
			defer cancel()
			var final *agentcore.AssistantMessage
			for ev := range agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
				w.Fail(ctx, &agentcore.AssistantMessage{Content: []agentcore.ContentBlock{}}, cause)
			}) {
				if e, ok := ev.(*agentcore.ErrorEvent); ok {
					final = e.Message
				}
			}
			require.NotNil(t, final)
			assert.Equal(t, tt.want, final.StopReason)
			assert.Equal(t, "503 busy", final.ErrorMessage)
			assert.Equal(t, tt.err, final.Err)
		})
	}
}

// TestCloneEventNil clones nil events, typed or not, which a stream may
// yield and its consumers skip: they come back as they are.
func TestCloneEventNil(t *testing.T) {
	assert.Nil(t, agentcore.CloneEvent(nil))
	var typed *agentcore.TextDeltaEvent
	assert.Equal(t, agentcore.AssistantEvent(typed), agentcore.CloneEvent(typed))
	var final *agentcore.DoneEvent
	assert.Equal(t, agentcore.AssistantEvent(final), agentcore.CloneEvent(final))
}

// TestConsumerPanicGoesOn: a panic in the consumer's loop body is the
// consumer's: it reaches the consumer as it was raised, not as an error
// event of the stream nor as the runtime's complaint about a range
// function that went on after it.
func TestConsumerPanicGoesOn(t *testing.T) {
	stream := agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
		m := newMsg()
		w.Push(&agentcore.StartEvent{Partial: m})
		w.Done(m)
	})
	consumerBug := errors.New("consumer bug")
	assert.PanicsWithError(t, consumerBug.Error(), func() {
		for range stream {
			panic(consumerBug)
		}
	})
}
