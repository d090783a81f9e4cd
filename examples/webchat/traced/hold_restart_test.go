package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/agui"
	"github.com/pi-go/agentcore/codingtools"
	"github.com/pi-go/agentcore/compaction"
	"github.com/pi-go/agentcore/hold"
	agentotel "github.com/pi-go/agentcore/otel"
	"github.com/pi-go/agentcore/session"
	"github.com/pi-go/agentcore/structured"
)

// notesReport is the typed answer the composed agent ends each run with.
type notesReport struct {
	Summary string `json:"summary"`
}

// notesSummary is what the scripted model answers a compaction's summary
// request.
const notesSummary = "## Goal\nWrite the notes."

// notesModel is the composed agent's scripted model: "hello" is answered
// with a long typed answer (so that the next run compacts it away), "write
// the notes" with a write call, the write's result in prose (which the
// structured layer nudges), and the nudge with the typed answer.
func notesModel(_ context.Context, call agentcoretest.Call) agentcoretest.Response {
	msgs := call.Request.Messages
	if sys, ok := msgs[0].(*agentcore.SystemMessage); ok && strings.Contains(agentcore.SystemPromptText(sys), "context checkpoints") {
		return agentcoretest.TextResponse(notesSummary)
	}
	var last agentcore.Message
	for i := len(msgs) - 1; i >= 0 && last == nil; i-- {
		if _, sys := msgs[i].(*agentcore.SystemMessage); !sys {
			last = msgs[i] // the layer declares its tool in a system message at the end
		}
	}
	tc := agentcoretest.ToolCall
	switch last := last.(type) {
	case *agentcore.ToolResultMessage:
		return agentcoretest.TextResponse("I wrote notes.txt.")
	case *agentcore.UserMessage:
		switch last.Text() {
		case "hello":
			return agentcoretest.ToolCallResponse(tc("a1", structured.DefaultName, notesReport{Summary: strings.Repeat("A long greeting. ", 3000)}))
		case "write the notes":
			return agentcoretest.ToolCallResponse(tc("w1", "write", map[string]string{"path": "notes.txt", "content": "approved notes\n"}))
		}
		return agentcoretest.ToolCallResponse(tc("a2", structured.DefaultName, notesReport{Summary: "notes.txt written"}))
	}
	return agentcoretest.ErrorResponse("not expected")
}

// notesServer is one process of the composed program: its tracing, its
// typed answer and its AG-UI handler, keeping threads in a session folder.
type notesServer struct {
	answer  *structured.Answer[notesReport]
	handler *agui.Handler
}

// newNotesServer composes, on each thread's Agent, tracing (before the
// Gate, as otel's doc wants), compaction recorded in the thread's file, a
// Gate holding write, the typed answer and pi's coding tools on work.
func newNotesServer(tp *sdktrace.TracerProvider, sessions, work string) *notesServer {
	inst := agentotel.New(agentotel.Config{TracerProvider: tp, AgentName: "notes"})
	s := &notesServer{answer: structured.New(structured.Options[notesReport]{})}
	s.handler = agui.New(agui.Options{
		SessionDir: sessions,
		NewAgent: func(context.Context, *agui.RunInput) (agentcore.Options, error) {
			m := agentcoretest.Model()
			m.ContextWindow, m.MaxTokens = 8192, 2048
			gate := hold.New(hold.Options{
				Policy:  hold.Always(hold.Request{Title: "Write?"}, "write"),
				OnEvent: inst.HoldEvents(nil),
			})
			c := compaction.New(compaction.Options{OnEvent: agui.RecordCompactions(nil)})
			return agentcore.Options{
				SystemPrompt: "You keep notes.", Model: m, StreamFn: agentcoretest.NewFunc(notesModel).Stream,
				Tools:  codingtools.CodingTools(work, nil),
				Layers: []agentcore.Layer{inst, c, gate, s.answer},
			}, nil
		},
	})
	return s
}

// ServeHTTP asks for the typed answer on every run, as structured's doc
// shows for the agui handler.
func (s *notesServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.handler.ServeHTTP(w, r.WithContext(s.answer.Ask(r.Context())))
}

