package agentcore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// eventually is how long a test waits for what must happen "eventually":
// long enough for any busy machine, short of a hang.
const eventually = 60 * time.Second

// TestProxyHandlerHidesPanics checks that a panic in a hook or the stream
// function reaches the client as a generic error, and OnError as the
// detail.
func TestProxyHandlerHidesPanics(t *testing.T) {
	ok := func(context.Context, agentcore.Model, agentcore.Request, agentcore.StreamOptions) agentcore.AssistantStream {
		return func(yield func(agentcore.AssistantEvent) bool) {
			yield(&agentcore.DoneEvent{Reason: agentcore.StopStop, Message: &agentcore.AssistantMessage{Content: []agentcore.ContentBlock{}, StopReason: agentcore.StopStop}})
		}
	}
	tests := []struct {
		name      string
		opts      agentcore.ProxyHandlerOptions
		wantText  string
		wantWhere string
		noStack   bool // a panic the stream caught itself carries no stack
	}{
		{
			name: "Authorize", wantText: "Proxy error: " + agentcore.ProxyInternalErrorText, wantWhere: "in Authorize",
			opts: agentcore.ProxyHandlerOptions{StreamFn: ok, Authorize: func(*http.Request, string) error { panic("secret: db password hunter2") }},
		},
		{
			name: "Prepare", wantText: "Proxy error: " + agentcore.ProxyInternalErrorText, wantWhere: "in Prepare",
			opts: agentcore.ProxyHandlerOptions{StreamFn: ok, Authorize: allowToken(""), Prepare: func(*http.Request, *agentcore.ProxyCall) error {
				panic(errors.New("secret: db password hunter2"))
			}},
		},
		{
			name: "stream function called", wantText: agentcore.ProxyInternalErrorText, wantWhere: "in the stream function",
			opts: agentcore.ProxyHandlerOptions{Authorize: allowToken(""), StreamFn: func(context.Context, agentcore.Model, agentcore.Request, agentcore.StreamOptions) agentcore.AssistantStream {
				panic("secret: db password hunter2")
			}},
		},
		{
			name: "producer of NewAssistantStream", wantText: agentcore.ProxyInternalErrorText, wantWhere: "in the stream function", noStack: true,
			opts: agentcore.ProxyHandlerOptions{Authorize: allowToken(""), StreamFn: func(context.Context, agentcore.Model, agentcore.Request, agentcore.StreamOptions) agentcore.AssistantStream {
				return agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
					w.Push(&agentcore.StartEvent{Partial: &agentcore.AssistantMessage{Content: []agentcore.ContentBlock{}}})
					panic("secret: db password hunter2")
				})
			}},
		},
		{
			name: "stream mid-way", wantText: agentcore.ProxyInternalErrorText, wantWhere: "in the stream function",
			opts: agentcore.ProxyHandlerOptions{Authorize: allowToken(""), StreamFn: func(context.Context, agentcore.Model, agentcore.Request, agentcore.StreamOptions) agentcore.AssistantStream {
				return func(yield func(agentcore.AssistantEvent) bool) {
					yield(&agentcore.StartEvent{Partial: &agentcore.AssistantMessage{Content: []agentcore.ContentBlock{}}})
					panic("secret: db password hunter2")
				}
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var reported []error
			opts := tt.opts
			opts.OnError = func(r *http.Request, err error) {
				assert.Equal(t, "/api/stream", r.URL.Path)
				reported = append(reported, err)
			}
			srv := httptest.NewServer(agentcore.NewProxyHandler(opts))
			defer srv.Close()
			got := collect(agentcore.StreamProxy(agentcore.ProxyOptions{URL: srv.URL})(context.Background(), fixtureModel, agentcore.Request{}, agentcore.StreamOptions{}))
			require.NotNil(t, got.final)
			assert.Equal(t, tt.wantText, got.final.ErrorMessage)
			data, err := json.Marshal(got.events)
			require.NoError(t, err)
			assert.NotContains(t, string(data), "hunter2", "the client saw the panic")

			require.Len(t, reported, 1)
			assert.ErrorIs(t, reported[0], agentcore.ErrProxyPanic)
			assert.Contains(t, reported[0].Error(), "secret: db password hunter2")
			assert.Contains(t, reported[0].Error(), tt.wantWhere)
			if !tt.noStack {
				assert.Contains(t, reported[0].Error(), "goroutine", "the stack")
			}
		})
	}
}

