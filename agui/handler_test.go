package agui_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/agui"
)

type cityArgs struct {
	City string `json:"city" jsonschema:"required"`
}

// weather is a server tool.
var weather = agentcore.NewTool("weather", "The weather of a city.",
	func(_ context.Context, _ string, a cityArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.TextResult("sunny in " + a.City), nil
	})

func TestTextRun(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "Hello there"}}, Chunks: 2})
	srv, _ := server(t, fake, agui.Options{})
	status, evs := post(t, t.Context(), srv.URL, input("t1", "r1", "["+userMsg("u1", "hi")+"]", ""))
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, []string{
		"RUN_STARTED", "STEP_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CONTENT",
		"TEXT_MESSAGE_END", "STEP_FINISHED", "RUN_FINISHED",
	}, types(evs))
	assert.Equal(t, "t1", evs[0].ThreadID)
	assert.Equal(t, "r1", evs[0].RunID)
	assert.Equal(t, "turn 1", evs[1].StepName)
	assert.Equal(t, "assistant", evs[2].Role)
	assert.Equal(t, "Hello there", evs[3].text()+evs[4].text())
	snap := held(sentMessages(t, "["+userMsg("u1", "hi")+"]"), evs)
	require.Len(t, snap, 2)
	assert.Equal(t, "u1", snap[0].ID, "the client's ID is kept")
	assert.Equal(t, evs[2].MessageID, snap[1].ID, "the snapshot names the streamed message")
	assert.JSONEq(t, `"Hello there"`, string(snap[1].Content))
	assert.Equal(t, "success", evs[7].Outcome.Type)
}

func TestReasoning(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.Response{Content: []agentcore.ContentBlock{
		agentcore.ThinkingBlock{Thinking: "Let me think", ThinkingSignature: "sig-123"},
		agentcore.TextBlock{Text: "42"},
	}})
	srv, _ := server(t, fake, agui.Options{})
	_, evs := post(t, t.Context(), srv.URL, input("t1", "r1", "["+userMsg("u1", "why?")+"]", ""))
	sent := sentMessages(t, "["+userMsg("u1", "why?")+"]")
	assert.Equal(t, []string{
		"RUN_STARTED", "STEP_STARTED",
		"REASONING_START", "REASONING_MESSAGE_START", "REASONING_MESSAGE_CONTENT", "REASONING_MESSAGE_END",
		"REASONING_ENCRYPTED_VALUE", "REASONING_END",
		"TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END",
		"STEP_FINISHED", "RUN_FINISHED",
	}, types(evs))
	enc := find(evs, "REASONING_ENCRYPTED_VALUE")[0]
	assert.Equal(t, "message", enc.Subtype)
	assert.Equal(t, "sig-123", enc.EncryptedValue)
	assert.Equal(t, find(evs, "REASONING_MESSAGE_START")[0].MessageID, enc.EntityID)
	snap := held(sent, evs)
	require.Len(t, snap, 3)
	assert.Equal(t, "reasoning", snap[1].Role)
	assert.Equal(t, enc.EntityID, snap[1].ID)
	assert.Equal(t, "sig-123", snap[1].EncryptedValue)
}

func TestParallelServerTools(t *testing.T) {
	tc := agentcoretest.ToolCall
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(tc("c1", "weather", cityArgs{"Paris"}), tc("c2", "weather", cityArgs{"Rome"})),
		agentcoretest.TextResponse("Both sunny."),
	)
	srv, _ := server(t, fake, agui.Options{}, weather)
	_, evs := post(t, t.Context(), srv.URL, input("t1", "r1", "["+userMsg("u1", "weather?")+"]", ""))
	starts := find(evs, "TOOL_CALL_START")
	require.Len(t, starts, 2)
	assert.Equal(t, "weather", starts[0].ToolCallName)
	assert.Equal(t, starts[0].ParentMessageID, starts[1].ParentMessageID)
	results := find(evs, "TOOL_CALL_RESULT")
	require.Len(t, results, 2)
	got := map[string]string{}
	for _, r := range results {
		var s string
		require.NoError(t, json.Unmarshal(r.Content, &s))
		got[r.ToolCallID] = s
	}
	assert.Equal(t, map[string]string{"c1": "sunny in Paris", "c2": "sunny in Rome"}, got)
	assert.Len(t, find(evs, "STEP_STARTED"), 2)
	snap := held(sentMessages(t, "["+userMsg("u1", "weather?")+"]"), evs)
	assert.Equal(t, []string{"user", "assistant", "tool", "tool", "assistant"}, roles(snap))
}

