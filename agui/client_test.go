package agui_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/agui"
	"github.com/pi-go/agentcore/hold"
)

// requireNode, when set in the environment (CI sets it), makes the client
// test fail instead of skipping when node or the npm registry is missing.
const requireNode = "AGUI_REQUIRE_NODE"

// clientRun is what client.mjs reports of one run.
type clientRun struct {
	Types       []string        `json:"types"`
	Events      []event         `json:"events"`
	Error       *string         `json:"error"`
	NewMessages int             `json:"newMessages"`
	AtStep      []message       `json:"atStep"`
	Messages    []message       `json:"messages"`
	State       json.RawMessage `json:"state"`
}

type clientReport struct {
	Text      clientRun `json:"text"`
	Reasoning clientRun `json:"reasoning"`
	Parallel  clientRun `json:"parallel"`
	Frontend  struct {
		First  clientRun `json:"first"`
		Second clientRun `json:"second"`
	} `json:"frontend"`
	State      clientRun `json:"state"`
	Error      clientRun `json:"error"`
	Unanswered struct {
		First  clientRun `json:"first"`
		Second clientRun `json:"second"`
	} `json:"unanswered"`
	Disconnect struct {
		First  clientRun `json:"first"`
		Second clientRun `json:"second"`
	} `json:"disconnect"`
	History struct {
		First  clientRun `json:"first"`
		Second clientRun `json:"second"`
	} `json:"history"`
	Approve decided `json:"approve"`
	Deny    decided `json:"deny"`
	Restart struct {
		First  clientRun `json:"first"`
		Second clientRun `json:"second"`
		Before []message `json:"before"` // the client's messages before the restart
	} `json:"restart"`
}

// decided is what client.mjs reports of a thread whose held call the
// client decided with its resume API.
type decided struct {
	First      clientRun        `json:"first"`
	Second     clientRun        `json:"second"`
	Interrupts []interruptEvent `json:"interrupts"` // agent.pendingInterrupts after the first run
	Refused    string           `json:"refused"`    // the client's error for a run without resume
	After      []interruptEvent `json:"after"`      // agent.pendingInterrupts after the second
}

// runs lists every run of client.mjs by name.
func (r *clientReport) runs() map[string]clientRun {
	runs := map[string]clientRun{
		"frontend first": r.Frontend.First, "unanswered first": r.Unanswered.First,
		"disconnect first": r.Disconnect.First, "history first": r.History.First,
		"approve first": r.Approve.First, "deny first": r.Deny.First,
	}
	for thread, run := range r.lastRuns() {
		runs[thread] = run
	}
	return runs
}

// lastRuns is the last run of each thread of client.mjs.
func (r *clientReport) lastRuns() map[string]clientRun {
	return map[string]clientRun{
		"text": r.Text, "reasoning": r.Reasoning, "parallel": r.Parallel, "frontend": r.Frontend.Second,
		"state": r.State, "error": r.Error, "unanswered": r.Unanswered.Second,
		"disconnect": r.Disconnect.Second, "history": r.History.Second,
		"approve": r.Approve.Second, "deny": r.Deny.Second,
	}
}

// skipOrFail skips the test with why, or fails it under AGUI_REQUIRE_NODE.
func skipOrFail(t *testing.T, why string) {
	t.Helper()
	if os.Getenv(requireNode) != "" {
		t.Fatal(why)
	}
	t.Skip(why + " (set " + requireNode + "=1 to make this a failure)")
}

// installClient installs testdata/client's packages, as its lock file
// pins them, into a scratch folder with npm and returns the folder, which
// holds client.mjs.
func installClient(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			skipOrFail(t, "the AG-UI client test needs "+tool+" on PATH")
		}
	}
	if err := pingRegistry(t.Context()); err != nil {
		skipOrFail(t, "npm cannot reach its registry: "+err.Error())
	}
	dir := t.TempDir()
	for _, f := range []string{"package.json", "package-lock.json", "client.mjs"} {
		data, err := os.ReadFile(filepath.Join("testdata", "client", f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), data, 0o644))
	}
	cmd := exec.CommandContext(t.Context(), "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		skipOrFail(t, "npm install @ag-ui/client failed: "+err.Error()+"\n"+string(out))
	}
	return dir
}

// pingTimeout bounds the probe of the npm registry: without one, npm ci
// takes over a minute of retries to give up.
const pingTimeout = 10 * time.Second

// pingRegistry asks npm whether its registry answers, without retries.
func pingRegistry(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "ping", "--fetch-retries=0", "--fetch-timeout=5000", "--loglevel=error")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("npm ping: %w\n%s", err, out)
	}
	return nil
}

