package acp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/acp"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/codingtools"
)

// waitLong bounds every wait of a test on the server: a hang fails the
// test rather than the run.
const waitLong = 20 * time.Second

// pollEvery is how often a test looks again for what it waits for.
const pollEvery = 5 * time.Millisecond

// message is any JSON-RPC message the server sent.
type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *acp.Error      `json:"error,omitempty"`
}

// update is a session/update notification's params, decoded loosely.
type update struct {
	SessionID string         `json:"sessionId"`
	Update    map[string]any `json:"update"`
}

// client is a test's ACP client: it sends requests and notifications,
// records every message of the server, and answers the server's requests
// with answer.
type client struct {
	t      *testing.T
	w      *io.PipeWriter
	answer func(method string, params json.RawMessage) (any, *acp.Error)

	mu      sync.Mutex
	nextID  int
	pending map[string]chan message
	all     []message
	served  chan error
}

// serve starts srv on a pipe and returns its client; the test's end
// closes the client's side and waits for Serve to return.
func serve(t *testing.T, srv *acp.Server, answer func(string, json.RawMessage) (any, *acp.Error)) *client {
	t.Helper()
	toServer, fromClient := io.Pipe()
	fromServer, toClient := io.Pipe()
	c := &client{t: t, w: fromClient, answer: answer, pending: map[string]chan message{}, served: make(chan error, 1)}
	go func() {
		err := srv.Serve(context.Background(), struct {
			io.Reader
			io.Writer
		}{toServer, toClient})
		toClient.Close()
		c.served <- err
	}()
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		c.read(fromServer)
	}()
	t.Cleanup(func() {
		c.w.Close()
		select {
		case <-c.served:
		case <-time.After(waitLong):
			t.Error("Serve did not return")
		}
		<-readDone
	})
	return c
}

// hangUp closes the client's side, as a client that goes away, and
// waits for Serve to return.
func (c *client) hangUp() error {
	c.w.Close()
	select {
	case err := <-c.served:
		c.served <- err
		return err
	case <-time.After(waitLong):
		c.t.Fatal("Serve did not return")
		return nil
	}
}

func (c *client) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var m message
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			c.t.Errorf("the server sent a bad line %q: %v", sc.Text(), err)
			continue
		}
		c.mu.Lock()
		c.all = append(c.all, m)
		ch := c.pending[string(m.ID)]
		if m.Method == "" {
			delete(c.pending, string(m.ID))
		}
		c.mu.Unlock()
		switch {
		case m.Method != "" && len(m.ID) > 0:
			go c.serveRequest(m)
		case m.Method == "" && ch != nil:
			ch <- m
		}
	}
	c.mu.Lock()
	for id, ch := range c.pending {
		close(ch)
		delete(c.pending, id)
	}
	c.mu.Unlock()
}

func (c *client) serveRequest(m message) {
	var result any
	var rerr *acp.Error
	if c.answer == nil {
		rerr = &acp.Error{Code: acp.CodeMethodNotFound, Message: "no"}
	} else {
		result, rerr = c.answer(m.Method, m.Params)
	}
	out := map[string]any{"jsonrpc": "2.0", "id": m.ID}
	if rerr != nil {
		out["error"] = rerr
	} else {
		out["result"] = result
	}
	c.writeJSON(out)
}

func (c *client) writeJSON(v any) {
	data, err := json.Marshal(v)
	require.NoError(c.t, err)
	c.send(string(data))
}

// send writes one raw line.
func (c *client) send(line string) {
	_, _ = c.w.Write([]byte(line + "\n"))
}

