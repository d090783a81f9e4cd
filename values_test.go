package agentcore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/providers/openai"
)

func TestValueBlocks(t *testing.T) {
	values := []agentcore.ContentBlock{agentcore.TextBlock{Text: "a"}, agentcore.ImageBlock{Data: "d", MimeType: "image/png"}}
	got, err := agentcore.ValueBlocks(values)
	require.NoError(t, err)
	assert.Same(t, &values[0], &got[0], "blocks without pointers are returned as they are")

	pointers := []agentcore.ContentBlock{
		agentcore.TextBlock{Text: "a"},
		&agentcore.TextBlock{Text: "b"},
		&agentcore.ThinkingBlock{Thinking: "t"},
		&agentcore.ImageBlock{Data: "d"},
		&agentcore.ToolCall{ID: "c", Name: "n"},
		&agentcore.UnknownBlock{Type: "x"},
	}
	got, err = agentcore.ValueBlocks(pointers)
	require.NoError(t, err)
	assert.Equal(t, []agentcore.ContentBlock{
		agentcore.TextBlock{Text: "a"}, agentcore.TextBlock{Text: "b"}, agentcore.ThinkingBlock{Thinking: "t"},
		agentcore.ImageBlock{Data: "d"}, agentcore.ToolCall{ID: "c", Name: "n"}, agentcore.UnknownBlock{Type: "x"},
	}, got)
	assert.IsType(t, &agentcore.TextBlock{}, pointers[1], "the caller's slice is not modified")

	_, err = agentcore.ValueBlocks([]agentcore.ContentBlock{agentcore.TextBlock{}, (*agentcore.ToolCall)(nil)})
	require.ErrorIs(t, err, agentcore.ErrNilBlock)
	assert.Contains(t, err.Error(), "block 1 is a nil *agentcore.ToolCall")
	assert.Contains(t, err.Error(), "blocks are values")
}

// TestPointerBlocksThroughTheFakeModel: a response, a prompt and a tool
// result written with pointer blocks stream and land in the transcript as
// values; none is dropped.
func TestPointerBlocksThroughTheFakeModel(t *testing.T) {
	fake := agentcoretest.New(
		agentcoretest.Response{Content: []agentcore.ContentBlock{
			&agentcore.TextBlock{Text: "calling"},
			&agentcore.ToolCall{ID: "c1", Name: "look", Arguments: json.RawMessage(`{}`)},
		}},
		agentcoretest.Response{Content: []agentcore.ContentBlock{&agentcore.TextBlock{Text: "hi"}}},
	)
	look := agentcore.Tool{Name: "look", Execute: func(context.Context, string, json.RawMessage, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.ToolResult{Content: []agentcore.ContentBlock{&agentcore.TextBlock{Text: "seen"}}}, nil
	}}
	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{look}})
	var deltas []string
	agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		if u, ok := ev.(*agentcore.MessageUpdateEvent); ok {
			if d, ok := u.AssistantEvent.(*agentcore.TextDeltaEvent); ok {
				deltas = append(deltas, d.Delta)
			}
		}
	})
	prompt := &agentcore.UserMessage{Content: agentcore.Blocks(&agentcore.TextBlock{Text: "look"}), Timestamp: 1}
	require.NoError(t, agent.PromptMessages(t.Context(), prompt))

	assert.Equal(t, "callinghi", strings.Join(deltas, ""), "both texts streamed")
	msgs := agent.Messages()[1:] // after the system message declaring the tool
	require.Len(t, msgs, 4)
	assert.Equal(t, agentcore.Blocks(agentcore.TextBlock{Text: "look"}), msgs[0].(*agentcore.UserMessage).Content)
	assert.IsType(t, &agentcore.TextBlock{}, prompt.Content.Blocks[0], "the caller's message is not modified")
	first := msgs[1].(*agentcore.AssistantMessage)
	assert.Equal(t, []agentcore.ToolCall{{ID: "c1", Name: "look", Arguments: json.RawMessage(`{}`)}}, first.ToolCalls())
	result := msgs[2].(*agentcore.ToolResultMessage)
	assert.Equal(t, []agentcore.ContentBlock{agentcore.TextBlock{Text: "seen"}}, result.Content)
	assert.False(t, result.IsError)
	assert.Equal(t, []agentcore.ContentBlock{agentcore.TextBlock{Text: "hi"}}, msgs[3].(*agentcore.AssistantMessage).Content)

	// The second request carried the history as values.
	calls := fake.Calls()
	require.Len(t, calls, 2)
	assert.Equal(t, agentcore.Blocks(agentcore.TextBlock{Text: "look"}), calls[1].Request.Messages[1].(*agentcore.UserMessage).Content)
}

