package acp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore/acp"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/hold"
	"github.com/pi-go/agentcore/session"
)

func TestBadMessages(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.TextResponse("fine"))
	c := serve(t, acp.NewServer(acp.Options{Ephemeral: true, Agent: codingAgent(fake)}), nil)

	// Before initialize, a method is refused.
	e := c.callErr("session/new", map[string]any{"cwd": "/tmp", "mcpServers": []any{}})
	assert.Equal(t, acp.CodeInvalidRequest, e.Code)
	c.initialize(nil)

	for _, tt := range []struct {
		name, line, id string
		code           int
	}{
		{"not JSON", `{"jsonrpc":"2.0","id":1,`, "null", acp.CodeParseError},
		{"not an object", `[1,2]`, "null", acp.CodeInvalidRequest},
		{"no jsonrpc", `{"id":"a","method":"session/list"}`, `"a"`, acp.CodeInvalidRequest},
		{"bad id", `{"jsonrpc":"2.0","id":{"x":1},"method":"session/new"}`, "null", acp.CodeInvalidRequest},
		{"unknown method", `{"jsonrpc":"2.0","id":"m","method":"session/fly","params":{}}`, `"m"`, acp.CodeMethodNotFound},
		{"params not an object", `{"jsonrpc":"2.0","id":"p","method":"session/new","params":[]}`, `"p"`, acp.CodeInvalidParams},
		{"no params", `{"jsonrpc":"2.0","id":"q","method":"session/prompt"}`, `"q"`, acp.CodeInvalidParams},
		{"relative cwd", `{"jsonrpc":"2.0","id":"r","method":"session/new","params":{"cwd":"rel","mcpServers":[]}}`, `"r"`, acp.CodeInvalidParams},
		{"prompt for an unknown session", `{"jsonrpc":"2.0","id":"u","method":"session/prompt","params":{"sessionId":"nope","prompt":[]}}`, `"u"`, acp.CodeNotFound},
		{"ephemeral load", `{"jsonrpc":"2.0","id":"l","method":"session/load","params":{"sessionId":"x","cwd":"/","mcpServers":[]}}`, `"l"`, acp.CodeMethodNotFound},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := len(c.all)
			c.send(tt.line)
			var got *acp.Error
			require.Eventually(t, func() bool {
				c.mu.Lock()
				defer c.mu.Unlock()
				for _, m := range c.all[before:] {
					if string(m.ID) == tt.id && m.Error != nil {
						got = m.Error
						return true
					}
				}
				return false
			}, waitLong, pollEvery)
			assert.Equal(t, tt.code, got.Code, got.Message)
		})
	}

	// Notifications get no answer, known or not; a cancel for nothing
	// changes nothing.
	c.notify("session/cancel", map[string]any{"sessionId": "nope"})
	c.notify("$/whatever", nil)
	id := c.newSession(t.TempDir())
	c.notify("session/cancel", map[string]any{"sessionId": id})
	for _, tt := range []struct {
		name   string
		prompt any
	}{
		{"empty prompt", []any{}},
		{"audio", []any{map[string]any{"type": "audio", "data": "AA==", "mimeType": "audio/wav"}}},
		{"unknown block", []any{map[string]any{"type": "video"}}},
		{"image not base64", []any{map[string]any{"type": "image", "data": "%%%", "mimeType": "image/png"}}},
		{"embedded image not base64", []any{map[string]any{"type": "resource", "resource": map[string]any{"uri": "file:///a.png", "blob": "%%%", "mimeType": "image/png"}}}},
		{"resource without contents", []any{map[string]any{"type": "resource", "resource": map[string]any{"uri": "file:///a"}}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := c.callErr("session/prompt", map[string]any{"sessionId": id, "prompt": tt.prompt})
			assert.Equal(t, acp.CodeInvalidParams, e.Code, e.Message)
		})
	}
	assert.Equal(t, "end_turn", c.prompt(id, "still there?"), "the session is usable")
	assert.Equal(t, 1, fake.CallCount())
}