func roles(msgs []message) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = m.Role
	}
	return out
}

const confirmTool = `[{"name":"confirm","description":"Ask the user to confirm.","parameters":{"type":"object","properties":{"question":{"type":"string"}},"required":["question"]}}]`

func TestFrontendToolRoundTrip(t *testing.T) {
	tc := agentcoretest.ToolCall
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(tc("c1", "confirm", map[string]string{"question": "Deploy?"}), tc("c2", "weather", cityArgs{"Oslo"})),
		agentcoretest.TextResponse("Deploying."),
	)
	srv, _ := server(t, fake, agui.Options{}, weather)
	_, evs := post(t, t.Context(), srv.URL, input("t1", "r1", "["+userMsg("u1", "deploy")+"]", confirmTool))
	finished := find(evs, "RUN_FINISHED")[0]
	assert.Equal(t, []string{"c1"}, finished.Outcome.PendingToolCallIDs)
	results := find(evs, "TOOL_CALL_RESULT")
	require.Len(t, results, 1, "only the server tool has a result")
	assert.Equal(t, "c2", results[0].ToolCallID)
	assert.Equal(t, 1, fake.CallCount(), "the run ended with the call pending")
	snap := held(sentMessages(t, "["+userMsg("u1", "deploy")+"]"), evs)
	assert.Equal(t, []string{"user", "assistant", "tool"}, roles(snap), "no placeholder for the pending call")

	// The client answers: the history it holds plus the tool message.
	var history []string
	for _, m := range snap {
		data, _ := json.Marshal(m)
		history = append(history, string(data))
	}
	history = append(history, `{"id":"tool-1","role":"tool","toolCallId":"c1","content":"yes"}`)
	_, evs = post(t, t.Context(), srv.URL, input("t1", "r2", "["+strings.Join(history, ",")+"]", confirmTool))
	clientSent := sentMessages(t, "["+strings.Join(history, ",")+"]")
	require.Equal(t, "RUN_FINISHED", evs[len(evs)-1].Type, types(evs))
	assert.Nil(t, evs[len(evs)-1].Outcome.PendingToolCallIDs)
	calls := fake.Calls()
	require.Len(t, calls, 2)
	sent := calls[1].Request.Messages
	var answer *agentcore.ToolResultMessage
	for _, m := range sent {
		if r, ok := m.(*agentcore.ToolResultMessage); ok && r.ToolCallID == "c1" {
			answer = r
		}
	}
	require.NotNil(t, answer)
	assert.Equal(t, "yes", agentcore.Blocks(answer.Content...).Text())
	assert.Equal(t, "confirm", answer.ToolName)
	snap = held(clientSent, evs)
	assert.Equal(t, []string{"user", "assistant", "tool", "tool", "assistant"}, roles(snap))
	for _, m := range snap {
		if m.ToolCallID == "c1" {
			assert.Equal(t, "tool-1", m.ID, "the answer keeps the client's ID")
		}
	}
}

func TestModelError(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.ErrorResponse("rate limited"))
	srv, _ := server(t, fake, agui.Options{})
	_, evs := post(t, t.Context(), srv.URL, input("t1", "r1", "["+userMsg("u1", "hi")+"]", ""))
	last := evs[len(evs)-1]
	assert.Equal(t, "RUN_ERROR", last.Type)
	assert.Equal(t, "rate limited", last.Message)
}

