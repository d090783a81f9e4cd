package agentcore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// allowToken returns an Authorize hook that admits token only.
func allowToken(token string) func(*http.Request, string) error {
	return func(_ *http.Request, got string) error {
		if got != token {
			return errors.New("invalid token")
		}
		return nil
	}
}

const validBody = `{"model":{"id":"m","name":"m","api":"fake","provider":"fake","baseUrl":"","reasoning":false,"input":["text"],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":0,"maxTokens":0},"context":{"messages":[]},"options":{}}`

func TestProxyHandlerRefusals(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.TextResponse("hi"))
	tests := []struct {
		name       string
		opts       agentcore.ProxyHandlerOptions
		method     string
		token      string
		ctype      string
		body       string
		wantStatus int
		wantError  string
	}{
		{name: "get", method: "GET", wantStatus: 405, wantError: "method not allowed: use POST"},
		{name: "no authorize hook", opts: agentcore.ProxyHandlerOptions{StreamFn: fake.Stream}, token: "t", body: validBody, wantStatus: 401, wantError: "unauthorized"},
		{name: "wrong token", token: "nope", body: validBody, wantStatus: 401, wantError: "invalid token"},
		{name: "no token", body: validBody, wantStatus: 401, wantError: "invalid token"},
		{
			name: "authorize chooses the status", token: "t", body: validBody,
			opts: agentcore.ProxyHandlerOptions{StreamFn: fake.Stream, Authorize: func(*http.Request, string) error {
				return &agentcore.ProxyHTTPError{Status: 429, Message: "slow down"}
			}},
			wantStatus: 429, wantError: "slow down",
		},
		{
			name: "authorize panics", token: "t", body: validBody,
			opts:       agentcore.ProxyHandlerOptions{StreamFn: fake.Stream, Authorize: func(*http.Request, string) error { panic("bug") }},
			wantStatus: 500, wantError: agentcore.ProxyInternalErrorText,
		},
		{name: "not json", token: "t", ctype: "text/plain", body: validBody, wantStatus: 415, wantError: `unsupported content type "text/plain": send application/json`},
		{
			name: "too large", token: "t", body: validBody,
			opts:       agentcore.ProxyHandlerOptions{StreamFn: fake.Stream, Authorize: allowToken("t"), MaxRequestBytes: 64},
			wantStatus: 413, wantError: "request body too large: the limit is 64 bytes",
		},
		{name: "bad json", token: "t", body: `{"model":`, wantStatus: 400, wantError: "invalid request: unexpected end of JSON input"},
		{name: "no model", token: "t", body: `{"context":{"messages":[]}}`, wantStatus: 400, wantError: "invalid request: model is required"},
		{name: "bad message", token: "t", body: `{"model":{},"context":{"messages":[{"content":"x"}]}}`, wantStatus: 400, wantError: "invalid request: context: message 0: agentcore: message without a role"},
		{name: "bad options", token: "t", body: `{"model":{},"options":{"maxTokens":"many"}}`, wantStatus: 400, wantError: "invalid request: options: ..."},
		{
			name: "prepare refuses", token: "t", body: validBody,
			opts: agentcore.ProxyHandlerOptions{StreamFn: fake.Stream, Authorize: allowToken("t"), Prepare: func(_ *http.Request, c *agentcore.ProxyCall) error {
				return errors.New("model m is not allowed")
			}},
			wantStatus: 403, wantError: "model m is not allowed",
		},
		{
			name: "prepare chooses the status", token: "t", body: validBody,
			opts: agentcore.ProxyHandlerOptions{StreamFn: fake.Stream, Authorize: allowToken("t"), Prepare: func(*http.Request, *agentcore.ProxyCall) error {
				return &agentcore.ProxyHTTPError{Status: 402, Message: "out of credit"}
			}},
			wantStatus: 402, wantError: "out of credit",
		},
		{
			name: "no stream function", token: "t", body: validBody,
			opts:       agentcore.ProxyHandlerOptions{Authorize: allowToken("t")},
			wantStatus: 500, wantError: agentcore.ErrNoStreamFn.Error(),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			if opts.Authorize == nil && opts.StreamFn == nil && opts.Prepare == nil && opts.MaxRequestBytes == 0 {
				opts = agentcore.ProxyHandlerOptions{StreamFn: fake.Stream, Authorize: allowToken("t")}
			}
			method := tt.method
			if method == "" {
				method = http.MethodPost
			}
			req := httptest.NewRequest(method, "/api/stream", strings.NewReader(tt.body))
			if tt.token != "" {
				req.Header.Set("Authorization", "Bearer "+tt.token)
			}
			ctype := tt.ctype
			if ctype == "" {
				ctype = "application/json; charset=utf-8"
			}
			req.Header.Set("Content-Type", ctype)
			rec := httptest.NewRecorder()
			agentcore.NewProxyHandler(opts).ServeHTTP(rec, req)
			if rec.Code != tt.wantStatus {
				t.Fatalf("status %d, want %d (%s)", rec.Code, tt.wantStatus, rec.Body)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("content type %q", ct)
			}
			var body struct{ Error string }
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
				t.Fatalf("body %q: %v", rec.Body, err)
			}
			if prefix, ok := strings.CutSuffix(tt.wantError, "..."); ok {
				if !strings.HasPrefix(body.Error, prefix) {
					t.Errorf("error %q, want %q...", body.Error, prefix)
				}
			} else if body.Error != tt.wantError {
				t.Errorf("error %q, want %q", body.Error, tt.wantError)
			}
		})
	}
}