// TestNilPointerBlocksAreRefused: a nil block pointer is an error that says
// blocks are values, wherever it comes from.
func TestNilPointerBlocksAreRefused(t *testing.T) {
	t.Run("prompt", func(t *testing.T) {
		agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: agentcoretest.New().Stream})
		err := agent.PromptMessages(t.Context(), &agentcore.UserMessage{Content: agentcore.Blocks((*agentcore.TextBlock)(nil))})
		require.ErrorIs(t, err, agentcore.ErrNilBlock)
		assert.Contains(t, err.Error(), "prompt 0 of 1")
	})
	t.Run("response", func(t *testing.T) {
		fake := agentcoretest.New(agentcoretest.Response{Content: []agentcore.ContentBlock{(*agentcore.TextBlock)(nil)}})
		agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream})
		err := agent.Prompt(t.Context(), "hi")
		require.ErrorIs(t, err, agentcore.ErrNilBlock)
		assert.Contains(t, agent.State().ErrorMessage, "blocks are values")
	})
	t.Run("tool result", func(t *testing.T) {
		fake := agentcoretest.New(agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "bad", nil)), agentcoretest.TextResponse("ok"))
		bad := agentcore.Tool{Name: "bad", Execute: func(context.Context, string, json.RawMessage, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			return agentcore.ToolResult{Content: []agentcore.ContentBlock{(*agentcore.ImageBlock)(nil)}}, nil
		}}
		agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{bad}})
		require.NoError(t, agent.Prompt(t.Context(), "hi"))
		result := agent.Messages()[3].(*agentcore.ToolResultMessage)
		assert.True(t, result.IsError)
		assert.Contains(t, result.Content[0].(agentcore.TextBlock).Text, "blocks are values")
	})
}

// recordingServer is an OpenAI-compatible server that answers "ok" and
// keeps the request bodies.
type recordingServer struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []string
}

func newRecordingServer(t *testing.T) *recordingServer {
	s := &recordingServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.bodies = append(s.bodies, string(body))
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"1","choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}`+"\n\n")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(s.Close)
	return s
}

// TestPointerBlocksThroughAProvider: a provider sends pointer blocks'
// text, whether the loop or the caller hands it the messages.
func TestPointerBlocksThroughAProvider(t *testing.T) {
	srv := newRecordingServer(t)
	model := agentcore.Model{ID: "m", Provider: "local", API: "openai-completions", Input: []string{"text", "image"}}
	fn := openai.StreamFn(openai.Options{BaseURL: srv.URL})
	prompt := &agentcore.UserMessage{Content: agentcore.Blocks(&agentcore.TextBlock{Text: "through the loop"}), Timestamp: 1}
	agent := agentcore.New(agentcore.Options{Model: model, StreamFn: fn})
	require.NoError(t, agent.PromptMessages(t.Context(), prompt))

	direct := agentcore.Request{Messages: []agentcore.Message{&agentcore.UserMessage{Content: agentcore.Blocks(&agentcore.TextBlock{Text: "called directly"}), Timestamp: 1}}}
	var final *agentcore.AssistantMessage
	for ev := range fn(t.Context(), model, direct, agentcore.StreamOptions{}) {
		if d, ok := ev.(*agentcore.DoneEvent); ok {
			final = d.Message
		}
	}
	require.NotNil(t, final)

	nilBlock := agentcore.Request{Messages: []agentcore.Message{&agentcore.UserMessage{Content: agentcore.Blocks((*agentcore.TextBlock)(nil))}}}
	var failed *agentcore.AssistantMessage
	for ev := range fn(t.Context(), model, nilBlock, agentcore.StreamOptions{}) {
		if e, ok := ev.(*agentcore.ErrorEvent); ok {
			failed = e.Message
		}
	}
	require.NotNil(t, failed)
	assert.True(t, errors.Is(failed.Err, agentcore.ErrNilBlock), "%v", failed.Err)

	srv.mu.Lock()
	defer srv.mu.Unlock()
	require.Len(t, srv.bodies, 2, "the nil block is refused before sending")
	assert.Contains(t, srv.bodies[0], "through the loop")
	assert.Contains(t, srv.bodies[1], "called directly")
}

