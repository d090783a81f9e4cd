package agentcore_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// The proxy's stream path against its floor, as ../shared/bench/sdk
// measures the providers: one coding-agent turn (400 thinking deltas,
// 1,200 text deltas, 4 tool calls whose 2.4 KB arguments stream in 60
// pieces) crosses ProxyHandler's writer and StreamProxy's reader, and the
// floor does the least a correct server and client do with the same
// bytes: one json.Marshal per event written (and flushed), one
// json.Unmarshal per line read.

// turnEvents are the events of the turn, every partial the final message
// (all the writer reads from a partial is there).
func turnEvents() []agentcore.AssistantEvent {
	const word = "lorem ipsum dolor sit amet, consectetur adipiscing elit "
	piece := func(i int) string { return word[i%40 : i%40+6] }
	msg := &agentcore.AssistantMessage{API: "fake", Provider: "fake", Model: "m", StopReason: agentcore.StopToolUse,
		Usage: agentcore.Usage{Input: 1000, Output: 900, TotalTokens: 1900}}
	evs := []agentcore.AssistantEvent{&agentcore.StartEvent{Partial: msg}}
	var thinking, text strings.Builder
	evs = append(evs, &agentcore.ThinkingStartEvent{ContentIndex: 0, Partial: msg})
	for i := range 400 {
		thinking.WriteString(piece(i))
		evs = append(evs, &agentcore.ThinkingDeltaEvent{ContentIndex: 0, Delta: piece(i), Partial: msg})
	}
	evs = append(evs, &agentcore.ThinkingEndEvent{ContentIndex: 0, Content: thinking.String(), Partial: msg})
	evs = append(evs, &agentcore.TextStartEvent{ContentIndex: 1, Partial: msg})
	for i := range 1200 {
		text.WriteString(piece(i))
		evs = append(evs, &agentcore.TextDeltaEvent{ContentIndex: 1, Delta: piece(i), Partial: msg})
	}
	evs = append(evs, &agentcore.TextEndEvent{ContentIndex: 1, Content: text.String(), Partial: msg})
	msg.Content = []agentcore.ContentBlock{
		agentcore.ThinkingBlock{Thinking: thinking.String(), ThinkingSignature: "c2lnbmF0dXJl"},
		agentcore.TextBlock{Text: text.String()},
	}
	for k := range 4 {
		body := strings.Repeat(`x := f(y)\n`, 2400/11)
		args := fmt.Sprintf(`{"path":"src/file%d.go","old":"%s","new":"%s"}`, k, body[:len(body)/2], body[len(body)/2:])
		call := agentcore.ToolCall{ID: fmt.Sprintf("call_%d", k), Name: "edit", Arguments: json.RawMessage(args)}
		i := len(msg.Content)
		msg.Content = append(msg.Content, call)
		evs = append(evs, &agentcore.ToolCallStartEvent{ContentIndex: i, Partial: msg})
		step := (len(args) + 59) / 60
		for p := 0; p < len(args); p += step {
			evs = append(evs, &agentcore.ToolCallDeltaEvent{ContentIndex: i, Delta: args[p:min(p+step, len(args))], Partial: msg})
		}
		evs = append(evs, &agentcore.ToolCallEndEvent{ContentIndex: i, ToolCall: call, Partial: msg})
	}
	return append(evs, &agentcore.DoneEvent{Reason: agentcore.StopToolUse, Message: msg})
}

// replay is a stream function that yields evs.
func replay(evs []agentcore.AssistantEvent) agentcore.StreamFn {
	return func(context.Context, agentcore.Model, agentcore.Request, agentcore.StreamOptions) agentcore.AssistantStream {
		return func(yield func(agentcore.AssistantEvent) bool) {
			for _, ev := range evs {
				if !yield(ev) {
					return
				}
			}
		}
	}
}