// clientScripts answers each thread of client.mjs with its scenario.
func clientScripts() map[string]*agentcoretest.Fake {
	tc := agentcoretest.ToolCall
	scripts := map[string][]agentcoretest.Response{
		"text": {{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "Hello from Go"}}, Chunks: 3}},
		"reasoning": {{Content: []agentcore.ContentBlock{
			agentcore.ThinkingBlock{Thinking: "The user asks why.", ThinkingSignature: "enc-1"},
			agentcore.TextBlock{Text: "Because."},
		}, Chunks: 2}},
		"parallel": {
			agentcoretest.ToolCallResponse(tc("p1", "weather", cityArgs{"Paris"}), tc("p2", "weather", cityArgs{"Rome"})),
			agentcoretest.TextResponse("Sunny in both."),
		},
		"frontend": {
			agentcoretest.ToolCallResponse(tc("f1", "confirm", map[string]string{"question": "Deploy to production?"}), tc("f2", "weather", cityArgs{"Oslo"})),
			agentcoretest.TextResponse("Deployed."),
		},
		"state": {agentcoretest.ToolCallResponse(tc("s1", "count", nil)), agentcoretest.TextResponse("Counted.")},
		"error": {agentcoretest.ErrorResponse("the model is overloaded")},
		"unanswered": {
			agentcoretest.ToolCallResponse(tc("u1", "confirm", map[string]string{"question": "Deploy?"}), tc("u2", "weather", cityArgs{"Oslo"})),
			agentcoretest.TextResponse("Hi."),
		},
		"history": {
			{Content: []agentcore.ContentBlock{
				agentcore.ThinkingBlock{Thinking: "Now I think again.", ThinkingSignature: "sig-1"},
				agentcore.TextBlock{Text: "Now this."},
			}},
			agentcoretest.TextResponse("Once more, then."),
		},
	}
	fakes := map[string]*agentcoretest.Fake{}
	for thread, script := range scripts {
		fakes[thread] = agentcoretest.New(script...)
	}
	for _, thread := range []string{"approve", "deny"} {
		fakes[thread] = agentcoretest.New(
			agentcoretest.ToolCallResponse(tc("a1", "deploy", deployArgs{Service: "web", Env: "prod"}), tc("a2", "weather", cityArgs{"Oslo"})),
			agentcoretest.TextResponse("Done as you said."),
		)
	}
	// The disconnect thread calls a tool that waits for the client, which
	// leaves; a request after that (the loop's, with the run aborted, or
	// the client's next question) is answered by its last message.
	fakes["disconnect"] = agentcoretest.NewFunc(func(_ context.Context, call agentcoretest.Call) agentcoretest.Response {
		msgs := call.Request.Messages
		if u, ok := msgs[len(msgs)-1].(*agentcore.UserMessage); ok {
			if u.Content.Text() == "are you there?" {
				return agentcoretest.TextResponse("Yes, here.")
			}
			return agentcoretest.ToolCallResponse(tc("d1", "hang", nil), tc("d2", "weather", cityArgs{"Oslo"}))
		}
		return agentcoretest.TextResponse("The job was cut off.")
	})
	return fakes
}

// listed is an AG-UI message as the comparison of message lists sees it:
// what a client shows, content decoded.
type listed struct {
	ID             string
	Role           string
	Content        any
	ToolCallID     string
	Error          string
	EncryptedValue string
	ToolCalls      []toolCall
}

// listing decodes messages for comparison.
func listing(t *testing.T, msgs []message) []listed {
	t.Helper()
	out := make([]listed, len(msgs))
	for i, m := range msgs {
		out[i] = listed{ID: m.ID, Role: m.Role, ToolCallID: m.ToolCallID, Error: m.Error, EncryptedValue: m.EncryptedValue, ToolCalls: m.ToolCalls}
		if len(m.Content) > 0 {
			require.NoError(t, json.Unmarshal(m.Content, &out[i].Content))
		}
	}
	return out
}

// transcriptListing is the handler's transcript of a thread as the
// client should list it.
func transcriptListing(t *testing.T, h *agui.Handler, thread string) []listed {
	t.Helper()
	var msgs []message
	for _, raw := range h.Transcript(thread) {
		var m message
		require.NoError(t, json.Unmarshal(raw, &m))
		msgs = append(msgs, m)
	}
	return listing(t, msgs)
}