// aguiMessage is a message of the official client's list.
type aguiMessage struct {
	ID         string          `json:"id"`
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"toolCallId"`
	Error      string          `json:"error"`
}

// aguiRun is what restart.mjs reports of one run.
type aguiRun struct {
	Types  []string `json:"types"`
	Events []struct {
		Type    string `json:"type"`
		Message string `json:"message"`
		Outcome struct {
			Type string `json:"type"`
		} `json:"outcome"`
	} `json:"events"`
	Error    *string       `json:"error"`
	Messages []aguiMessage `json:"messages"`
}

// outcome is the type of the run's RUN_FINISHED outcome, "" without one.
func (r aguiRun) outcome() string {
	for _, e := range r.Events {
		if e.Type == "RUN_FINISHED" {
			return e.Outcome.Type
		}
	}
	return ""
}

// TestHoldAcrossRestartComposed is issue 54's "done when": one Agent with
// tracing, a Gate on write, compaction, a typed answer, pi's coding tools
// and a session file, served through the AG-UI handler to the official
// client. The client's second run holds the write; the server restarts (a
// new handler, instrumentation and answer on the same session folder);
// the client approves. Then pi's SessionManager builds from the file the
// context the Agent holds, the trace has the approved write under the
// resuming run, no span failed, and the client lists the real result with
// the IDs it had.
func TestHoldAcrossRestartComposed(t *testing.T) {
	client := installAGUIClient(t)
	check := piCheck(t)

	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	sessions, work := t.TempDir(), t.TempDir()
	var current atomic.Pointer[notesServer]
	current.Store(newNotesServer(tp, sessions, work))
	mux := http.NewServeMux()
	mux.HandleFunc("/agent", func(w http.ResponseWriter, r *http.Request) { current.Load().ServeHTTP(w, r) })
	mux.HandleFunc("GET /restart", func(http.ResponseWriter, *http.Request) {
		current.Store(newNotesServer(tp, sessions, work))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	cmd := exec.CommandContext(t.Context(), "node", "restart.mjs", srv.URL)
	cmd.Dir = client
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	var rep struct {
		Hello, Held, Resumed aguiRun
		Before               []aguiMessage
		Interrupts           []struct {
			ToolCallID string `json:"toolCallId"`
		}
	}
	require.NoError(t, json.Unmarshal(out, &rep), string(out))
	for name, r := range map[string]aguiRun{"hello": rep.Hello, "held": rep.Held, "resumed": rep.Resumed} {
		require.Nil(t, r.Error, "%s: %s (events %v)", name, deref(r.Error), r.Types)
	}
	require.Equal(t, "interrupt", rep.Held.outcome())
	require.Len(t, rep.Interrupts, 1)
	require.Equal(t, "w1", rep.Interrupts[0].ToolCallID)
	require.Equal(t, "success", rep.Resumed.outcome())

	written, err := os.ReadFile(filepath.Join(work, "notes.txt"))
	require.NoError(t, err, "the approved write ran")
	assert.Equal(t, "approved notes\n", string(written))

	restarted := current.Load()
	agent := restarted.handler.Agent("notes")
	require.NotNil(t, agent, "the restarted server holds the thread")
	transcript := agent.Messages()
	got, err := restarted.answer.Result(transcript)
	require.NoError(t, err)
	assert.Equal(t, notesReport{Summary: "notes.txt written"}, got, "the resumed run's typed answer")

	files, err := session.List(sessions)
	require.NoError(t, err)
	require.Len(t, files, 1, "one file for the thread")
	file := files[0].Path

	t.Run("pi builds the Agent's context from the session file", func(t *testing.T) {
		s, err := session.Open(file, &session.Options{ReadOnly: true})
		require.NoError(t, err)
		defer s.Close()
		var compacted bool
		for _, e := range s.Entries() {
			_, ok := e.(*session.Compaction)
			compacted = compacted || ok
		}
		assert.True(t, compacted, "the thread compacted, recorded as pi's compaction entry")

		ctx, ok := check(file)["context"].(map[string]any)
		require.True(t, ok, "pi built a context")
		piMsgs, _ := ctx["messages"].([]any)
		// The Agent's transcript starts with the system prompt NewAgent
		// seeds, which no session records (pi keeps it out of a file).
		seeded := transcript
		for len(seeded) > 0 {
			if _, ok := seeded[0].(*agentcore.SystemMessage); !ok {
				break
			}
			seeded = seeded[1:]
		}
		assert.Equal(t, contextView(t, seeded), contextView(t, piMsgs))
		piJSON, err := json.Marshal(piMsgs)
		require.NoError(t, err)
		assert.NotContains(t, string(piJSON), hold.DefaultPlaceholder, "the placeholder is not in pi's context")
		var nudged bool
		for _, m := range contextView(t, piMsgs) {
			nudged = nudged || m["customType"] == structured.CustomType
		}
		assert.True(t, nudged, "the layer's nudge is its custom message, not a user's")
	})

	t.Run("the approved write runs under the resuming run", func(t *testing.T) {
		ended := spans.Ended()
		byID := map[string]sdktrace.ReadOnlySpan{}
		var writes, runs []sdktrace.ReadOnlySpan
		for _, s := range ended {
			byID[s.SpanContext().SpanID().String()] = s
			assert.NotEqual(t, codes.Error, s.Status().Code, "span %s failed: %s", s.Name(), s.Status().Description)
			switch {
			case s.Name() == "execute_tool write":
				writes = append(writes, s)
			case strings.HasPrefix(s.Name(), "invoke_agent"):
				runs = append(runs, s)
			}
		}
		require.Len(t, runs, 3, "hello, the held write, the resume")
		require.Len(t, writes, 2, "the held call and the approved one")
		heldSpan, approved := writes[0], writes[1]
		if approved.StartTime().Before(heldSpan.StartTime()) {
			heldSpan, approved = approved, heldSpan
		}
		var marked bool
		for _, a := range heldSpan.Attributes() {
			marked = marked || (a.Key == agentotel.AttrHoldHeld && a.Value.AsBool())
		}
		assert.True(t, marked, "the held call's span says it was held")
		parent, ok := byID[approved.Parent().SpanID().String()]
		require.True(t, ok, "the approved write has a parent span")
		assert.True(t, strings.HasPrefix(parent.Name(), "invoke_agent"), "its parent is a run: %s", parent.Name())
		assert.Equal(t, parent.SpanContext().TraceID(), approved.SpanContext().TraceID(), "in the run's trace")
		assert.True(t, parent.StartTime().After(heldSpan.EndTime()), "the resuming run, after the held one")
		assert.False(t, approved.StartTime().Before(parent.StartTime()), "inside the run")
	})

	t.Run("the client lists the real result with the IDs it had", func(t *testing.T) {
		after := rep.Resumed.Messages
		pos := map[string]int{}
		for i, m := range after {
			pos[m.ID] = i
		}
		prev := -1
		for _, b := range rep.Before {
			i, ok := pos[b.ID]
			require.True(t, ok, "the client still holds %s %s", b.Role, b.ID)
			assert.Greater(t, i, prev, "%s keeps its place", b.ID)
			assert.Equal(t, b, after[i], "%s is unchanged", b.ID)
			prev = i
		}
		var result *aguiMessage
		for i, m := range after {
			if m.Role == "tool" && m.ToolCallID == "w1" {
				require.Nil(t, result, "one result for the held call")
				result = &after[i]
			}
		}
		require.NotNil(t, result, "the client lists the write's result")
		assert.JSONEq(t, `"Successfully wrote to notes.txt"`, string(result.Content), "the real result, not the placeholder")
		assert.Empty(t, result.Error)
		assert.Equal(t, placeholderAGUIID(t, file, "w1"), result.ID, "under the ID the handler gave the placeholder")
		for _, m := range after {
			if m.Role == "user" {
				assert.Contains(t, []string{"u-hello", "u-write"}, m.ID, "no user message but the client's: %s", m.Content)
			}
		}
	})
}

// deref is *s, or "" for nil.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// contextView is what of a context both sides must agree on: each
// message's role, content, tool call, custom type and summary. Times are
// left out: pi dates a custom message from its entry, and a restored
// compaction summary carries the compaction's time.
func contextView[M any](t *testing.T, msgs []M) []map[string]any {
	t.Helper()
	out := make([]map[string]any, len(msgs))
	for i, m := range msgs {
		data, err := json.Marshal(m)
		require.NoError(t, err)
		var full map[string]any
		require.NoError(t, json.Unmarshal(data, &full))
		out[i] = map[string]any{}
		for _, k := range []string{"role", "content", "toolCallId", "toolName", "isError", "customType", "display", "summary", "stopReason"} {
			if v, ok := full[k]; ok {
				out[i][k] = v
			}
		}
	}
	return out
}

// placeholderAGUIID is the AG-UI message ID the handler recorded in file
// for the first tool result of call id (the held call's placeholder).
func placeholderAGUIID(t *testing.T, file, id string) string {
	t.Helper()
	s, err := session.Open(file, &session.Options{ReadOnly: true})
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
			if e.CustomType != agui.CustomType || json.Unmarshal(e.Data, &data) != nil {
				continue
			}
			if aguiID, ok := data.IDs[entry]; ok && entry != "" {
				return aguiID
			}
		}
	}
	t.Fatalf("no AG-UI ID recorded for the placeholder of %s", id)
	return ""
}

// missingTool skips the test with why, or fails it when CI=true or
// AGUI_REQUIRE_NODE is set, as the agui and session packages do.
func missingTool(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" || os.Getenv("AGUI_REQUIRE_NODE") != "" {
		t.Fatal(why)
	}
	t.Skip(why)
}

// installAGUIClient installs testdata/client's packages (@ag-ui/client
// 1.0, as its lock file pins them) with npm into a scratch folder holding
// restart.mjs, and returns the folder.
func installAGUIClient(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			missingTool(t, "the AG-UI client needs "+tool+" on PATH")
		}
	}
	dir := t.TempDir()
	for _, f := range []string{"package.json", "package-lock.json", "restart.mjs"} {
		data, err := os.ReadFile(filepath.Join("testdata", "client", f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), data, 0o644))
	}
	cmd := exec.CommandContext(t.Context(), "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error", "--fetch-retries=0")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		missingTool(t, "npm ci of @ag-ui/client failed: "+err.Error()+"\n"+string(out))
	}
	return dir
}

// piCheck returns a function that opens a session file with pi's
// SessionManager through the repository's recorder
// (session/testdata/record, check mode) and returns what pi sees, or
// skips without node 22 (PI_NODE) or the recorder's packages, except in
// CI (CI=true).
func piCheck(t *testing.T) func(file string) map[string]any {
	t.Helper()
	node := os.Getenv("PI_NODE")
	if node == "" {
		node = "node"
	}
	version, err := exec.Command(node, "--version").Output()
	major, _ := strconv.Atoi(strings.SplitN(strings.TrimPrefix(strings.TrimSpace(string(version)), "v"), ".", 2)[0])
	if err != nil || major < 22 {
		missingTool(t, "pi's SessionManager needs node >= 22 (PI_NODE)")
	}
	rec, err := filepath.Abs(filepath.Join("..", "..", "..", "session", "testdata", "record"))
	require.NoError(t, err)
	if _, err := os.Stat(filepath.Join(rec, "node_modules", "@earendil-works", "pi-coding-agent")); err != nil {
		missingTool(t, "pi's SessionManager needs npm ci in session/testdata/record")
	}
	return func(file string) map[string]any {
		cmd := exec.Command(node, filepath.Join(rec, "record.mjs"), "check", file)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		data, err := cmd.Output()
		require.NoError(t, err, stderr.String())
		var res map[string]map[string]any
		require.NoError(t, json.Unmarshal(data, &res))
		require.NotContains(t, res[file], "error")
		return res[file]
	}
}
