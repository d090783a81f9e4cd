package agui_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/agui"
	"github.com/pi-go/agentcore/hold"
	"github.com/pi-go/agentcore/session"
)

// sessionHandler is a handler keeping its threads in dir, whose Agents
// run on fake and hold every deploy call.
func sessionHandler(dir string, fake *agentcoretest.Fake) *agui.Handler {
	return agui.New(agui.Options{
		SessionDir: dir,
		NewAgent: func(context.Context, *agui.RunInput) (agentcore.Options, error) {
			gate := hold.New(hold.Options{Policy: hold.Always(hold.Request{Title: "Deploy?"}, "deploy")})
			return agentcore.Options{
				SystemPrompt: "You deploy.", Model: agentcoretest.Model(), StreamFn: fake.Stream,
				Tools: []agentcore.Tool{weather, deploy}, Layers: []agentcore.Layer{gate},
			}, nil
		},
	})
}

// ids lists the IDs of msgs.
func ids(msgs []message) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = m.ID
	}
	return out
}

// TestSessionRestart: a thread kept in a session file survives a server
// restart between an interrupt and its resume: the fresh handler resumes
// the held call, and the client's messages keep their IDs.
func TestSessionRestart(t *testing.T) {
	tc := agentcoretest.ToolCall
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(tc("c1", "deploy", deployArgs{Service: "web", Env: "prod"}), tc("c2", "weather", cityArgs{"Oslo"})),
		agentcoretest.TextResponse("Deployed."),
		agentcoretest.TextResponse("You are welcome."),
	)
	dir := t.TempDir()
	h1 := sessionHandler(dir, fake)
	first := httptest.NewServer(h1)
	sent := "[" + userMsg("u1", "deploy web") + "]"
	_, evs := post(t, t.Context(), first.URL, input("t1", "r1", sent, ""))
	first.Close() // the server dies with the interrupt open
	last := evs[len(evs)-1]
	require.Equal(t, "interrupt", last.Outcome.Type, types(evs))
	before := held(sentMessages(t, sent), evs)

	second := httptest.NewServer(sessionHandler(dir, fake))
	defer second.Close()
	msgs := history(t, sent, evs)
	_, evs = post(t, t.Context(), second.URL, withResume(input("t1", "r2", msgs, ""),
		`[{"interruptId":"c1","status":"resolved","payload":{"approved":true}}]`))
	last = evs[len(evs)-1]
	require.Equal(t, "RUN_FINISHED", last.Type, types(evs))
	require.Equal(t, "success", last.Outcome.Type, last.Message)
	text, isError := resultOf(fake, "c1")
	assert.Equal(t, "deployed web to prod", text, "the approved call ran after the restart")
	assert.False(t, isError)
	after := held(sentMessages(t, msgs), evs)
	assert.Equal(t, ids(before), []string{after[0].ID, after[1].ID, after[3].ID}, "the client's messages keep their IDs")
	assert.Equal(t, "c1", after[2].ToolCallID)
	assert.JSONEq(t, `"deployed web to prod"`, string(after[2].Content), "the real result, not the placeholder")
	assert.Equal(t, placeholderID(t, dir, "c1"), after[2].ID, "the result takes the ID the handler gave its placeholder")
	step := slices.Index(types(evs), "STEP_STARTED")
	assert.NotContains(t, types(evs)[step:], "MESSAGES_SNAPSHOT", "the client is up to date before the first step")

	// The first handler, which still holds the thread as it was before
	// the restart, answers the next question: it finds the file moved on
	// and makes the thread again from it.
	third := httptest.NewServer(h1)
	defer third.Close()
	msgs = history(t, msgs, evs, userMsg("u2", "thanks"))
	_, evs = post(t, t.Context(), third.URL, input("t1", "r3", msgs, ""))
	require.Equal(t, "RUN_FINISHED", evs[len(evs)-1].Type, evs[len(evs)-1].Message)
	require.Equal(t, "success", evs[len(evs)-1].Outcome.Type, types(evs))
	assert.Empty(t, find(evs, "MESSAGES_SNAPSHOT"), "the restarted thread knows every message the client holds")
	final := held(sentMessages(t, msgs), evs)
	assert.Equal(t, ids(after), ids(final[:len(after)]))

	// The file is pi's: its context is the conversation, the approved
	// result in place of the placeholder.
	files, err := session.List(dir)
	require.NoError(t, err)
	require.Len(t, files, 1)
	s, err := session.Open(files[0].Path, &session.Options{ReadOnly: true})
	require.NoError(t, err)
	defer s.Close()
	var roles []string
	for _, m := range s.Context().Messages {
		roles = append(roles, m.Role())
	}
	assert.Equal(t, []string{"user", "assistant", "toolResult", "toolResult", "assistant", "user", "assistant"}, roles)
}

