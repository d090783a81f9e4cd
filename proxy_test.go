package agentcore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// fixtureModel is the model proxy-golden.mjs streams with.
var fixtureModel = agentcore.Model{ID: "m", Name: "m", API: "fake", Provider: "fake", Input: []string{"text"}}

// collected is what a consumer saw of one assistant stream.
type collected struct {
	types  []string
	events []agentcore.AssistantEvent
	final  *agentcore.AssistantMessage
}

func collect(stream agentcore.AssistantStream) collected {
	var c collected
	for ev := range stream {
		c.types = append(c.types, ev.Type())
		c.events = append(c.events, agentcore.CloneEvent(ev))
		switch e := ev.(type) {
		case *agentcore.DoneEvent:
			c.final = e.Message
		case *agentcore.ErrorEvent:
			c.final = e.Message
		}
	}
	return c
}

// jsonValue marshals v and decodes it into a plain value, dropping the
// keys in drop at every level.
func jsonValue(t testing.TB, v any, drop ...string) any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return decodeValue(t, data, drop...)
}

func decodeValue(t testing.TB, data []byte, drop ...string) any {
	t.Helper()
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	return dropKeys(out, drop)
}

func dropKeys(v any, drop []string) any {
	switch v := v.(type) {
	case map[string]any:
		for _, k := range drop {
			delete(v, k)
		}
		for k, x := range v {
			v[k] = dropKeys(x, drop)
		}
	case []any:
		for i, x := range v {
			v[i] = dropKeys(x, drop)
		}
	}
	return v
}

// sseServer serves body as the answer of every request and records the
// requests' Authorization header and body.
type sseServer struct {
	*httptest.Server
	auth chan string
	body chan []byte
}

func newSSEServer(t *testing.T, status int, body string) *sseServer {
	s := &sseServer{auth: make(chan string, 16), body: make(chan []byte, 16)}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/stream" || r.Method != http.MethodPost {
			http.Error(w, "wrong route "+r.Method+" "+r.URL.Path, http.StatusNotFound)
			return
		}
		b, _ := io.ReadAll(r.Body)
		s.auth <- r.Header.Get("Authorization")
		s.body <- b
		if status == http.StatusOK {
			w.Header().Set("Content-Type", "text/event-stream")
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(s.Close)
	return s
}

func TestProxyFixtures(t *testing.T) {
	for _, name := range []string{"text-and-tool", "provider-error", "cut-off"} {
		t.Run(name, func(t *testing.T) {
			body, err := os.ReadFile("testdata/proxy/" + name + ".sse")
			if err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile("testdata/proxy/" + name + ".expected.json")
			if err != nil {
				t.Fatal(err)
			}
			var want struct {
				Authorization string          `json:"authorization"`
				Events        []string        `json:"events"`
				Message       json.RawMessage `json:"message"`
			}
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			srv := newSSEServer(t, http.StatusOK, string(body))
			fn := agentcore.StreamProxy(agentcore.ProxyOptions{URL: srv.URL, AuthToken: "tok-123"})
			got := collect(fn(context.Background(), fixtureModel, agentcore.Request{}, agentcore.StreamOptions{}))

			if auth := <-srv.auth; auth != want.Authorization {
				t.Errorf("Authorization = %q, want %q", auth, want.Authorization)
			}
			wantBody := `{"model":{"id":"m","name":"m","api":"fake","provider":"fake","baseUrl":"","reasoning":false,"input":["text"],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":0,"maxTokens":0},"context":{"messages":[]},"options":{}}`
			if b := <-srv.body; string(b) != wantBody {
				t.Errorf("request body\n got %s\nwant %s", b, wantBody)
			}
			if !reflect.DeepEqual(got.types, want.Events) {
				t.Errorf("events\n got %v\nwant %v", got.types, want.Events)
			}
			if got.final == nil {
				t.Fatal("no final message")
			}
			if got.final.DurationMs == nil || got.final.Timestamp == 0 {
				t.Errorf("final message lacks timestamp or durationMs")
			}
			gotMsg := jsonValue(t, got.final, "timestamp", "durationMs")
			if wantMsg := decodeValue(t, want.Message); !reflect.DeepEqual(gotMsg, wantMsg) {
				g, _ := json.MarshalIndent(gotMsg, "", "  ")
				t.Errorf("final message\n got %s\nwant %s", g, want.Message)
			}
		})
	}
}