// TestProxyHandlerWire checks the answer's bytes: the fake's events without
// their partials, as a pi proxy server writes them.
func TestProxyHandlerWire(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.Response{
		Content: []agentcore.ContentBlock{
			agentcore.ThinkingBlock{Thinking: "Need the file.", ThinkingSignature: "sig-1"},
			agentcore.TextBlock{Text: "Reading it now."},
			agentcoretest.ToolCall("call_1", "read", json.RawMessage(`{"path":"src/main.go","limit":20}`)),
		},
		Usage: agentcore.Usage{Input: 12, Output: 7, TotalTokens: 19, Cost: agentcore.Cost{Input: 0.1, Output: 0.2, Total: 0.3}},
	})
	h := agentcore.NewProxyHandler(agentcore.ProxyHandlerOptions{StreamFn: fake.Stream, Authorize: allowToken("tok")})
	req := httptest.NewRequest(http.MethodPost, "/api/stream", strings.NewReader(validBody))
	req.Header.Set("Authorization", "Bearer tok")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d, content type %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	usage := `{"input":12,"output":7,"cacheRead":0,"cacheWrite":0,"totalTokens":19,"cost":{"input":0.1,"output":0.2,"cacheRead":0,"cacheWrite":0,"total":0.3}}`
	want := strings.Join([]string{
		`{"type":"start"}`,
		`{"type":"thinking_start","contentIndex":0}`,
		`{"type":"thinking_delta","contentIndex":0,"delta":"Need the file."}`,
		`{"type":"thinking_end","contentIndex":0,"contentSignature":"sig-1"}`,
		`{"type":"text_start","contentIndex":1}`,
		`{"type":"text_delta","contentIndex":1,"delta":"Reading it now."}`,
		`{"type":"text_end","contentIndex":1}`,
		`{"type":"toolcall_start","contentIndex":2,"id":"call_1","toolName":"read"}`,
		`{"type":"toolcall_delta","contentIndex":2,"delta":"{\"path\":\"src/main.go\",\"limit\":20}"}`,
		`{"type":"toolcall_end","contentIndex":2,"toolCall":{"type":"toolCall","id":"call_1","name":"read","arguments":{"path":"src/main.go","limit":20}}}`,
		`{"type":"done","reason":"toolUse","usage":` + usage + `}`,
	}, "\n\n")
	got := strings.ReplaceAll(strings.TrimSpace(rec.Body.String()), "data: ", "")
	if got != want {
		t.Fatalf("wire\n got %s\nwant %s", got, want)
	}
}