// TestPointerBlocksThroughTheProxy: a served stream function's pointer
// blocks reach the client as values.
func TestPointerBlocksThroughTheProxy(t *testing.T) {
	served := func(_ context.Context, m agentcore.Model, _ agentcore.Request, _ agentcore.StreamOptions) agentcore.AssistantStream {
		return agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
			msg := &agentcore.AssistantMessage{Content: []agentcore.ContentBlock{}, API: m.API, Provider: m.Provider, Model: m.ID, StopReason: agentcore.StopStop}
			w.Push(&agentcore.StartEvent{Partial: msg})
			msg.Content = append(msg.Content, &agentcore.ToolCall{ID: "c1", Name: "look"})
			w.Push(&agentcore.ToolCallStartEvent{ContentIndex: 0, Partial: msg})
			msg.Content[0] = &agentcore.ToolCall{ID: "c1", Name: "look", Arguments: json.RawMessage(`{"a":1}`)}
			w.Push(&agentcore.ToolCallDeltaEvent{ContentIndex: 0, Delta: `{"a":1}`, Partial: msg})
			w.Push(&agentcore.ToolCallEndEvent{ContentIndex: 0, ToolCall: agentcore.ToolCall{ID: "c1", Name: "look", Arguments: json.RawMessage(`{"a":1}`)}, Partial: msg})
			msg.StopReason = agentcore.StopToolUse
			w.Done(msg)
		})
	}
	srv := httptest.NewServer(agentcore.NewProxyHandler(agentcore.ProxyHandlerOptions{StreamFn: served, Authorize: allowToken("tok")}))
	defer srv.Close()
	fn := agentcore.StreamProxy(agentcore.ProxyOptions{URL: srv.URL, AuthToken: "tok"})
	var final *agentcore.AssistantMessage
	var started []agentcore.ToolCall
	for ev := range fn(t.Context(), fixtureModel, agentcore.Request{}, agentcore.StreamOptions{}) {
		switch ev := ev.(type) {
		case *agentcore.ToolCallStartEvent:
			started = ev.Partial.ToolCalls()
		case *agentcore.DoneEvent:
			final = ev.Message
		}
	}
	require.NotNil(t, final)
	assert.Equal(t, []agentcore.ToolCall{{ID: "c1", Name: "look", Arguments: json.RawMessage(`{}`)}}, started, "the call's start names it")
	assert.Equal(t, []agentcore.ToolCall{{ID: "c1", Name: "look", Arguments: json.RawMessage(`{"a":1}`)}}, final.ToolCalls())
}

// TestPointerBlocksMarshalAsValues: JSON writes a pointer block as its
// value, and reads blocks back as values.
func TestPointerBlocksMarshalAsValues(t *testing.T) {
	byValue, err := json.Marshal(&agentcore.AssistantMessage{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "a"}, agentcore.ToolCall{ID: "c", Name: "n"}}})
	require.NoError(t, err)
	byPointer, err := json.Marshal(&agentcore.AssistantMessage{Content: []agentcore.ContentBlock{&agentcore.TextBlock{Text: "a"}, &agentcore.ToolCall{ID: "c", Name: "n"}}})
	require.NoError(t, err)
	assert.JSONEq(t, string(byValue), string(byPointer))
	m, err := agentcore.UnmarshalMessage(byPointer)
	require.NoError(t, err)
	assert.IsType(t, agentcore.TextBlock{}, m.(*agentcore.AssistantMessage).Content[0])
}

// TestStreamWriterMakesBlocksValues: a producer's pointer blocks reach a
// stream's consumer as values, its own message left as it is, whatever
// event carries them; a nil block pointer ends the stream with an error.
func TestStreamWriterMakesBlocksValues(t *testing.T) {
	var producer *agentcore.AssistantMessage
	stream := agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
		producer = &agentcore.AssistantMessage{Content: []agentcore.ContentBlock{&agentcore.TextBlock{Text: "a"}}, StopReason: agentcore.StopStop}
		w.Push(&agentcore.StartEvent{Partial: producer})
		producer.Content = append(producer.Content, agentcore.TextBlock{})
		w.Push(&agentcore.TextStartEvent{ContentIndex: 1, Partial: producer})
		producer.Content[1] = &agentcore.TextBlock{Text: "b"}
		w.TextDelta(1, "b", producer)
		w.Done(producer)
	})
	var seen []agentcore.ContentBlock
	for ev := range stream {
		switch ev := ev.(type) {
		case *agentcore.DoneEvent:
			seen = append(seen, ev.Message.Content...)
		case *agentcore.StartEvent:
			seen = append(seen, ev.Partial.Content...)
		case *agentcore.TextStartEvent:
			seen = append(seen, ev.Partial.Content...)
		case *agentcore.TextDeltaEvent:
			seen = append(seen, ev.Partial.Content...)
		}
	}
	for i, b := range seen {
		_, isPointer := b.(*agentcore.TextBlock)
		assert.False(t, isPointer, "block %d", i)
	}
	assert.Len(t, seen, 1+2+2+2)
	assert.IsType(t, &agentcore.TextBlock{}, producer.Content[0], "the producer's message is left as it is")

	failed := collect(agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
		msg := &agentcore.AssistantMessage{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "a"}}}
		w.Push(&agentcore.StartEvent{Partial: msg})
		msg.Content = append(msg.Content, (*agentcore.TextBlock)(nil))
		w.Push(&agentcore.TextStartEvent{ContentIndex: 1, Partial: msg})
		w.Done(msg)
	}))
	assert.Equal(t, []string{"start", "error"}, failed.types)
	require.NotNil(t, failed.final)
	assert.ErrorIs(t, failed.final.Err, agentcore.ErrNilBlock)
	assert.Equal(t, []agentcore.ContentBlock{agentcore.TextBlock{Text: "a"}}, failed.final.Content, "the content so far is kept")
}