// TestProxyPartials checks the partial messages of the text-and-tool
// fixture: text grows, signatures land at the end, and tool arguments show
// their best-effort value while they stream.
func TestProxyPartials(t *testing.T) {
	body, err := os.ReadFile("testdata/proxy/text-and-tool.sse")
	if err != nil {
		t.Fatal(err)
	}
	srv := newSSEServer(t, http.StatusOK, string(body))
	stream := agentcore.StreamProxy(agentcore.ProxyOptions{URL: srv.URL + "/"})(context.Background(), fixtureModel, agentcore.Request{}, agentcore.StreamOptions{})
	var args, texts []string
	// A partial is the producer's message: read it during the event.
	for ev := range stream {
		switch e := ev.(type) {
		case *agentcore.ToolCallDeltaEvent:
			args = append(args, string(e.Partial.Content[e.ContentIndex].(agentcore.ToolCall).Arguments))
		case *agentcore.TextDeltaEvent:
			texts = append(texts, e.Partial.Content[e.ContentIndex].(agentcore.TextBlock).Text)
		default:
			checkFixturePartial(t, ev)
		}
	}
	if want := []string{`{"path":"src/ma"}`, `{"path":"src/main.go","limit":20}`}; !reflect.DeepEqual(args, want) {
		t.Errorf("partial arguments %q, want %q", args, want)
	}
	if want := []string{"Reading ", "Reading it now."}; !reflect.DeepEqual(texts, want) {
		t.Errorf("partial texts %q, want %q", texts, want)
	}
}

// checkFixturePartial checks the start, thinking_end and tool-call events
// of the text-and-tool fixture.
func checkFixturePartial(t *testing.T, ev agentcore.AssistantEvent) {
	t.Helper()
	switch e := ev.(type) {
	case *agentcore.StartEvent:
		if e.Partial.StopReason != agentcore.StopPending || len(e.Partial.Content) != 0 {
			t.Errorf("start partial %+v", e.Partial)
		}
	case *agentcore.ToolCallStartEvent:
		c := e.Partial.Content[e.ContentIndex].(agentcore.ToolCall)
		if c.ID != "call_1" || c.Name != "read" || string(c.Arguments) != "{}" {
			t.Errorf("toolcall_start block %+v", c)
		}
	case *agentcore.ThinkingEndEvent:
		if b := e.Partial.Content[0].(agentcore.ThinkingBlock); b.ThinkingSignature != "sig-1" || e.Content != "Need the file." {
			t.Errorf("thinking_end %+v, content %q", b, e.Content)
		}
	case *agentcore.ToolCallEndEvent:
		if string(e.ToolCall.Arguments) != `{"path":"src/main.go","limit":20}` {
			t.Errorf("toolcall_end arguments %s", e.ToolCall.Arguments)
		}
	}
}