func TestProxyHandlerDecodesTheCall(t *testing.T) {
	temp := 0.5
	sent := agentcore.StreamOptions{
		APIKey: "client-key-never-sent", Reasoning: agentcore.ThinkingHigh, SessionID: "s1", Temperature: &temp, MaxTokens: 900,
		Headers: map[string]string{"X-A": "b"}, ThinkingBudgets: map[agentcore.ThinkingLevel]int{agentcore.ThinkingLow: 1024},
		Transport: "sse", MaxRetryDelay: 3 * time.Second,
	}
	note := json.RawMessage(`{"role":"notification","text":"build failed","level":3,"timestamp":5}`)
	custom, err := agentcore.UnmarshalMessage(note)
	if err != nil {
		t.Fatal(err)
	}
	messages := []agentcore.Message{agentcore.UserText("hello"), custom}

	var seen *agentcore.ProxyCall
	var streamed agentcore.StreamOptions
	var streamedReq agentcore.Request
	fake := agentcoretest.New(agentcoretest.TextResponse("ok"))
	h := agentcore.NewProxyHandler(agentcore.ProxyHandlerOptions{
		Authorize: allowToken("tok"),
		Prepare: func(_ *http.Request, c *agentcore.ProxyCall) error {
			arrived := *c
			seen = &arrived
			c.Options.APIKey = "server-key"
			return nil
		},
		StreamFn: func(ctx context.Context, m agentcore.Model, req agentcore.Request, o agentcore.StreamOptions) agentcore.AssistantStream {
			streamed, streamedReq = o, req
			return fake.Stream(ctx, m, req, o)
		},
	})
	srv := httptest.NewServer(h)
	defer srv.Close()
	got := collect(agentcore.StreamProxy(agentcore.ProxyOptions{URL: srv.URL, AuthToken: "tok"})(context.Background(), fixtureModel, agentcore.Request{Messages: messages}, sent))
	if got.final.StopReason != agentcore.StopStop || got.final.Text() != "ok" {
		t.Fatalf("final %+v", got.final)
	}
	want := sent
	want.APIKey = ""
	if !reflect.DeepEqual(seen.Options, want) {
		t.Errorf("options\n got %+v\nwant %+v", seen.Options, want)
	}
	if streamed.APIKey != "server-key" {
		t.Errorf("the policy's key did not reach the stream function: %q", streamed.APIKey)
	}
	if !reflect.DeepEqual(seen.Model, fixtureModel) {
		t.Errorf("model %+v", seen.Model)
	}
	if len(streamedReq.Messages) != 2 {
		t.Fatalf("messages %v", streamedReq.Messages)
	}
	cm, ok := streamedReq.Messages[1].(*agentcore.CustomMessage)
	if !ok || cm.RoleName != "notification" || !bytes.Equal(cm.Raw, note) {
		t.Errorf("custom message arrived as %#v", streamedReq.Messages[1])
	}
	if !reflect.DeepEqual(jsonValue(t, streamedReq.Messages[0]), jsonValue(t, messages[0])) {
		t.Errorf("user message %+v", streamedReq.Messages[0])
	}
	if !strings.Contains(string(seen.RawOptions), `"maxRetryDelayMs":3000`) {
		t.Errorf("raw options %s", seen.RawOptions)
	}
}