func TestStateEvents(t *testing.T) {
	counter := agentcore.NewTool("count", "Count.",
		func(ctx context.Context, _ string, _ struct{}, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			in, err := agui.Input(ctx)
			if err != nil {
				return agentcore.ToolResult{}, err
			}
			if err := agui.SetState(ctx, json.RawMessage(`{"count":1}`)); err != nil {
				return agentcore.ToolResult{}, err
			}
			if err := agui.PatchState(ctx, json.RawMessage(`[{"op":"replace","path":"/count","value":2}]`)); err != nil {
				return agentcore.ToolResult{}, err
			}
			return agentcore.TextResult("state was " + string(in.State)), nil
		})
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "count", nil)), agentcoretest.TextResponse("done"))
	srv, _ := server(t, fake, agui.Options{}, counter)
	_, evs := post(t, t.Context(), srv.URL, input("t1", "r1", "["+userMsg("u1", "count")+"]", ""))
	snap := find(evs, "STATE_SNAPSHOT")
	require.Len(t, snap, 1)
	assert.JSONEq(t, `{"count":1}`, string(snap[0].Snapshot))
	delta := find(evs, "STATE_DELTA")
	require.Len(t, delta, 1)
	assert.JSONEq(t, `[{"op":"replace","path":"/count","value":2}]`, string(delta[0].Delta))
	assert.JSONEq(t, `"state was {}"`, string(find(evs, "TOOL_CALL_RESULT")[0].Content))

	_, err := agui.Input(t.Context())
	assert.ErrorIs(t, err, agui.ErrNoRun)
	assert.ErrorIs(t, agui.SetState(t.Context(), json.RawMessage(`1`)), agui.ErrNoRun)
}

func TestDisconnectAbortsRun(t *testing.T) {
	started := make(chan struct{})
	hang := agentcore.NewTool("hang", "Wait.",
		func(ctx context.Context, _ string, _ struct{}, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			close(started)
			<-ctx.Done()
			return agentcore.ToolResult{}, ctx.Err()
		})
	tc := agentcoretest.ToolCall
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(tc("c1", "hang", nil), tc("c2", "weather", cityArgs{"Oslo"})))
	saved := make(chan []agentcore.Message, 1)
	srv, _ := server(t, fake, agui.Options{OnTranscript: func(_ string, m []agentcore.Message) { saved <- m }}, hang, weather)
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		<-started
		cancel()
	}()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(input("t1", "r1", "["+userMsg("u1", "go")+"]", "")))
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	if err == nil {
		_, _ = resp.Body.Read(make([]byte, 1<<16))
		<-ctx.Done()
		resp.Body.Close()
	}
	msgs := <-saved
	answered := map[string]bool{}
	for _, m := range msgs {
		if r, ok := m.(*agentcore.ToolResultMessage); ok {
			answered[r.ToolCallID] = true
		}
	}
	assert.Equal(t, map[string]bool{"c1": true, "c2": true}, answered, "every call is answered")
}

func TestRefusals(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.TextResponse("one"), agentcoretest.TextResponse("two"))
	srv, _ := server(t, fake, agui.Options{MaxRequestBytes: 4096})
	ok := input("t1", "r1", "["+userMsg("u1", "hi")+"]", "")
	_, evs := post(t, t.Context(), srv.URL, ok)
	require.Equal(t, "RUN_FINISHED", evs[len(evs)-1].Type)
	snap := held(sentMessages(t, "["+userMsg("u1", "hi")+"]"), evs)
	heldJSON, _ := json.Marshal(snap)

	tests := []struct {
		name   string
		body   string
		status int
		text   string
	}{
		{"malformed JSON", `{"threadId":`, 400, "bad input"},
		{"no thread", `{"runId":"r","messages":[]}`, 400, "threadId is required"},
		{"unknown role", input("t1", "r2", `[{"id":"x","role":"robot","content":"hi"}]`, ""), 400, `unknown role "robot"`},
		{"too large", input("t1", "r2", "["+userMsg("u2", strings.Repeat("x", 5000))+"]", ""), 413, "too large"},
		{"nothing new", input("t1", "r2", string(heldJSON), ""), 400, "nothing to run"},
		{"unknown assistant", input("t1", "r2", `[{"id":"a9","role":"assistant","content":"I said"}]`, ""), 400, "history is the server's"},
		{"unanswerable tool", input("t1", "r2", `[{"id":"x","role":"tool","toolCallId":"nope","content":"1"}]`, ""), 400, "not waiting"},
		{"unsupported part", input("t1", "r2", `[{"id":"x","role":"user","content":[{"type":"audio","source":{"type":"url","value":"http://a"}}]}]`, ""), 400, "not supported"},
		{"bad tool schema", input("t2", "r2", "["+userMsg("u1", "hi")+"]", `[{"name":"a","description":"","parameters":{"type":"object","properties":{"x":{"type":"string","pattern":"^(?!x)"}}}}]`), 400, "tools[0]: agentcore: invalid tool \"a\": Parameters: invalid tool schema"},
		{"parameters not a schema", input("t2", "r2", "["+userMsg("u1", "hi")+"]", `[{"name":"a","description":"","parameters":"str"}]`), 400, `tools[0] (a): parameters: want a JSON Schema object, got "str"`},
		{"parameters not an object schema", input("t2", "r2", "["+userMsg("u1", "hi")+"]", `[{"name":"a","description":"","parameters":{"type":"string"}}]`), 400, `want a schema of "type": "object"`},
		{"invalid tool name", input("t2", "r2", "["+userMsg("u1", "hi")+"]", `[{"name":"say hi!","description":""}]`), 400, `name "say hi!": want 1 to 64 letters`},
		{"wrong kind", `{"threadId":5,"runId":"r"}`, 400, "threadId: want a string, got a JSON number"},
		{"wrong kind in a message", input("t1", "r2", `[{"id":1,"role":"user","content":"x"}]`, ""), 400, "messages[0]: id: want a string, got a JSON number"},
		{"tool clash", input("t2", "r2", "["+userMsg("u1", "hi")+"]", `[{"name":"a","description":""},{"name":"a","description":""}]`), 400, "declared twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, evs := post(t, t.Context(), srv.URL, tt.body)
			assert.Equal(t, tt.status, status)
			assert.Contains(t, evs[0].Message, tt.text)
			assert.NotContains(t, evs[0].Message, "Go ", "no Go internals")
			assert.NotContains(t, evs[0].Message, "wire")
		})
	}
	t.Run("method", func(t *testing.T) {
		resp, err := http.Get(srv.URL)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	})
	t.Run("content type", func(t *testing.T) {
		resp, err := http.Post(srv.URL, "text/plain", strings.NewReader(ok))
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusUnsupportedMediaType, resp.StatusCode)
	})
	// Nothing was lost: the thread goes on where it was.
	again := string(heldJSON[:len(heldJSON)-1]) + "," + userMsg("u3", "again") + "]"
	_, evs = post(t, t.Context(), srv.URL, input("t1", "r3", again, ""))
	require.Equal(t, "RUN_FINISHED", evs[len(evs)-1].Type, evs)
	assert.Equal(t, []string{"user", "assistant", "user", "assistant"}, roles(held(sentMessages(t, again), evs)))
}