func TestSecondPromptWhileOneRuns(t *testing.T) {
	started := make(chan struct{}, 1)
	tc := agentcoretest.ToolCall
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(tc("w1", "wait", map[string]any{})), agentcoretest.TextResponse("unheard"), agentcoretest.TextResponse("after"))
	c := serve(t, acp.NewServer(acp.Options{Ephemeral: true, Agent: codingAgent(fake, blocker(started))}), nil)
	c.initialize(nil)
	id := c.newSession(t.TempDir())
	first := c.start("session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": "wait"}}})
	<-started
	e := c.callErr("session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": "again"}}})
	assert.Equal(t, acp.CodeInvalidRequest, e.Code)
	c.notify("session/cancel", map[string]any{"sessionId": id})
	assert.JSONEq(t, `{"stopReason":"cancelled"}`, string(c.wait(first).Result))
	assert.Equal(t, "end_turn", c.prompt(id, "now"))
}

func TestClientVanishesMidRun(t *testing.T) {
	started := make(chan struct{}, 1)
	tc := agentcoretest.ToolCall
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(tc("w1", "wait", map[string]any{})), agentcoretest.TextResponse("unheard"), agentcoretest.TextResponse("back"))
	dir, cwd := t.TempDir(), t.TempDir()
	opts := acp.Options{AgentDir: dir, Agent: codingAgent(fake, blocker(started))}
	c := serve(t, acp.NewServer(opts), nil)
	c.initialize(nil)
	id := c.newSession(cwd)
	c.start("session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": "wait"}}})
	<-started
	require.NoError(t, c.hangUp(), "the client left: not the server's failure")

	// The file is whole and unlocked: every message ended is in it.
	infos, err := session.List(session.Dir(dir, cwd))
	require.NoError(t, err)
	require.Len(t, infos, 1)
	var bad []*session.LineError
	s, err := session.Open(infos[0].Path, &session.Options{OnBadLine: func(e *session.LineError) error { bad = append(bad, e); return nil }})
	require.NoError(t, err, "unlocked")
	assert.Empty(t, bad)
	roles := []string{}
	for _, m := range s.Context().Messages {
		roles = append(roles, m.Role())
	}
	require.NoError(t, s.Close())
	assert.Equal(t, []string{"user", "assistant", "toolResult", "assistant"}, roles)

	// Another client loads it and goes on.
	c2 := serve(t, acp.NewServer(opts), nil)
	c2.initialize(nil)
	c2.call("session/load", map[string]any{"sessionId": id, "cwd": cwd, "mcpServers": []any{}})
	assert.Equal(t, "end_turn", c2.prompt(id, "back?"))
}

func TestServeEndsWithItsContext(t *testing.T) {
	srv := acp.NewServer(acp.Options{Ephemeral: true, Agent: codingAgent(agentcoretest.New())})
	ctx, cancel := context.WithCancel(t.Context())
	r, w := ioPipe()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, rw{r, discard{}}) }()
	_, _ = w.Write([]byte(`{"jsonrpc":"2.0","method":"x"}` + "\n"))
	cancel()
	select {
	case err := <-done:
		assert.ErrorIs(t, err, context.Canceled)
	case <-time.After(waitLong):
		t.Fatal("Serve did not return")
	}
}