// TestProxyHandlerStalledClient checks that a client that stops reading
// does not hold the handler and the upstream stream forever: a write
// fails past WriteIdleTimeout, the stream's ctx is cancelled, ServeHTTP
// returns and OnError hears of it.
func TestProxyHandlerStalledClient(t *testing.T) {
	cancelled := make(chan struct{})
	returned := make(chan struct{})
	reported := make(chan error, 1)
	delta := strings.Repeat("x", 64<<10)
	h := agentcore.NewProxyHandler(agentcore.ProxyHandlerOptions{
		Authorize:        allowToken(""),
		WriteIdleTimeout: 50 * time.Millisecond,
		OnError:          func(_ *http.Request, err error) { reported <- err },
		// An endless answer, until its ctx is cancelled.
		StreamFn: func(ctx context.Context, m agentcore.Model, req agentcore.Request, o agentcore.StreamOptions) agentcore.AssistantStream {
			return func(yield func(agentcore.AssistantEvent) bool) {
				defer func() {
					if ctx.Err() != nil {
						close(cancelled)
					}
				}()
				msg := &agentcore.AssistantMessage{Content: []agentcore.ContentBlock{agentcore.TextBlock{}}}
				if !yield(&agentcore.StartEvent{Partial: msg}) || !yield(&agentcore.TextStartEvent{Partial: msg}) {
					return
				}
				for ctx.Err() == nil && yield(&agentcore.TextDeltaEvent{Delta: delta, Partial: msg}) {
				}
			}
		},
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer close(returned)
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()

	// A client that sends its request, then never reads.
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	_, err = fmt.Fprintf(conn, "POST /api/stream HTTP/1.1\r\nHost: proxy\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(validBody), validBody)
	require.NoError(t, err)

	for what, ch := range map[string]chan struct{}{"the stream's ctx cancelled": cancelled, "ServeHTTP returned": returned} {
		select {
		case <-ch:
		case <-time.After(eventually):
			t.Fatalf("%s: not after %v", what, eventually)
		}
	}
	select {
	case err := <-reported:
		assert.ErrorContains(t, err, "proxy: writing the answer")
		assert.NotErrorIs(t, err, agentcore.ErrProxyPanic)
	default:
		t.Error("OnError was not told of the failed write")
	}
}

// TestProxyHandlerWriteDeadlines checks that the write deadline is per
// write: set WriteIdleTimeout ahead before every write, so that a long
// stream to a client that keeps reading is never cut.
func TestProxyHandlerWriteDeadlines(t *testing.T) {
	tests := []struct {
		name    string
		timeout time.Duration
		want    bool
	}{
		{name: "default", timeout: 0, want: true},
		{name: "set", timeout: time.Hour, want: true},
		{name: "off", timeout: -1, want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := agentcoretest.New(agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "one two three four"}}, Chunks: 4})
			h := agentcore.NewProxyHandler(agentcore.ProxyHandlerOptions{Authorize: allowToken(""), StreamFn: fake.Stream, WriteIdleTimeout: tt.timeout})
			w := &deadlineWriter{ResponseRecorder: httptest.NewRecorder()}
			h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/api/stream", strings.NewReader(validBody)))
			require.Equal(t, http.StatusOK, w.Code)
			require.Contains(t, w.Body.String(), `"type":"done"`)
			if !tt.want {
				assert.NotContains(t, w.log, "deadline")
				return
			}
			// Every write and flush follows a fresh deadline.
			require.NotEmpty(t, w.log)
			assert.Equal(t, "deadline", w.log[0])
			for i := 1; i < len(w.log); i++ {
				if w.log[i] == "write" {
					assert.Equal(t, "deadline", w.log[i-1], "write %d of %v", i, w.log)
				}
			}
			assert.Equal(t, strings.Count(w.Body.String(), "data: "), strings.Count(strings.Join(w.log, " "), "write"))
		})
	}
}