func TestBusyThread(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{})
	fake := agentcoretest.NewFunc(func(ctx context.Context, _ agentcoretest.Call) agentcoretest.Response {
		close(entered)
		select {
		case <-release:
		case <-ctx.Done():
		}
		return agentcoretest.TextResponse("done")
	})
	srv, h := server(t, fake, agui.Options{})
	var wg sync.WaitGroup
	wg.Go(func() { post(t, t.Context(), srv.URL, input("t1", "r1", "["+userMsg("u1", "hi")+"]", "")) })
	<-entered
	status, evs := post(t, t.Context(), srv.URL, input("t1", "r2", "["+userMsg("u2", "hi")+"]", ""))
	assert.Equal(t, http.StatusConflict, status)
	assert.Contains(t, evs[0].Message, "running")
	assert.False(t, h.Forget("t1"), "a running thread stays")
	assert.NotNil(t, h.Agent("t1"))
	close(release)
	wg.Wait()
	assert.True(t, h.Forget("t1"))
	assert.Nil(t, h.Agent("t1"))
}

func TestSteeringIsAUserMessage(t *testing.T) {
	var h *agui.Handler
	fake := agentcoretest.New(
		agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "working"}}, OnStart: func(context.Context) {
			h.Agent("t1").Steer(agentcore.UserText("also this"))
		}},
		agentcoretest.TextResponse("done"),
	)
	srv, hh := server(t, fake, agui.Options{})
	h = hh
	_, evs := post(t, t.Context(), srv.URL, input("t1", "r1", "["+userMsg("u1", "hi")+"]", ""))
	var users []event
	for _, e := range find(evs, "TEXT_MESSAGE_START") {
		if e.Role == "user" {
			users = append(users, e)
		}
	}
	require.Len(t, users, 1)
	assert.Equal(t, []string{"user", "assistant", "user", "assistant"}, roles(held(sentMessages(t, "["+userMsg("u1", "hi")+"]"), evs)))
}