// leftSignal serves h and tells, on GET /left, that a request whose URL
// has ?signal=left has ended (its thread is free again): the client asks
// again only then, without guessing how long the server takes.
func leftSignal(h *agui.Handler) http.Handler {
	ended := make(chan struct{}, 1)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /left", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-ended:
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r)
		if r.URL.Query().Get("signal") == "left" {
			select {
			case ended <- struct{}{}:
			default:
			}
		}
	})
	return mux
}

func TestOfficialClient(t *testing.T) {
	dir := installClient(t)
	hang := agentcore.NewTool("hang", "Wait for the user.",
		func(ctx context.Context, _ string, _ struct{}, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			if err := agui.SetState(ctx, json.RawMessage(`{"job":"running"}`)); err != nil {
				return agentcore.ToolResult{}, err
			}
			<-ctx.Done()
			return agentcore.ToolResult{}, ctx.Err()
		})
	count := agentcore.NewTool("count", "Count in the shared state.",
		func(ctx context.Context, _ string, _ struct{}, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			if err := agui.SetState(ctx, json.RawMessage(`{"count":1,"items":["a"]}`)); err != nil {
				return agentcore.ToolResult{}, err
			}
			err := agui.PatchState(ctx, json.RawMessage(`[{"op":"replace","path":"/count","value":2},{"op":"add","path":"/items/-","value":"b"}]`))
			return agentcore.TextResult("counted"), err
		})
	fakes := clientScripts()
	var mu sync.Mutex
	stored := map[string][][]agentcore.Message{}
	h := agui.New(agui.Options{
		NewAgent: func(_ context.Context, in *agui.RunInput) (agentcore.Options, error) {
			fake := fakes[in.ThreadID]
			if fake == nil {
				return agentcore.Options{}, &agui.HTTPError{Status: 404, Message: "no such thread"}
			}
			opts := agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{weather, hang, count, deploy}}
			if in.ThreadID == "approve" || in.ThreadID == "deny" {
				opts.Layers = []agentcore.Layer{hold.New(hold.Options{Policy: hold.Always(hold.Request{Title: "Deploy?"}, "deploy")})}
			}
			return opts, nil
		},
		OnTranscript: func(thread string, m []agentcore.Message) {
			mu.Lock()
			defer mu.Unlock()
			stored[thread] = append(stored[thread], m)
		},
	})
	// The restart thread lives in session files, served by a handler that
	// GET /restart replaces with a fresh one on the same folder.
	folder := t.TempDir()
	restartFake := agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("r1", "deploy", deployArgs{Service: "web", Env: "prod"}), agentcoretest.ToolCall("r2", "weather", cityArgs{"Oslo"})),
		agentcoretest.TextResponse("Deployed after the restart."),
	)
	var restarting atomic.Pointer[agui.Handler]
	restarting.Store(sessionHandler(folder, restartFake))
	mux := http.NewServeMux()
	mux.Handle("/", leftSignal(h))
	mux.HandleFunc("/sessions", func(w http.ResponseWriter, r *http.Request) { restarting.Load().ServeHTTP(w, r) })
	mux.HandleFunc("GET /restart", func(http.ResponseWriter, *http.Request) { restarting.Store(sessionHandler(folder, restartFake)) })
	srv := httptest.NewServer(mux)
	defer srv.Close()

	cmd := exec.CommandContext(t.Context(), "node", "client.mjs", srv.URL)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	if stderr.Len() > 0 {
		t.Logf("client.mjs stderr:\n%s", stderr.String())
	}
	var rep clientReport
	require.NoError(t, json.Unmarshal(out, &rep), string(out))

	t.Run("the client lists the transcript", func(t *testing.T) {
		for thread, r := range rep.lastRuns() {
			assert.Equal(t, transcriptListing(t, h, thread), listing(t, r.Messages), "thread %s", thread)
		}
	})
	t.Run("a run brings the client up to date before its first step", func(t *testing.T) {
		for name, r := range rep.runs() {
			thread, _, _ := strings.Cut(name, " ")
			if thread == "disconnect" && r.AtStep == nil {
				continue
			}
			want := transcriptListing(t, h, thread)
			require.NotEmpty(t, r.AtStep, name)
			require.LessOrEqual(t, len(r.AtStep), len(want), name)
			assert.Equal(t, want[:len(r.AtStep)], listing(t, r.AtStep), name)
			if thread == "error" {
				continue // the failed response has no event: a snapshot ends the run
			}
			step := slices.Index(r.Types, "STEP_STARTED")
			assert.NotContains(t, r.Types[step:], "MESSAGES_SNAPSHOT", "%s: the events alone bring the run's messages", name)
		}
	})
	t.Run("text", func(t *testing.T) {
		r := rep.Text
		require.Nil(t, r.Error)
		assert.Equal(t, "RUN_STARTED", r.Types[0])
		assert.Equal(t, "RUN_FINISHED", r.Types[len(r.Types)-1])
		require.Len(t, r.Messages, 2)
		assert.JSONEq(t, `"Hello from Go"`, string(r.Messages[1].Content))
		assert.Len(t, find(r.Events, "TEXT_MESSAGE_CONTENT"), 3)
	})
	t.Run("reasoning", func(t *testing.T) {
		r := rep.Reasoning
		require.Nil(t, r.Error)
		assert.Equal(t, []string{"user", "reasoning", "assistant"}, roles(r.Messages))
		assert.JSONEq(t, `"The user asks why."`, string(r.Messages[1].Content))
		assert.Equal(t, "enc-1", r.Messages[1].EncryptedValue)
	})
	t.Run("parallel tool calls", func(t *testing.T) {
		r := rep.Parallel
		require.Nil(t, r.Error)
		assert.Equal(t, []string{"user", "assistant", "tool", "tool", "assistant"}, roles(r.Messages))
		require.Len(t, r.Messages[1].ToolCalls, 2)
		assert.Len(t, find(r.Events, "TOOL_CALL_RESULT"), 2)
	})
	t.Run("front-end tool", func(t *testing.T) {
		first, second := rep.Frontend.First, rep.Frontend.Second
		require.Nil(t, first.Error)
		require.Nil(t, second.Error)
		fin := find(first.Events, "RUN_FINISHED")[0]
		assert.Equal(t, []string{"f1"}, fin.Outcome.PendingToolCallIDs)
		assert.Equal(t, []string{"user", "assistant", "tool", "tool", "assistant"}, roles(second.Messages))
		last := second.Messages[len(second.Messages)-1]
		assert.JSONEq(t, `"Deployed."`, string(last.Content))
		calls := fakes["frontend"].Calls()
		require.Len(t, calls, 2)
		var answer string
		for _, m := range calls[1].Request.Messages {
			if r, ok := m.(*agentcore.ToolResultMessage); ok && r.ToolCallID == "f1" {
				answer = agentcore.Blocks(r.Content...).Text()
			}
		}
		assert.Equal(t, "yes to: Deploy to production?", answer)
	})
	t.Run("state", func(t *testing.T) {
		r := rep.State
		require.Nil(t, r.Error)
		assert.JSONEq(t, `{"count":2,"items":["a","b"]}`, string(r.State), "the client applied the snapshot and the patch")
	})
	t.Run("error", func(t *testing.T) {
		r := rep.Error
		assert.Equal(t, "RUN_ERROR", r.Types[len(r.Types)-1])
		assert.Equal(t, "the model is overloaded", find(r.Events, "RUN_ERROR")[0].Message)
	})
	t.Run("unanswered front-end call", func(t *testing.T) {
		first, second := rep.Unanswered.First, rep.Unanswered.Second
		require.Nil(t, first.Error)
		require.Nil(t, second.Error)
		assert.Equal(t, []string{"user", "assistant", "tool"}, roles(first.Messages), "no placeholder while the call is pending")
		assert.Equal(t, []string{"user", "assistant", "tool", "tool", "user", "assistant"}, roles(second.Messages),
			"the placeholder lands in transcript order, before the new question")
		placeholder := second.Messages[2]
		if placeholder.ToolCallID != "u1" {
			placeholder = second.Messages[3]
		}
		assert.Equal(t, "u1", placeholder.ToolCallID)
		assert.NotEmpty(t, placeholder.Error, "the placeholder is a failed result")
	})
	t.Run("a client that left", func(t *testing.T) {
		first, second := rep.Disconnect.First, rep.Disconnect.Second
		assert.NotContains(t, first.Types, "RUN_FINISHED")
		assert.Empty(t, find(first.Events, "TOOL_CALL_RESULT"), "the client left before any result")
		require.Nil(t, second.Error)
		mu.Lock()
		left := stored["disconnect"][0]
		mu.Unlock()
		answered := map[string]bool{}
		for _, m := range left {
			if res, ok := m.(*agentcore.ToolResultMessage); ok {
				answered[res.ToolCallID] = res.IsError
			}
		}
		assert.Len(t, answered, 2, "every call is answered")
		assert.True(t, answered["d1"], "the call the abort cut off failed")
		var results []string
		for _, m := range second.Messages {
			if m.Role == "tool" {
				results = append(results, m.ToolCallID)
			}
		}
		assert.Equal(t, []string{"d1", "d2"}, results, "the results made after the client left reach it")
		last := second.Messages[len(second.Messages)-1]
		assert.JSONEq(t, `"Yes, here."`, string(last.Content))
		assert.Equal(t, "disconnect-u2", second.Messages[len(second.Messages)-2].ID, "the new answer comes after what the client lacked")
	})
	t.Run("approved by the client's resume", func(t *testing.T) {
		assertDecided(t, rep.Approve, fakes["approve"], "deployed web to staging", false)
	})
	t.Run("denied by the client's resume", func(t *testing.T) {
		assertDecided(t, rep.Deny, fakes["deny"], "not on a Friday", true)
	})
	t.Run("a server restarted between interrupt and resume", func(t *testing.T) {
		first, second := rep.Restart.First, rep.Restart.Second
		require.Nil(t, first.Error)
		require.Nil(t, second.Error)
		assert.Equal(t, "interrupt", find(first.Events, "RUN_FINISHED")[0].Outcome.Type)
		assert.Equal(t, "success", find(second.Events, "RUN_FINISHED")[0].Outcome.Type)
		assert.Equal(t, transcriptListing(t, restarting.Load(), "restart"), listing(t, second.Messages),
			"the client lists the restarted server's transcript")
		var kept []message
		for _, m := range second.Messages {
			if slices.ContainsFunc(rep.Restart.Before, func(b message) bool { return b.ID == m.ID }) {
				kept = append(kept, m)
			}
		}
		assert.Equal(t, listing(t, rep.Restart.Before), listing(t, kept), "the messages the client held keep their IDs and place")
		assert.Equal(t, []string{"r1", "r2"}, toolResults(second.Messages))
		for _, m := range second.Messages {
			if m.ToolCallID == "r1" {
				assert.JSONEq(t, `"deployed web to prod"`, string(m.Content), "the real result, not the placeholder")
				assert.Empty(t, m.Error)
				assert.Equal(t, placeholderID(t, folder, "r1"), m.ID, "under the ID the handler gave the placeholder")
			}
		}
		last := second.Messages[len(second.Messages)-1]
		assert.JSONEq(t, `"Deployed after the restart."`, string(last.Content))
	})
	t.Run("a client's reasoning message", func(t *testing.T) {
		first, second := rep.History.First, rep.History.Second
		require.Nil(t, first.Error)
		require.Nil(t, second.Error)
		var ids []string
		for _, m := range second.Messages {
			ids = append(ids, m.ID)
		}
		assert.Equal(t, []string{"h-u0", "h-r1", "h-a1", "h-u1"}, ids[:4], "the client's IDs are kept")
		assert.Equal(t, 1, countID(ids, "h-r1"), "the reasoning message is not duplicated")
		assert.Equal(t, []string{"user", "reasoning", "assistant", "user", "reasoning", "assistant", "user", "assistant"}, roles(second.Messages))
		assert.Equal(t, "sig-0", second.Messages[1].EncryptedValue)
	})
}