func TestClientVanishesWhileAsked(t *testing.T) {
	tc := agentcoretest.ToolCall
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(tc("w1", "write", map[string]any{"path": "a.txt", "content": "x"})), agentcoretest.TextResponse("after"))
	dir, cwd := t.TempDir(), t.TempDir()
	asked, release := make(chan struct{}, 1), make(chan struct{})
	opts := acp.Options{AgentDir: dir, Agent: codingAgent(fake), Permission: hold.Always(hold.Request{}, "write")}
	c := serve(t, acp.NewServer(opts), func(string, json.RawMessage) (any, *acp.Error) {
		asked <- struct{}{}
		<-release
		return nil, &acp.Error{Code: acp.CodeInternalError, Message: "gone"}
	})
	c.initialize(nil)
	id := c.newSession(cwd)
	c.start("session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": "write"}}})
	<-asked
	require.NoError(t, c.hangUp())
	close(release)
	_, err := os.Stat(filepath.Join(cwd, "a.txt"))
	assert.ErrorIs(t, err, os.ErrNotExist, "the call never ran")
	assert.Equal(t, 1, fake.CallCount(), "nothing ran after the client left")

	// The session loads and goes on.
	c2 := serve(t, acp.NewServer(opts), nil)
	c2.initialize(nil)
	c2.call("session/load", map[string]any{"sessionId": id, "cwd": cwd, "mcpServers": []any{}})
	assert.Equal(t, "end_turn", c2.prompt(id, "again"))
}

func TestHostileInput(t *testing.T) {
	c := serve(t, acp.NewServer(acp.Options{Ephemeral: true, MaxMessageBytes: 1 << 16, Agent: codingAgent(agentcoretest.New())}), nil)
	c.initialize(nil)
	// A line over the limit is answered with a parse error, whole.
	c.send(`{"jsonrpc":"2.0","id":"big","method":"session/list","params":{"x":"` + strings.Repeat("a", 1<<17) + `"}}`)
	// A deep nesting is a parse error of the decoder, not a crash.
	c.send(strings.Repeat("[", 1<<15))
	// A flood of requests: each answered, some refused as too many.
	for i := range 2000 {
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":"f%d","method":"session/list","params":{}}`, i))
	}
	require.Eventually(t, func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		answered := 0
		for _, m := range c.all {
			if strings.HasPrefix(string(m.ID), `"f`) {
				answered++
			}
		}
		return answered == 2000
	}, waitLong, pollEvery)
	c.mu.Lock()
	var parseErrors int
	for _, m := range c.all {
		if m.Error != nil && m.Error.Code == acp.CodeParseError {
			parseErrors++
		}
	}
	c.mu.Unlock()
	assert.Equal(t, 2, parseErrors)
	assert.NotNil(t, c.callErr("session/prompt", map[string]any{"sessionId": "x", "prompt": []any{}}), "still serving")
}

// enteredWriter tells when a Write begins.
type enteredWriter struct {
	w       io.Writer
	once    sync.Once
	entered chan struct{}
}

func (e *enteredWriter) Write(p []byte) (int, error) {
	e.once.Do(func() { close(e.entered) })
	return e.w.Write(p)
}

// A client that stops reading keeps a Write blocked; Serve still returns
// when its ctx ends.
func TestServeEndsWithItsContextWhileAWriteBlocks(t *testing.T) {
	srv := acp.NewServer(acp.Options{Ephemeral: true, Agent: codingAgent(agentcoretest.New())})
	ctx, cancel := context.WithCancel(t.Context())
	in, toServer := ioPipe()
	unread, out := ioPipe() // never read
	w := &enteredWriter{w: out, entered: make(chan struct{})}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, rw{in, w}) }()
	defer toServer.Close()
	defer unread.Close() // ends the Write, once the test is over
	req := `{"jsonrpc":"2.0","id":%d,"method":"initialize","params":{"protocolVersion":1}}` + "\n"
	_, err := fmt.Fprintf(toServer, req, 1)
	require.NoError(t, err)
	select {
	case <-w.entered:
	case <-time.After(waitLong):
		t.Fatal("the server wrote nothing")
	}
	// A second answer waits behind the first.
	_, err = fmt.Fprintf(toServer, req, 2)
	require.NoError(t, err)
	cancel()
	select {
	case err := <-done:
		assert.ErrorIs(t, err, context.Canceled)
	case <-time.After(waitLong):
		t.Fatal("Serve did not return")
	}
}