func TestHookRefusals(t *testing.T) {
	fake := agentcoretest.New()
	var reported []error
	srv, _ := server(t, fake, agui.Options{
		Prepare: func(_ *http.Request, in *agui.RunInput) error {
			switch in.ThreadID {
			case "denied":
				return &agui.HTTPError{Status: http.StatusUnauthorized, Message: "sign in"}
			case "panic":
				panic("boom")
			}
			return errors.New("no")
		},
		OnError: func(_ *http.Request, err error) { reported = append(reported, err) },
	})
	status, evs := post(t, t.Context(), srv.URL, input("denied", "r", "["+userMsg("u", "x")+"]", ""))
	assert.Equal(t, http.StatusUnauthorized, status)
	assert.Equal(t, "sign in", evs[0].Message)
	status, _ = post(t, t.Context(), srv.URL, input("other", "r", "["+userMsg("u", "x")+"]", ""))
	assert.Equal(t, http.StatusForbidden, status)
	status, evs = post(t, t.Context(), srv.URL, input("panic", "r", "["+userMsg("u", "x")+"]", ""))
	assert.Equal(t, http.StatusInternalServerError, status)
	assert.Equal(t, agui.InternalErrorText, evs[0].Message)
	require.Len(t, reported, 1)
	assert.ErrorIs(t, reported[0], agui.ErrPanic)
}

func TestProgramAbortIsCancelled(t *testing.T) {
	var h *agui.Handler
	stop := agentcore.NewTool("stop", "Stop.",
		func(ctx context.Context, _ string, _ struct{}, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			h.Agent("t1").Abort()
			<-ctx.Done()
			return agentcore.ToolResult{}, ctx.Err()
		})
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "stop", nil)))
	srv, hh := server(t, fake, agui.Options{}, stop)
	h = hh
	_, evs := post(t, t.Context(), srv.URL, input("t1", "r1", "["+userMsg("u1", "stop")+"]", ""))
	last := evs[len(evs)-1]
	require.Equal(t, "RUN_FINISHED", last.Type, types(evs))
	assert.Equal(t, "cancelled", last.Outcome.Type)
}

func TestHistoryOfANewThread(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.TextResponse("fine"))
	srv, _ := server(t, fake, agui.Options{})
	history := `[
		{"id":"u0","role":"user","content":"earlier"},
		{"id":"r0","role":"reasoning","content":"hm","encryptedValue":"sig"},
		{"id":"a0","role":"assistant","content":"calling","toolCalls":[{"id":"c0","type":"function","function":{"name":"weather","arguments":"{\"city\":\"Oslo\"}"}}]},
		{"id":"t0","role":"tool","toolCallId":"c0","content":"cold"},
		{"id":"s0","role":"developer","content":"be nice"},
		` + userMsg("u1", "and now?") + `]`
	_, evs := post(t, t.Context(), srv.URL, input("t1", "r1", history, ""))
	require.Equal(t, "RUN_FINISHED", evs[len(evs)-1].Type, types(evs))
	sent := fake.Calls()[0].Request.Messages
	var roles []string
	for _, m := range sent {
		roles = append(roles, m.Role())
	}
	assert.Equal(t, []string{"system", "user", "assistant", "toolResult", "user"}, roles, "the developer message stays out of the model's view")
	a := sent[2].(*agentcore.AssistantMessage)
	assert.Equal(t, agentcore.ThinkingBlock{Thinking: "hm", ThinkingSignature: "sig"}, a.Content[0])
	assert.Equal(t, "weather", sent[3].(*agentcore.ToolResultMessage).ToolName)
	snap := held(sentMessages(t, history), evs)
	var ids []string
	for _, m := range snap {
		ids = append(ids, m.ID)
	}
	assert.Equal(t, []string{"u0", "r0", "a0", "t0", "s0", "u1"}, ids[:6], "the client's messages keep their IDs")
	assert.Empty(t, find(evs, "MESSAGES_SNAPSHOT"), "the client holds the transcript")
}

func TestRunThatCannotStart(t *testing.T) {
	srv, _ := server(t, nil, agui.Options{NewAgent: func(context.Context, *agui.RunInput) (agentcore.Options, error) {
		return agentcore.Options{Model: agentcoretest.Model()}, nil // no stream function
	}})
	for _, run := range []string{"r1", "r2"} {
		_, evs := post(t, t.Context(), srv.URL, input("t1", run, "["+userMsg("u1", "hi")+"]", ""))
		last := evs[len(evs)-1]
		require.Equal(t, "RUN_ERROR", last.Type, types(evs))
		assert.Contains(t, last.Message, "stream", "the same request fails the same way: nothing was kept")
	}
}