func TestProxyFailures(t *testing.T) {
	const start = "data: {\"type\":\"start\"}\n\ndata: {\"type\":\"text_start\",\"contentIndex\":0}\n\n"
	tests := []struct {
		name      string
		status    int
		body      string
		opts      agentcore.ProxyOptions
		wantTypes string
		wantText  string // exact, or a prefix when it ends in "..."
		wantBlock string // the text of block 0 of the final message, if any
	}{
		{name: "status with error field", status: 401, body: `{"error":"bad token"}`, wantTypes: "error", wantText: "Proxy error: bad token"},
		{name: "status without body", status: 502, body: "", wantTypes: "error", wantText: "Proxy error: 502 Bad Gateway"},
		{name: "status with text body", status: 500, body: "oops", wantTypes: "error", wantText: "Proxy error: 500 Internal Server Error"},
		{name: "status with empty error", status: 429, body: `{"error":""}`, wantTypes: "error", wantText: "Proxy error: 429 Too Many Requests"},
		{name: "status with object error", status: 400, body: `{"error":{"code":7}}`, wantTypes: "error", wantText: `Proxy error: {"code":7}`},
		{name: "empty stream", status: 200, body: "", wantTypes: "error", wantText: agentcore.ProxyClosedText},
		{name: "malformed event", status: 200, body: start + "data: {bad\n\n", wantTypes: "start text_start error", wantText: "Invalid proxy event: ..."},
		{name: "delta before start", status: 200, body: "data: {\"type\":\"text_delta\",\"contentIndex\":0,\"delta\":\"x\"}\n", wantTypes: "error", wantText: "Received text_delta for non-text content"},
		{name: "thinking end on text", status: 200, body: start + "data: {\"type\":\"thinking_end\",\"contentIndex\":0}\n", wantTypes: "start text_start error", wantText: "Received thinking_end for non-thinking content"},
		{name: "toolcall delta on text", status: 200, body: start + "data: {\"type\":\"toolcall_delta\",\"contentIndex\":0,\"delta\":\"{\"}\n", wantTypes: "start text_start error", wantText: "Received toolcall_delta for non-toolCall content"},
		{name: "missing contentIndex", status: 200, body: "data: {\"type\":\"text_start\"}\n", wantTypes: "error", wantText: "Invalid proxy event: text_start without contentIndex"},
		{name: "contentIndex out of range", status: 200, body: "data: {\"type\":\"text_start\",\"contentIndex\":3}\n", wantTypes: "error", wantText: "Invalid proxy event: text_start at contentIndex 3 of 0 blocks"},
		{name: "wrong field type", status: 200, body: start + "data: {\"type\":\"text_delta\",\"contentIndex\":0,\"delta\":5}\n", wantTypes: "start text_start error", wantText: "Invalid proxy event: ..."},
		{
			name: "unknown events and stray toolcall_end skipped", status: 200,
			body:      start + "data: {\"type\":\"ping\"}\n: comment\ndata: {\"type\":\"toolcall_end\",\"contentIndex\":0}\ndata: {\"type\":\"text_delta\",\"contentIndex\":0,\"delta\":\"hi\"}\ndata: {\"type\":\"done\",\"reason\":\"stop\"}",
			wantTypes: "start text_start text_delta done", wantBlock: "hi",
		},
		{name: "cut after text", status: 200, body: start + "data: {\"type\":\"text_delta\",\"contentIndex\":0,\"delta\":\"par\"}\n\n", wantTypes: "start text_start text_delta error", wantText: agentcore.ProxyClosedText, wantBlock: "par"},
		{name: "event over the line limit", status: 200, body: start + "data: {\"type\":\"text_delta\",\"contentIndex\":0,\"delta\":\"" + strings.Repeat("x", 300) + "\"}\n", opts: agentcore.ProxyOptions{MaxEventBytes: 100}, wantTypes: "start text_start error", wantText: "sse: line too long"},
		{name: "error event without text", status: 200, body: "data: {\"type\":\"error\",\"reason\":\"stop\"}\n", wantTypes: "error", wantText: ""},
		{name: "token hook fails", status: 200, body: "", opts: agentcore.ProxyOptions{GetAuthToken: func(context.Context) (string, error) { return "", errors.New("no token") }}, wantTypes: "error", wantText: "no token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newSSEServer(t, tt.status, tt.body)
			opts := tt.opts
			opts.URL = srv.URL
			got := collect(agentcore.StreamProxy(opts)(context.Background(), fixtureModel, agentcore.Request{}, agentcore.StreamOptions{}))
			if types := strings.Join(got.types, " "); types != tt.wantTypes {
				t.Fatalf("events %q, want %q", types, tt.wantTypes)
			}
			if tt.wantTypes[len(tt.wantTypes)-5:] == "error" {
				if got.final.StopReason != agentcore.StopError {
					t.Errorf("stopReason %q, want error", got.final.StopReason)
				}
				if prefix, ok := strings.CutSuffix(tt.wantText, "..."); ok {
					if !strings.HasPrefix(got.final.ErrorMessage, prefix) {
						t.Errorf("errorMessage %q, want %q...", got.final.ErrorMessage, prefix)
					}
				} else if got.final.ErrorMessage != tt.wantText {
					t.Errorf("errorMessage %q, want %q", got.final.ErrorMessage, tt.wantText)
				}
			}
			if tt.wantBlock != "" {
				if len(got.final.Content) == 0 || got.final.Content[0].(agentcore.TextBlock).Text != tt.wantBlock {
					t.Errorf("final content %+v, want text %q", got.final.Content, tt.wantBlock)
				}
			}
		})
	}
}

func TestProxyUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	got := collect(agentcore.StreamProxy(agentcore.ProxyOptions{URL: url})(context.Background(), fixtureModel, agentcore.Request{}, agentcore.StreamOptions{}))
	if len(got.types) != 1 || got.final.StopReason != agentcore.StopError || !strings.Contains(got.final.ErrorMessage, "connect") {
		t.Fatalf("events %v, final %+v", got.types, got.final)
	}
}

// hangingServer sends a start and a text delta, then holds the stream open
// until the client goes away, which it reports on gone. With early set it
// hangs before answering at all, and calls arrived when the request
// arrives.
func hangingServer(t *testing.T, early bool, arrived func()) (srv *httptest.Server, gone <-chan struct{}) {
	done := make(chan struct{})
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer close(done)
		_, _ = io.ReadAll(r.Body) // then the server watches the connection
		if early {
			arrived()
		} else {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, "data: {\"type\":\"start\"}\n\ndata: {\"type\":\"text_start\",\"contentIndex\":0}\n\ndata: {\"type\":\"text_delta\",\"contentIndex\":0,\"delta\":\"so far\"}\n\n")
			w.(http.Flusher).Flush()
		}
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
			t.Error("the server never saw the client go away")
		}
	}))
	t.Cleanup(srv.Close)
	return srv, done
}