// assertDecided checks a thread whose held deploy call the client decided
// with its resume API.
func assertDecided(t *testing.T, d decided, fake *agentcoretest.Fake, result string, isError bool) {
	t.Helper()
	require.Nil(t, d.First.Error)
	require.Nil(t, d.Second.Error)
	fin := find(d.First.Events, "RUN_FINISHED")[0]
	assert.Equal(t, "interrupt", fin.Outcome.Type)
	require.Len(t, d.Interrupts, 1, "the client holds the interrupt")
	assert.Equal(t, "a1", d.Interrupts[0].ToolCallID)
	assert.Equal(t, "deploy", d.Interrupts[0].Metadata.Tool)
	assert.Contains(t, d.Refused, "pending interrupt", "the client will not run on without answering")
	assert.Empty(t, d.After, "the resume answered it")
	assert.Equal(t, "success", find(d.Second.Events, "RUN_FINISHED")[0].Outcome.Type)
	assert.Equal(t, []string{"a1", "a2"}, toolResults(d.Second.Messages), "the results in call order")
	text, gotError := resultOf(fake, "a1")
	assert.Contains(t, text, result)
	assert.Equal(t, isError, gotError)
}

// toolResults lists the tool call IDs of the tool messages of msgs.
func toolResults(msgs []message) []string {
	var ids []string
	for _, m := range msgs {
		if m.Role == "tool" {
			ids = append(ids, m.ToolCallID)
		}
	}
	return ids
}

// countID counts id in ids.
func countID(ids []string, id string) int {
	n := 0
	for _, x := range ids {
		if x == id {
			n++
		}
	}
	return n
}