// floorEvent is the floor's wire event: the fields the turn's events use.
type floorEvent struct {
	Type             string               `json:"type"`
	ContentIndex     *int                 `json:"contentIndex,omitempty"`
	Delta            *string              `json:"delta,omitempty"`
	ContentSignature string               `json:"contentSignature,omitempty"`
	ID               *string              `json:"id,omitempty"`
	ToolName         *string              `json:"toolName,omitempty"`
	ToolCall         *agentcore.ToolCall  `json:"toolCall,omitempty"`
	Reason           agentcore.StopReason `json:"reason,omitempty"`
	Usage            *agentcore.Usage     `json:"usage,omitempty"`
}

// floorHandler is the least a proxy server does: decode the request, then
// marshal each event, write it as one data line and flush.
func floorHandler(evs []agentcore.AssistantEvent) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model   agentcore.Model `json:"model"`
			Context struct {
				Messages []json.RawMessage `json:"messages"`
			} `json:"context"`
		}
		if json.NewDecoder(r.Body).Decode(&req) != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Accel-Buffering", "no")
		flusher := w.(http.Flusher)
		for _, ev := range evs {
			e := floorEvent{Type: ev.Type()}
			switch ev := ev.(type) {
			case *agentcore.ThinkingStartEvent:
				e.ContentIndex = &ev.ContentIndex
			case *agentcore.ThinkingDeltaEvent:
				e.ContentIndex, e.Delta = &ev.ContentIndex, &ev.Delta
			case *agentcore.ThinkingEndEvent:
				e.ContentIndex = &ev.ContentIndex
				e.ContentSignature = ev.Partial.Content[ev.ContentIndex].(agentcore.ThinkingBlock).ThinkingSignature
			case *agentcore.TextStartEvent:
				e.ContentIndex = &ev.ContentIndex
			case *agentcore.TextDeltaEvent:
				e.ContentIndex, e.Delta = &ev.ContentIndex, &ev.Delta
			case *agentcore.TextEndEvent:
				e.ContentIndex = &ev.ContentIndex
			case *agentcore.ToolCallStartEvent:
				call := ev.Partial.Content[ev.ContentIndex].(agentcore.ToolCall)
				e.ContentIndex, e.ID, e.ToolName = &ev.ContentIndex, &call.ID, &call.Name
			case *agentcore.ToolCallDeltaEvent:
				e.ContentIndex, e.Delta = &ev.ContentIndex, &ev.Delta
			case *agentcore.ToolCallEndEvent:
				e.ContentIndex, e.ToolCall = &ev.ContentIndex, &ev.ToolCall
			case *agentcore.DoneEvent:
				e.Reason, e.Usage = ev.Reason, &ev.Message.Usage
			}
			data, err := json.Marshal(e)
			if err != nil {
				return
			}
			if _, err := w.Write(append(append([]byte("data: "), data...), '\n', '\n')); err != nil {
				return
			}
			flusher.Flush()
		}
	}
}

// proxyResult is what a reader got: bytes of text and thinking, tool calls
// whose arguments parse, bytes of arguments.
type proxyResult struct{ Text, Thinking, Calls, ArgBytes int }