func TestProxyAbort(t *testing.T) {
	tests := []struct {
		name     string
		early    bool
		wantText string
		wantLen  int
	}{
		{name: "while streaming", wantText: agentcore.ProxyAbortedText, wantLen: 1},
		{name: "before the answer", early: true, wantText: agentcore.ProxyAbortedEarlyText, wantLen: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			// An early abort comes once the server has the request, however
			// long the request takes to get there.
			srv, gone := hangingServer(t, tt.early, cancel)
			var cancelled time.Time
			var final *agentcore.AssistantMessage
			for ev := range agentcore.StreamProxy(agentcore.ProxyOptions{URL: srv.URL})(ctx, fixtureModel, agentcore.Request{}, agentcore.StreamOptions{}) {
				switch e := ev.(type) {
				case *agentcore.TextDeltaEvent:
					cancelled = time.Now()
					cancel()
				case *agentcore.ErrorEvent:
					final = e.Message
				}
			}
			if !cancelled.IsZero() && time.Since(cancelled) > time.Second {
				t.Errorf("the stream took %v to end after the abort", time.Since(cancelled))
			}
			if final == nil || final.StopReason != agentcore.StopAborted || final.ErrorMessage != tt.wantText || len(final.Content) != tt.wantLen {
				t.Fatalf("final %+v", final)
			}
			select {
			case <-gone:
			case <-time.After(5 * time.Second):
				t.Fatal("the connection stayed open after the abort")
			}
		})
	}
}

func TestProxyServerDies(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, "data: {\"type\":\"start\"}\n\ndata: {\"type\":\"text_start\",\"contentIndex\":0}\n\ndata: {\"type\":\"text_delta\",\"contentIndex\":0,\"delta\":\"half\"}\n\ndata: {\"type\":\"text_del")
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // drops the connection mid-body
	}))
	defer srv.Close()
	got := collect(agentcore.StreamProxy(agentcore.ProxyOptions{URL: srv.URL})(context.Background(), fixtureModel, agentcore.Request{}, agentcore.StreamOptions{}))
	if strings.Join(got.types, " ") != "start text_start text_delta error" {
		t.Fatalf("events %v", got.types)
	}
	if got.final.StopReason != agentcore.StopError || got.final.ErrorMessage != agentcore.ProxyClosedText || got.final.Text() != "half" {
		t.Fatalf("final %+v", got.final)
	}
}

func TestProxyConsumerStopsEarly(t *testing.T) {
	srv, gone := hangingServer(t, false, nil)
	for ev := range agentcore.StreamProxy(agentcore.ProxyOptions{URL: srv.URL})(context.Background(), fixtureModel, agentcore.Request{}, agentcore.StreamOptions{}) {
		if ev.Type() == "start" {
			break
		}
	}
	select {
	case <-gone:
	case <-time.After(5 * time.Second):
		t.Fatal("the connection stayed open after the consumer stopped")
	}
}

// bodyTransport answers every request with a fixed event stream, in memory.
type bodyTransport struct{ body []byte }

func (b bodyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		_ = r.Body.Close()
	}
	return &http.Response{
		StatusCode: 200, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: io.NopCloser(bytes.NewReader(b.body)), Request: r,
	}, nil
}

func FuzzProxyEvents(f *testing.F) {
	for _, name := range []string{"text-and-tool", "provider-error", "cut-off"} {
		if body, err := os.ReadFile("testdata/proxy/" + name + ".sse"); err == nil {
			f.Add(body)
		}
	}
	f.Add([]byte("data: {\"type\":\"toolcall_start\",\"contentIndex\":0}\ndata: {\"type\":\"toolcall_delta\",\"contentIndex\":0,\"delta\":\"{\\\"a\\\": [1, {\"}\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		fn := agentcore.StreamProxy(agentcore.ProxyOptions{URL: "http://proxy.invalid", Client: &http.Client{Transport: bodyTransport{body}}})
		got := collect(fn(context.Background(), fixtureModel, agentcore.Request{}, agentcore.StreamOptions{}))
		if len(got.types) == 0 || got.final == nil {
			t.Fatalf("no final event: %v", got.types)
		}
		for i, typ := range got.types[:len(got.types)-1] {
			if typ == "done" || typ == "error" {
				t.Fatalf("final event %d of %d", i, len(got.types))
			}
		}
		if _, err := json.Marshal(got.final); err != nil {
			t.Fatalf("final message does not marshal: %v", err)
		}
		for _, ev := range got.events {
			if _, err := json.Marshal(ev); err != nil {
				t.Fatalf("%s event does not marshal: %v", ev.Type(), err)
			}
		}
	})
}