// TestProxyHandlerClientGoesAway checks that the stream function's ctx is
// cancelled and ServeHTTP returns when the client disconnects.
func TestProxyHandlerClientGoesAway(t *testing.T) {
	streamCtxDone := make(chan struct{})
	returned := make(chan struct{})
	fake := agentcoretest.New(agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "partial"}}, Hang: true})
	h := agentcore.NewProxyHandler(agentcore.ProxyHandlerOptions{
		Authorize: allowToken("tok"),
		StreamFn: func(ctx context.Context, m agentcore.Model, req agentcore.Request, o agentcore.StreamOptions) agentcore.AssistantStream {
			context.AfterFunc(ctx, func() { close(streamCtxDone) })
			return fake.Stream(ctx, m, req, o)
		},
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer close(returned)
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var final *agentcore.AssistantMessage
	for ev := range agentcore.StreamProxy(agentcore.ProxyOptions{URL: srv.URL, AuthToken: "tok"})(ctx, fixtureModel, agentcore.Request{}, agentcore.StreamOptions{}) {
		switch e := ev.(type) {
		case *agentcore.TextEndEvent:
			cancel()
		case *agentcore.ErrorEvent:
			final = e.Message
		}
	}
	if final == nil || final.StopReason != agentcore.StopAborted || final.Text() != "partial" {
		t.Fatalf("final %+v", final)
	}
	for name, ch := range map[string]chan struct{}{"stream ctx cancelled": streamCtxDone, "handler returned": returned} {
		select {
		case <-ch:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: not after 5s", name)
		}
	}
}

func TestProxyHandlerBrokenStreams(t *testing.T) {
	tests := []struct {
		name     string
		stream   agentcore.StreamFn
		want     string
		wantText string
	}{
		{
			name: "no final event",
			stream: func(context.Context, agentcore.Model, agentcore.Request, agentcore.StreamOptions) agentcore.AssistantStream {
				return func(yield func(agentcore.AssistantEvent) bool) {
					m := &agentcore.AssistantMessage{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "x"}}}
					yield(&agentcore.StartEvent{Partial: m})
				}
			},
			want: "start error", wantText: agentcore.ErrStreamIncomplete.Error(),
		},
		{
			name: "panics mid-stream",
			stream: func(context.Context, agentcore.Model, agentcore.Request, agentcore.StreamOptions) agentcore.AssistantStream {
				return func(yield func(agentcore.AssistantEvent) bool) {
					yield(&agentcore.StartEvent{Partial: &agentcore.AssistantMessage{}})
					panic("provider bug")
				}
			},
			want: "start error", wantText: agentcore.ProxyInternalErrorText,
		},
		{
			name: "panics when called",
			stream: func(context.Context, agentcore.Model, agentcore.Request, agentcore.StreamOptions) agentcore.AssistantStream {
				panic("no stream for you")
			},
			want: "error", wantText: agentcore.ProxyInternalErrorText,
		},
		{
			name: "nil stream",
			stream: func(context.Context, agentcore.Model, agentcore.Request, agentcore.StreamOptions) agentcore.AssistantStream {
				return nil
			},
			want: "error", wantText: "stream function returned no stream",
		},
		{
			name: "nil events are skipped, typed or not",
			stream: func(context.Context, agentcore.Model, agentcore.Request, agentcore.StreamOptions) agentcore.AssistantStream {
				return func(yield func(agentcore.AssistantEvent) bool) {
					m := &agentcore.AssistantMessage{Content: []agentcore.ContentBlock{}, StopReason: agentcore.StopStop}
					_ = yield(nil) && yield((*agentcore.TextDeltaEvent)(nil)) && yield(&agentcore.StartEvent{Partial: m}) &&
						yield((*agentcore.DoneEvent)(nil)) && yield(&agentcore.DoneEvent{Reason: agentcore.StopStop, Message: m})
				}
			},
			want: "start done",
		},
		{
			name: "events after the final one",
			stream: func(context.Context, agentcore.Model, agentcore.Request, agentcore.StreamOptions) agentcore.AssistantStream {
				return func(yield func(agentcore.AssistantEvent) bool) {
					m := &agentcore.AssistantMessage{Content: []agentcore.ContentBlock{}, StopReason: agentcore.StopStop}
					if yield(&agentcore.DoneEvent{Reason: agentcore.StopStop, Message: m}) {
						yield(&agentcore.StartEvent{Partial: m})
					}
				}
			},
			want: "done",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(agentcore.NewProxyHandler(agentcore.ProxyHandlerOptions{StreamFn: tt.stream, Authorize: allowToken("")}))
			defer srv.Close()
			got := collect(agentcore.StreamProxy(agentcore.ProxyOptions{URL: srv.URL})(context.Background(), fixtureModel, agentcore.Request{}, agentcore.StreamOptions{}))
			if strings.Join(got.types, " ") != tt.want {
				t.Fatalf("events %v, want %s", got.types, tt.want)
			}
			if got.final.ErrorMessage != tt.wantText {
				t.Fatalf("error %q, want %q", got.final.ErrorMessage, tt.wantText)
			}
		})
	}
}

