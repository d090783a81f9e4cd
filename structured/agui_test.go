package structured_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/agui"
	"github.com/pi-go/agentcore/structured"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestThroughAGUI serves an Answer through the agui handler the way the
// package documents: the partial values become the client's state, and
// the value is read from the transcript OnTranscript hands over.
func TestThroughAGUI(t *testing.T) {
	answer := structured.New[Line](structured.Options[Line]{
		OnPartial: func(ctx context.Context, l Line) {
			state, _ := json.Marshal(l)
			_ = agui.SetState(ctx, state)
		},
	})
	var (
		mu         sync.Mutex
		transcript []agentcore.Message
	)
	h := agui.New(agui.Options{
		NewAgent: func(context.Context, *agui.RunInput) (agentcore.Options, error) {
			fake := agentcoretest.New(call("c1", valid))
			return agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Layers: []agentcore.Layer{answer}}, nil
		},
		OnTranscript: func(_ string, messages []agentcore.Message) {
			mu.Lock()
			transcript = messages
			mu.Unlock()
		},
	})
	srv := httptest.NewServer(asking(answer, h))
	defer srv.Close()

	var snapshots []string
	for _, ev := range post(t, srv.URL, "t1") {
		if ev.Type == "STATE_SNAPSHOT" {
			snapshots = append(snapshots, string(ev.Snapshot))
		}
	}
	require.Len(t, snapshots, 1)
	assert.JSONEq(t, `{"item":"tea","quantity":2,"price":3.5}`, snapshots[0])

	mu.Lock()
	defer mu.Unlock()
	got, err := answer.Result(transcript)
	require.NoError(t, err)
	assert.Equal(t, Line{Item: "tea", Quantity: 2, Price: 3.5}, got)
}

// asking serves h with every request asking answer for its value, as the
// package documents for an agui handler.
func asking[T any](answer *structured.Answer[T], h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(answer.Ask(r.Context())))
	})
}

// aguiEvent is an AG-UI event as these tests read it.
type aguiEvent struct {
	Type     string          `json:"type"`
	Snapshot json.RawMessage `json:"snapshot"`
	Message  string          `json:"message"`
	Role     string          `json:"role"`
	Delta    string          `json:"delta"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

// post runs one request of a user message on thread and returns the
// answer's events.
func post(t *testing.T, url, thread string) []aguiEvent {
	t.Helper()
	return postMessages(t, url, thread, `[{"id":"u1","role":"user","content":"Extract."}]`)
}

// postMessages runs one request of messages on thread and returns the
// answer's events.
func postMessages(t *testing.T, url, thread, messages string) []aguiEvent {
	t.Helper()
	body := `{"threadId":"` + thread + `","runId":"r1","state":{},"messages":` + messages + `,"tools":[],"context":[],"forwardedProps":{}}`
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var events []aguiEvent
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var ev aguiEvent
		require.NoError(t, json.Unmarshal([]byte(data), &ev))
		events = append(events, ev)
	}
	require.NoError(t, sc.Err())
	return events
}

// TestFailedAnswerThroughAGUI: a run whose typed answer failed ends with
// RUN_ERROR, and the layer's nudge is not streamed to the client as a
// user message.
func TestFailedAnswerThroughAGUI(t *testing.T) {
	answer := structured.New[Line](structured.Options[Line]{})
	var fake *agentcoretest.Fake
	h := agui.New(agui.Options{
		NewAgent: func(context.Context, *agui.RunInput) (agentcore.Options, error) {
			fake = agentcoretest.New(agentcoretest.TextResponse("Tea, two."), agentcoretest.TextResponse("I said: tea, two."), call("c1", valid))
			return agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Layers: []agentcore.Layer{answer}}, nil
		},
	})
	srv := httptest.NewServer(asking(answer, h))
	defer srv.Close()

	events := post(t, srv.URL, "t1")
	last := events[len(events)-1]
	assert.Equal(t, "RUN_ERROR", last.Type, "the client can tell the answer failed")
	assert.Contains(t, last.Message, structured.ErrNoAnswer.Error())
	for _, ev := range events {
		assert.False(t, ev.Type == "TEXT_MESSAGE_START" && ev.Role == "user", "no user message streamed")
		assert.NotContains(t, ev.Delta, "Do not answer in text")
		for _, m := range ev.Messages {
			assert.NotContains(t, string(m.Content), "Do not answer in text", "the nudge is not in a snapshot")
		}
	}

	// The failed run is part of the thread: the next request goes on
	// from it.
	events = postMessages(t, srv.URL, "t1", `[{"id":"u1","role":"user","content":"Extract."},{"id":"u2","role":"user","content":"Use the tool."}]`)
	assert.Equal(t, "RUN_FINISHED", events[len(events)-1].Type)
	calls := fake.Calls()
	require.Len(t, calls, 3)
	var texts, prompts []string
	for _, m := range calls[2].Request.Messages {
		switch m := m.(type) {
		case *agentcore.AssistantMessage:
			texts = append(texts, m.Text())
		case *agentcore.UserMessage:
			prompts = append(prompts, m.Content.Text())
		}
	}
	assert.Equal(t, []string{"Tea, two.", "I said: tea, two."}, texts, "the model sees the failed run")
	assert.Equal(t, []string{"Extract.", fmt.Sprintf(structured.DefaultNudge, structured.DefaultName), "Use the tool."}, prompts,
		"the first prompt is known, not taken again")
}