// start sends a request and returns the channel its response comes on.
func (c *client) start(method string, params any) chan message {
	c.mu.Lock()
	c.nextID++
	id := strconv.Itoa(c.nextID)
	ch := make(chan message, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	c.writeJSON(map[string]any{"jsonrpc": "2.0", "id": c.nextID, "method": method, "params": params})
	return ch
}

// wait returns the response on ch.
func (c *client) wait(ch chan message) message {
	c.t.Helper()
	select {
	case m, ok := <-ch:
		if !ok {
			c.t.Fatal("the connection ended before the response")
		}
		return m
	case <-time.After(waitLong):
		c.t.Fatal("no response")
		return message{}
	}
}

// call sends a request and returns its result, failing the test on an
// error response.
func (c *client) call(method string, params any) json.RawMessage {
	c.t.Helper()
	m := c.wait(c.start(method, params))
	require.Nil(c.t, m.Error, "%s: %v", method, m.Error)
	return m.Result
}

// callErr sends a request that must fail, and returns its error.
func (c *client) callErr(method string, params any) *acp.Error {
	c.t.Helper()
	m := c.wait(c.start(method, params))
	require.NotNil(c.t, m.Error, "%s succeeded: %s", method, m.Result)
	return m.Error
}

func (c *client) notify(method string, params any) {
	c.writeJSON(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// init initializes with caps as the client's capabilities.
func (c *client) initialize(caps map[string]any) map[string]any {
	c.t.Helper()
	var res map[string]any
	require.NoError(c.t, json.Unmarshal(c.call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": caps}), &res))
	return res
}

// newSession opens a session in cwd and returns its ID.
func (c *client) newSession(cwd string) string {
	c.t.Helper()
	var res struct {
		SessionID string `json:"sessionId"`
	}
	require.NoError(c.t, json.Unmarshal(c.call("session/new", map[string]any{"cwd": cwd, "mcpServers": []any{}}), &res))
	return res.SessionID
}

// prompt sends a text prompt and returns its stop reason.
func (c *client) prompt(session, text string) string {
	c.t.Helper()
	var res struct {
		StopReason string `json:"stopReason"`
	}
	require.NoError(c.t, json.Unmarshal(c.call("session/prompt", map[string]any{"sessionId": session, "prompt": []any{map[string]any{"type": "text", "text": text}}}), &res))
	return res.StopReason
}

// updates returns the session/update notifications so far.
func (c *client) updates() []update {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []update
	for _, m := range c.all {
		if m.Method == "session/update" {
			var u update
			require.NoError(c.t, json.Unmarshal(m.Params, &u))
			out = append(out, u)
		}
	}
	return out
}

// requests returns the server's requests of method so far.
func (c *client) requests(method string) []json.RawMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []json.RawMessage
	for _, m := range c.all {
		if m.Method == method && len(m.ID) > 0 {
			out = append(out, m.Params)
		}
	}
	return out
}

// kinds lists the sessionUpdate of each update.
func kinds(us []update) []string {
	var out []string
	for _, u := range us {
		out = append(out, u.Update["sessionUpdate"].(string))
	}
	return out
}

// of returns the updates of one kind.
func of(us []update, kind string) []map[string]any {
	var out []map[string]any
	for _, u := range us {
		if u.Update["sessionUpdate"] == kind {
			out = append(out, u.Update)
		}
	}
	return out
}

// text joins the text of the chunks of kind.
func text(us []update, kind string) string {
	s := ""
	for _, u := range of(us, kind) {
		s += u["content"].(map[string]any)["text"].(string)
	}
	return s
}

// codingAgent returns Options.Agent with codingtools' tools and extra on
// fake, the model with a context window.
func codingAgent(fake *agentcoretest.Fake, extra ...agentcore.Tool) func(context.Context, *acp.Env) (agentcore.Options, error) {
	return func(_ context.Context, env *acp.Env) (agentcore.Options, error) {
		model := agentcoretest.Model()
		model.ContextWindow = 1000
		tools := codingtools.AllTools(env.Cwd, &codingtools.Options{FS: env.FS, Shell: env.Shell})
		return agentcore.Options{Model: model, StreamFn: fake.Stream, Tools: append(append(tools, extra...), env.Tools...)}, nil
	}
}

// rw joins a reader that closes and a writer.
type rw struct {
	io.ReadCloser
	io.Writer
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func ioPipe() (*io.PipeReader, *io.PipeWriter) { return io.Pipe() }