// TestProxyTruncatedToolArguments checks that a tool call whose streamed
// arguments never closed, ended without the server's arguments, fails
// validation instead of running with the preview (the reference client
// keeps its best-effort parse; see the StreamProxy docs).
func TestProxyTruncatedToolArguments(t *testing.T) {
	const head = `data: {"type":"start"}` + "\n\n" +
		`data: {"type":"toolcall_start","contentIndex":0,"id":"c1","toolName":"echo"}` + "\n\n" +
		`data: {"type":"toolcall_delta","contentIndex":0,"delta":"{\"path\": \"/etc/pas"}` + "\n\n"
	const done = `data: {"type":"done","reason":"toolUse"}` + "\n\n"
	tests := []struct {
		name      string
		body      string
		wantArgs  string
		wantError bool
	}{
		{name: "toolcall_end without toolCall", body: head + `data: {"type":"toolcall_end","contentIndex":0}` + "\n\n" + done, wantArgs: `{}`, wantError: true},
		{name: "toolCall without arguments", body: head + `data: {"type":"toolcall_end","contentIndex":0,"toolCall":{"id":"c1"}}` + "\n\n" + done, wantArgs: `{}`, wantError: true},
		{name: "no toolcall_end", body: head + done, wantArgs: `{}`, wantError: true},
		{name: "the server's arguments win", body: head + `data: {"type":"toolcall_end","contentIndex":0,"toolCall":{"arguments":{"path":"/tmp/x"}}}` + "\n\n" + done, wantArgs: `{"path":"/tmp/x"}`},
		{
			name:     "complete streamed arguments",
			body:     head + `data: {"type":"toolcall_delta","contentIndex":0,"delta":"swd\"}"}` + "\n\n" + `data: {"type":"toolcall_end","contentIndex":0}` + "\n\n" + done,
			wantArgs: `{"path":"/etc/passwd"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newSSEServer(t, http.StatusOK, tt.body)
			got := collect(agentcore.StreamProxy(agentcore.ProxyOptions{URL: srv.URL})(context.Background(), fixtureModel, agentcore.Request{}, agentcore.StreamOptions{}))
			require.NotNil(t, got.final)
			require.Equal(t, agentcore.StopToolUse, got.final.StopReason, got.final.ErrorMessage)
			calls := got.final.ToolCalls()
			require.Len(t, calls, 1)
			assert.JSONEq(t, tt.wantArgs, string(calls[0].Arguments))
			if tt.wantError {
				assert.Contains(t, calls[0].ArgumentsError, "unexpected end of JSON input")
				assert.Contains(t, calls[0].ArgumentsError, `{"path": "/etc/pas`)
			} else {
				assert.Empty(t, calls[0].ArgumentsError)
			}
		})
	}

	// Through an Agent: the tool does not run, the model gets an error result.
	srv := newSSEServer(t, http.StatusOK, head+`data: {"type":"toolcall_end","contentIndex":0}`+"\n\n"+done)
	ran := false
	echo := agentcore.Tool{
		Name: "echo", Description: "Echo a path.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`),
		Execute: func(context.Context, string, json.RawMessage, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			ran = true
			return agentcore.TextResult("ran"), nil
		},
	}
	calls := 0
	fn := agentcore.StreamProxy(agentcore.ProxyOptions{URL: srv.URL})
	agent := agentcore.New(agentcore.Options{Model: fixtureModel, Tools: []agentcore.Tool{echo},
		StreamFn: func(ctx context.Context, m agentcore.Model, req agentcore.Request, o agentcore.StreamOptions) agentcore.AssistantStream {
			if calls++; calls > 1 {
				return agentcoretest.New(agentcoretest.TextResponse("ok")).Stream(ctx, m, req, o)
			}
			return fn(ctx, m, req, o)
		}})
	require.NoError(t, agent.Prompt(context.Background(), "read it"))
	assert.False(t, ran, "the tool ran with truncated arguments")
	var result *agentcore.ToolResultMessage
	for _, m := range agent.State().Messages {
		if r, ok := m.(*agentcore.ToolResultMessage); ok {
			result = r
		}
	}
	require.NotNil(t, result)
	assert.True(t, result.IsError)
	assert.Contains(t, result.Text(), `Invalid arguments for tool "echo"`)
}