// placeholderID is the AG-UI ID the session file in dir records for the
// placeholder of held call id: the first result of the call.
func placeholderID(t *testing.T, dir, id string) string {
	t.Helper()
	files, err := session.List(dir)
	require.NoError(t, err)
	require.Len(t, files, 1)
	s, err := session.Open(files[0].Path, &session.Options{ReadOnly: true})
	require.NoError(t, err)
	defer s.Close()
	entry := ""
	for _, e := range s.Entries() {
		switch e := e.(type) {
		case *session.MessageEntry:
			if r, ok := e.Message.(*agentcore.ToolResultMessage); ok && r.ToolCallID == id && entry == "" {
				entry = e.ID
			}
		case *session.CustomEntry:
			var data struct {
				IDs map[string]string `json:"ids"`
			}
			require.Equal(t, agui.CustomType, e.CustomType)
			require.NoError(t, json.Unmarshal(e.Data, &data))
			if aguiID, ok := data.IDs[entry]; ok && entry != "" {
				return aguiID
			}
		}
	}
	t.Fatalf("no ID recorded for the placeholder of %s", id)
	return ""
}

// TestSessionLocked: a thread whose file another writer holds (a run on
// another server) is refused with 409, and served once the file is free.
func TestSessionLocked(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.TextResponse("Hi."), agentcoretest.TextResponse("Hi again."))
	dir := t.TempDir()
	srv := httptest.NewServer(sessionHandler(dir, fake))
	defer srv.Close()
	sent := "[" + userMsg("u1", "hello") + "]"
	_, evs := post(t, t.Context(), srv.URL, input("t1", "r1", sent, ""))
	require.Equal(t, "success", evs[len(evs)-1].Outcome.Type)

	files, err := session.List(dir)
	require.NoError(t, err)
	require.Len(t, files, 1)
	other, err := session.Open(files[0].Path, nil)
	require.NoError(t, err)
	msgs := history(t, sent, evs, userMsg("u2", "again"))
	status, evs := post(t, t.Context(), srv.URL, input("t1", "r2", msgs, ""))
	assert.Equal(t, 409, status)
	assert.Contains(t, evs[0].Message, "locked")
	require.NoError(t, other.Close())

	_, evs = post(t, t.Context(), srv.URL, input("t1", "r3", msgs, ""))
	assert.Equal(t, "success", evs[len(evs)-1].Outcome.Type, types(evs))
	assert.Equal(t, 2, fake.CallCount())
}

// TestSessionRestartFrontEndCall: a front-end call pending when the
// server restarts is answered on the restarted server, whose transcript
// takes the client's answer in place of the placeholder.
func TestSessionRestartFrontEndCall(t *testing.T) {
	tc := agentcoretest.ToolCall
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(tc("f1", "confirm", map[string]string{"question": "Go?"})),
		agentcoretest.TextResponse("Going."),
	)
	dir := t.TempDir()
	first := httptest.NewServer(sessionHandler(dir, fake))
	sent := "[" + userMsg("u1", "go out?") + "]"
	_, evs := post(t, t.Context(), first.URL, input("t1", "r1", sent, confirmTool))
	first.Close()
	require.Equal(t, []string{"f1"}, evs[len(evs)-1].Outcome.PendingToolCallIDs)

	second := httptest.NewServer(sessionHandler(dir, fake))
	defer second.Close()
	msgs := history(t, sent, evs, `{"id":"a1","role":"tool","toolCallId":"f1","content":"yes"}`)
	_, evs = post(t, t.Context(), second.URL, input("t1", "r2", msgs, confirmTool))
	require.Equal(t, "success", evs[len(evs)-1].Outcome.Type, evs[len(evs)-1].Message)
	text, _ := resultOf(fake, "f1")
	assert.Equal(t, "yes", text, "the model reads the client's answer")
	after := held(sentMessages(t, msgs), evs)
	assert.Equal(t, ids(sentMessages(t, msgs)), ids(after[:3]), "the client's messages keep their IDs")
}