// floorRead is the least a proxy client does: split lines, decode each
// into a small struct, append text, thinking and arguments.
func floorRead(ctx context.Context, url string) (proxyResult, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url+"/api/stream", strings.NewReader(`{"model":{},"context":{"messages":[]},"options":{}}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return proxyResult{}, err
	}
	defer resp.Body.Close()
	var text, thinking []byte
	var args [][]byte
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.HasPrefix(line, []byte("data: ")) {
			continue
		}
		var e struct {
			Type         string `json:"type"`
			ContentIndex int    `json:"contentIndex"`
			Delta        string `json:"delta"`
		}
		if err := json.Unmarshal(line[6:], &e); err != nil {
			return proxyResult{}, err
		}
		switch e.Type {
		case "text_delta":
			text = append(text, e.Delta...)
		case "thinking_delta":
			thinking = append(thinking, e.Delta...)
		case "toolcall_delta":
			for len(args) <= e.ContentIndex {
				args = append(args, nil)
			}
			args[e.ContentIndex] = append(args[e.ContentIndex], e.Delta...)
		}
	}
	r := proxyResult{Text: len(text), Thinking: len(thinking)}
	for _, a := range args {
		if a != nil && json.Valid(a) {
			r.Calls++
		}
		r.ArgBytes += len(a)
	}
	return r, sc.Err()
}

// proxyRead reads with StreamProxy, its events ranged to the end.
func proxyRead(ctx context.Context, url string) (proxyResult, error) {
	var final *agentcore.AssistantMessage
	for ev := range agentcore.StreamProxy(agentcore.ProxyOptions{URL: url})(ctx, fixtureModel, agentcore.Request{}, agentcore.StreamOptions{}) {
		switch ev := ev.(type) {
		case *agentcore.DoneEvent:
			final = ev.Message
		case *agentcore.ErrorEvent:
			return proxyResult{}, fmt.Errorf("%s", ev.Message.ErrorMessage)
		}
	}
	if final == nil {
		return proxyResult{}, fmt.Errorf("no final event")
	}
	var r proxyResult
	for _, b := range final.Content {
		switch b := b.(type) {
		case agentcore.TextBlock:
			r.Text += len(b.Text)
		case agentcore.ThinkingBlock:
			r.Thinking += len(b.Thinking)
		case agentcore.ToolCall:
			if b.ArgumentsError == "" {
				r.Calls++
			}
			r.ArgBytes += len(b.Arguments)
		}
	}
	return r, nil
}

// proxyWriters serve the turn: ProxyHandler, and the floor.
func proxyWriters() map[string]http.Handler {
	evs := turnEvents()
	allow := func(*http.Request, string) error { return nil }
	return map[string]http.Handler{
		"agentcore": agentcore.NewProxyHandler(agentcore.ProxyHandlerOptions{StreamFn: replay(evs), Authorize: allow}),
		"floor":     floorHandler(evs),
	}
}

// fetch posts a request to the proxy at url and returns the answer's body.
func fetch(ctx context.Context, url string) ([]byte, error) {
	body, _ := json.Marshal(map[string]any{"model": fixtureModel, "context": map[string]any{"messages": []any{map[string]any{"role": "user", "content": "go", "timestamp": 1}}}, "options": map[string]any{}})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url+"/api/stream", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return nil, fmt.Errorf("status %s", resp.Status)
	}
	return io.ReadAll(resp.Body)
}

// TestProxyFloorSameWork checks that ProxyHandler and the floor write the
// same bytes for the turn, and that StreamProxy and the floor read the
// same turn out of them.
func TestProxyFloorSameWork(t *testing.T) {
	bodies := map[string][]byte{}
	for name, h := range proxyWriters() {
		srv := httptest.NewServer(h)
		body, err := fetch(t.Context(), srv.URL)
		srv.Close()
		require.NoError(t, err, name)
		bodies[name] = body
	}
	require.Equal(t, string(bodies["floor"]), string(bodies["agentcore"]))

	srv := serveFixed(bodies["agentcore"])
	defer srv.Close()
	want, err := floorRead(t.Context(), srv.URL)
	require.NoError(t, err)
	require.Equal(t, proxyResult{Text: 7200, Thinking: 2400, Calls: 4, ArgBytes: want.ArgBytes}, want)
	got, err := proxyRead(t.Context(), srv.URL)
	require.NoError(t, err)
	require.Equal(t, want, got)
}

// serveFixed serves body as an event stream to every request.
func serveFixed(body []byte) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(body)
	}))
}

// BenchmarkProxyStream times the turn through ProxyHandler's writer
// (agentcore) and the floor's, read raw by one client, and through
// StreamProxy's reader and the floor's, served from memory.
func BenchmarkProxyStream(b *testing.B) {
	writers := proxyWriters()
	for _, name := range []string{"agentcore", "floor"} {
		b.Run("write/"+name, func(b *testing.B) {
			srv := httptest.NewServer(writers[name])
			defer srv.Close()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := fetch(context.Background(), srv.URL); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	srv := httptest.NewServer(writers["agentcore"])
	body, err := fetch(context.Background(), srv.URL)
	srv.Close()
	require.NoError(b, err)
	srv = serveFixed(body)
	defer srv.Close()
	for name, read := range map[string]func(context.Context, string) (proxyResult, error){"agentcore": proxyRead, "floor": floorRead} {
		b.Run("read/"+name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				if _, err := read(context.Background(), srv.URL); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
