package agui_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/agui"
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
	Disconnect clientRun `json:"disconnect"`
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
func clientScripts() map[string][]agentcoretest.Response {
	tc := agentcoretest.ToolCall
	return map[string][]agentcoretest.Response{
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
		"state":      {agentcoretest.ToolCallResponse(tc("s1", "count", nil)), agentcoretest.TextResponse("Counted.")},
		"error":      {agentcoretest.ErrorResponse("the model is overloaded")},
		"disconnect": {agentcoretest.ToolCallResponse(tc("d1", "hang", nil), tc("d2", "weather", cityArgs{"Oslo"}))},
	}
}

func TestOfficialClient(t *testing.T) {
	dir := installClient(t)
	scripts := clientScripts()
	hang := agentcore.NewTool("hang", "Wait for the user.",
		func(ctx context.Context, _ string, _ struct{}, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
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
	fakes := map[string]*agentcoretest.Fake{}
	for thread, script := range scripts {
		fakes[thread] = agentcoretest.New(script...)
	}
	saved := make(chan []agentcore.Message, 1)
	h := agui.New(agui.Options{
		NewAgent: func(_ context.Context, in *agui.RunInput) (agentcore.Options, error) {
			fake := fakes[in.ThreadID]
			if fake == nil {
				return agentcore.Options{}, &agui.HTTPError{Status: 404, Message: "no such thread"}
			}
			return agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{weather, hang, count}}, nil
		},
		OnTranscript: func(thread string, m []agentcore.Message) {
			if thread == "disconnect" {
				saved <- m
			}
		},
	})
	srv := httptest.NewServer(h)
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
	t.Run("disconnect", func(t *testing.T) {
		r := rep.Disconnect
		assert.NotContains(t, r.Types, "RUN_FINISHED")
		msgs := <-saved
		answered := map[string]bool{}
		for _, m := range msgs {
			if res, ok := m.(*agentcore.ToolResultMessage); ok {
				answered[res.ToolCallID] = res.IsError
			}
		}
		assert.Len(t, answered, 2, "every call is answered")
		assert.True(t, answered["d1"], "the call the abort cut off failed")
		last, ok := msgs[len(msgs)-1].(*agentcore.ToolResultMessage)
		if !ok {
			assistant, _ := msgs[len(msgs)-1].(*agentcore.AssistantMessage)
			require.NotNil(t, assistant)
			assert.Equal(t, agentcore.StopAborted, assistant.StopReason)
		} else {
			assert.NotEmpty(t, last.ToolCallID)
		}
	})
}