// deadlineWriter records the write deadlines set and the writes made.
type deadlineWriter struct {
	*httptest.ResponseRecorder
	log []string
}

func (w *deadlineWriter) SetWriteDeadline(d time.Time) error {
	if time.Until(d) <= 0 {
		return errors.New("a deadline in the past")
	}
	w.log = append(w.log, "deadline")
	return nil
}

func (w *deadlineWriter) Write(p []byte) (int, error) {
	w.log = append(w.log, "write")
	return w.ResponseRecorder.Write(p)
}

// bigRequestBody is a proxy request of n user messages of size bytes of
// text each.
func bigRequestBody(t testing.TB, n, size int) []byte {
	msgs := make([]agentcore.Message, n)
	for i := range msgs {
		msgs[i] = &agentcore.UserMessage{Content: agentcore.Blocks(agentcore.TextBlock{Text: strings.Repeat("y", size)}), Timestamp: 1}
	}
	body, err := json.Marshal(map[string]any{"model": fixtureModel, "context": map[string]any{"messages": msgs}, "options": map[string]any{}})
	require.NoError(t, err)
	return body
}

// serveBody serves one request of body with a stream function that
// answers at once, and checks that it arrived whole.
func serveBody(t testing.TB, h http.Handler, body []byte) {
	req := httptest.NewRequest(http.MethodPost, "/api/stream", bytes.NewReader(body))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	require.Contains(t, rec.Body.String(), `"type":"done"`)
}

func doneAtOnce(n int) agentcore.StreamFn {
	return func(_ context.Context, _ agentcore.Model, req agentcore.Request, _ agentcore.StreamOptions) agentcore.AssistantStream {
		return func(yield func(agentcore.AssistantEvent) bool) {
			if len(req.Messages) != n {
				panic(fmt.Sprintf("%d messages arrived", len(req.Messages)))
			}
			yield(&agentcore.DoneEvent{Reason: agentcore.StopStop, Message: &agentcore.AssistantMessage{Content: []agentcore.ContentBlock{}, StopReason: agentcore.StopStop}})
		}
	}
}

// TestProxyHandlerRequestMemory checks that a request costs a bounded
// multiple of its body's size: what decoding its messages allocates, plus
// the body read whole and each message's JSON (under 4 bytes per byte).
func TestProxyHandlerRequestMemory(t *testing.T) {
	const n, size = 64, 64 << 10
	body := bigRequestBody(t, n, size)
	h := agentcore.NewProxyHandler(agentcore.ProxyHandlerOptions{Authorize: allowToken(""), StreamFn: doneAtOnce(n)})
	var raws []json.RawMessage
	var wire struct {
		Context struct{ Messages []json.RawMessage }
	}
	require.NoError(t, json.Unmarshal(body, &wire))
	raws = wire.Context.Messages
	require.Len(t, raws, n)

	allocated := func(f func()) float64 {
		f() // warm up
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		return float64(after.TotalAlloc - before.TotalAlloc)
	}
	decoding := allocated(func() {
		for _, raw := range raws {
			_, err := agentcore.UnmarshalMessage(raw)
			require.NoError(t, err)
		}
	})
	serving := allocated(func() { serveBody(t, h, body) })
	extra := (serving - decoding) / float64(len(body))
	t.Logf("a %d-byte body: decoding its messages allocates %.2f bytes per byte, serving it %.2f more", len(body), decoding/float64(len(body)), extra)
	assert.Less(t, extra, 4.0)
}

// BenchmarkProxyHandlerRequest serves a 4 MiB request body; B/op over the
// body's size is what a request costs per byte.
func BenchmarkProxyHandlerRequest(b *testing.B) {
	const n, size = 64, 64 << 10
	body := bigRequestBody(b, n, size)
	h := agentcore.NewProxyHandler(agentcore.ProxyHandlerOptions{Authorize: allowToken(""), StreamFn: doneAtOnce(n)})
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		serveBody(b, h, body)
	}
}