func TestProxyHandlerStopsOnWriteFailure(t *testing.T) {
	streamCtxDone := make(chan struct{})
	h := agentcore.NewProxyHandler(agentcore.ProxyHandlerOptions{
		Authorize: allowToken(""),
		StreamFn: func(ctx context.Context, m agentcore.Model, req agentcore.Request, o agentcore.StreamOptions) agentcore.AssistantStream {
			return func(yield func(agentcore.AssistantEvent) bool) {
				defer close(streamCtxDone)
				msg := &agentcore.AssistantMessage{Content: []agentcore.ContentBlock{}}
				for yield(&agentcore.StartEvent{Partial: msg}) {
				}
				if ctx.Err() == nil {
					t.Error("the stream's ctx was not cancelled after a failed write")
				}
			}
		},
	})
	h.ServeHTTP(&failingWriter{header: http.Header{}, after: 3}, httptest.NewRequest(http.MethodPost, "/api/stream", strings.NewReader(validBody)))
	<-streamCtxDone
}

// failingWriter is a ResponseWriter whose writes fail after a few.
type failingWriter struct {
	header http.Header
	after  int
}

func (f *failingWriter) Header() http.Header { return f.header }
func (f *failingWriter) WriteHeader(int)     {}
func (f *failingWriter) Write(p []byte) (int, error) {
	if f.after--; f.after < 0 {
		return 0, io.ErrClosedPipe
	}
	return len(p), nil
}

// keptNote is an app-defined message whose decoder keeps the JSON it was
// given.
type keptNote struct{ raw []byte }

func (keptNote) Role() string { return "note" }

// TestProxyHandlerRegisteredDecoderKeepsData decodes a request whose
// custom messages go through a registered decoder that keeps its data:
// the handler decodes the body as it arrives, and what the decoder kept
// must still be its message's JSON after the rest of the body was read.
func TestProxyHandlerRegisteredDecoderKeepsData(t *testing.T) {
	var reg agentcore.MessageRegistry
	reg.Register("note", func(data []byte) (agentcore.Message, error) { return keptNote{raw: data}, nil })
	var notes []string
	var body strings.Builder
	body.WriteString(`{"model":{"id":"m"},"context":{"messages":[`)
	for i := range 50 {
		if i > 0 {
			body.WriteByte(',')
		}
		note := fmt.Sprintf(`{"role":"note","text":"note number %d, padded to fill the decoder's buffer: %s"}`, i, strings.Repeat("x", 40))
		notes = append(notes, note)
		body.WriteString(note)
	}
	body.WriteString(`]},"options":{}}`)

	var got []string
	fake := agentcoretest.New(agentcoretest.TextResponse("ok"))
	h := agentcore.NewProxyHandler(agentcore.ProxyHandlerOptions{
		Authorize: allowToken(""),
		Messages:  &reg,
		StreamFn: func(ctx context.Context, m agentcore.Model, req agentcore.Request, o agentcore.StreamOptions) agentcore.AssistantStream {
			for _, msg := range req.Messages {
				got = append(got, string(msg.(keptNote).raw))
			}
			return fake.Stream(ctx, m, req, o)
		},
	})
	req := httptest.NewRequest(http.MethodPost, "/api/stream", iotest.HalfReader(strings.NewReader(body.String())))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	assert.Equal(t, notes, got)
}
