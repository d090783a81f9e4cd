package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// server answers the n-th request with the n-th handler and records the
// request bodies.
type server struct {
	mu       sync.Mutex
	handlers []http.HandlerFunc
	bodies   []string
	got      chan struct{} // receives once per request
}

func newServer(t *testing.T, handlers ...http.HandlerFunc) (*server, func(string) string) {
	s := &server{handlers: handlers, got: make(chan struct{}, len(handlers)+1)}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	env := map[string]string{"OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_API_KEY": "sk-test", "MODEL": "test-model"}
	return s, func(k string) string { return env[k] }
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	n := len(s.bodies)
	s.bodies = append(s.bodies, string(body))
	s.mu.Unlock()
	s.got <- struct{}{}
	if n >= len(s.handlers) {
		http.Error(w, `{"error":{"message":"unscripted request"}}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	s.handlers[n](w, r)
}

func (s *server) body(n int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bodies[n]
}

// event writes one chunk; finish ends the response with a finish reason.
func event(w http.ResponseWriter, delta any) {
	data, _ := json.Marshal(map[string]any{"id": "c", "choices": []any{map[string]any{"index": 0, "delta": delta}}})
	fmt.Fprintf(w, "data: %s\n\n", data)
	w.(http.Flusher).Flush()
}

func finish(w http.ResponseWriter, reason string) {
	fmt.Fprintf(w, "data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":%q}]}\n\ndata: [DONE]\n\n", reason)
}

func answer(text string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		event(w, map[string]any{"content": text})
		finish(w, "stop")
	}
}

func toolCall(index int, id, name, args string) map[string]any {
	return map[string]any{"tool_calls": []any{map[string]any{"index": index, "id": id, "type": "function",
		"function": map[string]any{"name": name, "arguments": args}}}}
}

// lockedBuffer is the chat's output, read while it is written; each write
// wakes those waiting for the output to change.
type lockedBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	written chan struct{} // closed by the next write
}

func newLockedBuffer() *lockedBuffer {
	return &lockedBuffer{written: make(chan struct{})}
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	close(b.written)
	b.written = make(chan struct{})
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	text, _ := b.snapshot()
	return text
}

// snapshot returns the output so far and a channel the next write closes.
func (b *lockedBuffer) snapshot() (string, <-chan struct{}) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String(), b.written
}

// waitFor waits until the output contains s; if it never does, the test
// binary's timeout reports where it waits.
func waitFor(t *testing.T, out *lockedBuffer, s string) {
	t.Helper()
	for {
		text, written := out.snapshot()
		if strings.Contains(text, s) {
			return
		}
		<-written
	}
}

// TestSmoke drives the program as main does: one question, two tool calls,
// an answer, end of input.
func TestSmoke(t *testing.T) {
	srv, env := newServer(t,
		func(w http.ResponseWriter, r *http.Request) {
			event(w, toolCall(0, "call_1", "calc", `{"expr": "6*7"}`))
			event(w, toolCall(1, "call_2", "now", `{"zone": "UTC"}`))
			finish(w, "tool_calls")
		},
		answer("6*7 is 42, and it is afternoon in UTC."),
	)
	out := newLockedBuffer()
	day := func() string { return time.Now().UTC().Format("2006-01-02T") }
	before := day()
	if err := run(t.Context(), strings.NewReader("What is 6*7, and what time is it in UTC?\n"), out, env); err != nil {
		t.Fatal(err)
	}
	after := day()
	for _, want := range []string{
		"chat with test-model at " + env("OPENAI_BASE_URL"),
		`  -> calc {"expr":"6*7"}`, "  <- 42\n",
		`  -> now {"zone":"UTC"}`,
		"6*7 is 42, and it is afternoon in UTC.\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The run may cross midnight.
	if !strings.Contains(out.String(), "  <- "+before) && !strings.Contains(out.String(), "  <- "+after) {
		t.Errorf("output lacks the date %s:\n%s", after, out)
	}
	if second := srv.body(1); !strings.Contains(second, `"tool_call_id":"call_1"`) || !strings.Contains(second, `"content":"42"`) {
		t.Errorf("second request lacks the calc result: %s", second)
	}
}

// TestSteer enters a line while the answer streams: it reaches the model
// in the next request.
func TestSteer(t *testing.T) {
	release := make(chan struct{})
	srv, env := newServer(t,
		func(w http.ResponseWriter, r *http.Request) {
			event(w, map[string]any{"content": "Once upon a time"})
			<-release
			event(w, map[string]any{"content": ", a dragon."})
			finish(w, "stop")
		},
		answer("Short: a dragon."),
	)
	in, feed := io.Pipe()
	out := newLockedBuffer()
	done := make(chan error, 1)
	go func() { done <- chat(t.Context(), in, out, env, nil) }()

	fmt.Fprintln(feed, "Tell me a story.")
	waitFor(t, out, "Once upon a time")
	fmt.Fprintln(feed, "Make it short.")
	waitFor(t, out, "(steering: sent after the current step)")
	close(release)
	waitFor(t, out, "Short: a dragon.\n> ")
	feed.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if second := srv.body(1); !strings.Contains(second, `"text":"Make it short."`) {
		t.Errorf("the steering message did not reach the model: %s", second)
	}
}

// TestInterrupt: Ctrl-C aborts the answer, and Ctrl-C when idle quits.
func TestInterrupt(t *testing.T) {
	srv, env := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		event(w, map[string]any{"content": "Thinking about it"})
		<-r.Context().Done()
	})
	in, feed := io.Pipe()
	defer feed.Close()
	out := newLockedBuffer()
	interrupts := make(chan os.Signal, 1)
	done := make(chan error, 1)
	go func() { done <- chat(t.Context(), in, out, env, interrupts) }()

	fmt.Fprintln(feed, "Hello?")
	<-srv.got
	waitFor(t, out, "Thinking about it")
	interrupts <- os.Interrupt
	waitFor(t, out, "Thinking about it\n(aborted)\n> ")
	select {
	case err := <-done:
		t.Fatalf("chat ended on the first Ctrl-C: %v", err)
	default:
	}
	interrupts <- os.Interrupt
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestEvaluate(t *testing.T) {
	tests := []struct {
		expr    string
		want    float64
		wantErr string
	}{
		{expr: "6*7", want: 42},
		{expr: " (2 + 3) * 4 / 8 ", want: 2.5},
		{expr: "-3 - -2", want: -1},
		{expr: "1 + 2 * 3 - 4 / 2", want: 5},
		{expr: "1.5*2", want: 3},
		{expr: "1/0", wantErr: "division by zero"},
		{expr: "2 +", wantErr: "unexpected end"},
		{expr: "(1", wantErr: "missing )"},
		{expr: "2 x", wantErr: "unexpected"},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			got, err := evaluate(tt.expr)
			switch {
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("error %v, want %q", err, tt.wantErr)
			case tt.wantErr == "" && (err != nil || got != tt.want):
				t.Errorf("= %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}
