package agentcore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// proxyScript is a tool-using run: thinking, text and two parallel tool
// calls, then a second text turn.
func proxyScript() []agentcoretest.Response {
	usage := agentcore.Usage{Input: 40, Output: 12, TotalTokens: 52, Cost: agentcore.Cost{Input: 0.01, Output: 0.02, Total: 0.03}}
	return []agentcoretest.Response{
		{
			Content: []agentcore.ContentBlock{
				agentcore.ThinkingBlock{Thinking: "Both files are needed.", ThinkingSignature: "sig-a"},
				agentcore.TextBlock{Text: "Reading the two files now."},
				agentcoretest.ToolCall("c1", "read", map[string]any{"path": "slow.txt"}),
				agentcoretest.ToolCall("c2", "read", map[string]any{"path": "fast.txt", "limit": 3}),
			},
			Usage: usage, Chunks: 4,
		},
		{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "The slow file says hello; the fast one says bye."}}, Usage: usage, Chunks: 5},
	}
}

// readTool reads a file. The read of slow.txt returns only once fastDone
// is closed, so that the parallel reads end in the same order in every run.
func readTool(fastDone <-chan struct{}) agentcore.Tool {
	return agentcore.Tool{
		Name:        "read",
		Description: "Read a file.",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer"}},"required":["path"]}`),
		Execute: func(ctx context.Context, _ string, args json.RawMessage, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			var a struct{ Path string }
			_ = json.Unmarshal(args, &a)
			if a.Path == "slow.txt" {
				select {
				case <-fastDone:
				case <-ctx.Done():
					return agentcore.ToolResult{}, ctx.Err()
				}
			}
			return agentcore.TextResult("contents of " + a.Path), nil
		},
	}
}

// runAgent plays proxyScript with fn and returns the event trace and the
// transcript, as JSON values.
func runAgent(t *testing.T, fn agentcore.StreamFn) (trace []any, transcript any, updates []*agentcore.MessageUpdateEvent) {
	t.Helper()
	fastDone := make(chan struct{})
	agent := agentcore.New(agentcore.Options{
		SystemPrompt: "You read files.", Model: agentcoretest.Model(), StreamFn: fn, Tools: []agentcore.Tool{readTool(fastDone)},
		StreamOptions: agentcore.StreamOptions{SessionID: "s-1", MaxTokens: 500},
	})
	agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		if e, ok := ev.(*agentcore.ToolExecutionEndEvent); ok && e.ToolCallID == "c2" {
			close(fastDone)
		}
		if u, ok := ev.(*agentcore.MessageUpdateEvent); ok {
			updates = append(updates, u)
		}
		trace = append(trace, normalizeEvent(t, ev))
	})
	if err := agent.Prompt(context.Background(), "What do slow.txt and fast.txt say?"); err != nil {
		t.Fatal(err)
	}
	return trace, jsonValue(t, agent.State().Messages, "timestamp", "durationMs"), updates
}

// normalizeEvent is ev as a JSON value without timestamps and durations,
// and without what the fake model shows in partial messages that a proxy
// cannot (the final usage and stop reason before the end, tool arguments
// before toolcall_end: the fake streams them as one delta but shows {}).
func normalizeEvent(t *testing.T, ev agentcore.AgentEvent) any {
	v := jsonValue(t, ev, "timestamp", "durationMs").(map[string]any)
	switch e := ev.(type) {
	case *agentcore.MessageStartEvent:
		if _, ok := e.Message.(*agentcore.AssistantMessage); ok {
			stripPartial(v["message"], -1)
		}
	case *agentcore.MessageUpdateEvent:
		idx := -1
		if d, ok := e.AssistantEvent.(*agentcore.ToolCallDeltaEvent); ok {
			idx = d.ContentIndex
		}
		stripPartial(v["message"], idx)
		stripPartial(v["assistantMessageEvent"].(map[string]any)["partial"], idx)
	}
	return v
}

func stripPartial(m any, toolIdx int) {
	msg, _ := m.(map[string]any)
	if msg == nil {
		return
	}
	delete(msg, "usage")
	delete(msg, "stopReason")
	if content, _ := msg["content"].([]any); toolIdx >= 0 && toolIdx < len(content) {
		delete(content[toolIdx].(map[string]any), "arguments")
	}
}

// proxyServer serves fn through a ProxyHandler on loopback.
func proxyServer(t testing.TB, fn agentcore.StreamFn) *httptest.Server {
	srv := httptest.NewServer(agentcore.NewProxyHandler(agentcore.ProxyHandlerOptions{StreamFn: fn, Authorize: allowToken("proxy-token")}))
	t.Cleanup(srv.Close)
	return srv
}

func TestProxyAgentRunMatchesDirect(t *testing.T) {
	direct := agentcoretest.New(proxyScript()...)
	wantTrace, wantTranscript, _ := runAgent(t, direct.Stream)

	served := agentcoretest.New(proxyScript()...)
	srv := proxyServer(t, served.Stream)
	gotTrace, gotTranscript, updates := runAgent(t, agentcore.StreamProxy(agentcore.ProxyOptions{URL: srv.URL, AuthToken: "proxy-token"}))

	if len(gotTrace) != len(wantTrace) {
		t.Fatalf("%d events through the proxy, %d direct", len(gotTrace), len(wantTrace))
	}
	for i := range wantTrace {
		if !reflect.DeepEqual(gotTrace[i], wantTrace[i]) {
			g, _ := json.Marshal(gotTrace[i])
			w, _ := json.Marshal(wantTrace[i])
			t.Fatalf("event %d differs\nproxy  %s\ndirect %s", i, g, w)
		}
	}
	if !reflect.DeepEqual(gotTranscript, wantTranscript) {
		g, _ := json.MarshalIndent(gotTranscript, "", " ")
		t.Fatalf("transcripts differ; through the proxy:\n%s", g)
	}
	// The server's model saw the requests the direct model saw.
	dc, sc := direct.Calls(), served.Calls()
	if len(dc) != 2 || len(sc) != 2 {
		t.Fatalf("calls: direct %d, served %d", len(dc), len(sc))
	}
	for i := range dc {
		if w, g := jsonValue(t, dc[i].Request.Messages, "timestamp", "durationMs"), jsonValue(t, sc[i].Request.Messages, "timestamp", "durationMs"); !reflect.DeepEqual(g, w) {
			gj, _ := json.Marshal(g)
			wj, _ := json.Marshal(w)
			t.Errorf("request %d: the server saw other messages\nserved %s\ndirect %s", i+1, gj, wj)
		}
		if dc[i].Options.SessionID != sc[i].Options.SessionID || dc[i].Options.MaxTokens != sc[i].Options.MaxTokens || !reflect.DeepEqual(dc[i].Model, sc[i].Model) {
			t.Errorf("request %d: options or model differ: %+v / %+v", i+1, sc[i].Options, dc[i].Options)
		}
	}
	// While tool arguments stream, the proxy shows their parsed value.
	var shown []string
	for _, u := range updates {
		if d, ok := u.AssistantEvent.(*agentcore.ToolCallDeltaEvent); ok {
			shown = append(shown, string(u.Message.Content[d.ContentIndex].(agentcore.ToolCall).Arguments))
		}
	}
	if want := []string{`{"path":"slow.txt"}`, `{"limit":3,"path":"fast.txt"}`}; !reflect.DeepEqual(shown, want) {
		t.Errorf("streamed arguments %q, want %q", shown, want)
	}
}

func TestProxyAgentAbortMidStream(t *testing.T) {
	served := agentcoretest.New(agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "this answer never ends"}}, Chunks: 4, Hang: true})
	srv := proxyServer(t, served.Stream)
	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: agentcore.StreamProxy(agentcore.ProxyOptions{URL: srv.URL, AuthToken: "proxy-token"})})
	agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		if u, ok := ev.(*agentcore.MessageUpdateEvent); ok && u.AssistantEvent.Type() == "text_end" {
			agent.Abort()
		}
	})
	done := make(chan error, 1)
	go func() { done <- agent.Prompt(context.Background(), "talk") }()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Prompt returned %v, want an abort", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the aborted run did not end")
	}
	msgs := agent.State().Messages
	last, ok := msgs[len(msgs)-1].(*agentcore.AssistantMessage)
	if !ok || last.StopReason != agentcore.StopAborted || last.ErrorMessage != agentcore.ProxyAbortedText || last.Text() != "this answer never ends" {
		t.Fatalf("last message %+v", msgs[len(msgs)-1])
	}
}

// TestProxyConcurrentStreams runs 1,000 proxied streams at once through one
// handler and checks that every one completes and no goroutine outlives
// them.
func TestProxyConcurrentStreams(t *testing.T) {
	const n = 1000
	before := runtime.NumGoroutine()
	ignore := goleak.IgnoreCurrent()
	served := agentcoretest.NewFunc(func(_ context.Context, call agentcoretest.Call) agentcoretest.Response {
		r := agentcoretest.TextResponse(fmt.Sprintf("answer to %s", call.Request.Messages[0].(*agentcore.UserMessage).Content.Text()))
		r.Chunks = 5
		return r
	})
	srv := httptest.NewServer(agentcore.NewProxyHandler(agentcore.ProxyHandlerOptions{StreamFn: served.Stream, Authorize: allowToken("tok")}))
	transport := &http.Transport{MaxIdleConnsPerHost: 64}
	fn := agentcore.StreamProxy(agentcore.ProxyOptions{URL: srv.URL, AuthToken: "tok", Client: &http.Client{Transport: transport}})

	var wg sync.WaitGroup
	errs := make(chan error, n)
	peak := 0
	var peakMu sync.Mutex
	for i := range n {
		wg.Go(func() {
			prompt := fmt.Sprintf("q%d", i)
			got := collect(fn(context.Background(), agentcoretest.Model(), agentcore.Request{Messages: []agentcore.Message{agentcore.UserText(prompt)}}, agentcore.StreamOptions{}))
			peakMu.Lock()
			peak = max(peak, runtime.NumGoroutine())
			peakMu.Unlock()
			if got.final == nil || got.final.StopReason != agentcore.StopStop || got.final.Text() != "answer to "+prompt || got.types[0] != "start" {
				errs <- fmt.Errorf("stream %d: %v %+v", i, got.types, got.final)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	transport.CloseIdleConnections()
	srv.Close()
	goleak.VerifyNone(t, ignore)
	t.Logf("goroutines: %d before, peak %d, %d after", before, peak, runtime.NumGoroutine())
	if served.CallCount() != n {
		t.Errorf("%d calls served", served.CallCount())
	}
}

// benchBody is a proxied answer: 200 text deltas and a tool call whose
// arguments stream in 60 pieces.
func benchBody() []byte {
	var b strings.Builder
	ev := func(s string) { b.WriteString("data: " + s + "\n\n") }
	ev(`{"type":"start"}`)
	ev(`{"type":"text_start","contentIndex":0}`)
	for range 200 {
		ev(`{"type":"text_delta","contentIndex":0,"delta":"streamed words, "}`)
	}
	ev(`{"type":"text_end","contentIndex":0}`)
	ev(`{"type":"toolcall_start","contentIndex":1,"id":"c1","toolName":"write"}`)
	args, _ := json.Marshal(map[string]any{"path": "src/main.go", "content": strings.Repeat("package main // line\n", 30)})
	for i := 0; i < len(args); i += len(args)/60 + 1 {
		piece, _ := json.Marshal(string(args[i:min(i+len(args)/60+1, len(args))]))
		ev(`{"type":"toolcall_delta","contentIndex":1,"delta":` + string(piece) + `}`)
	}
	ev(`{"type":"toolcall_end","contentIndex":1,"toolCall":{"type":"toolCall","id":"c1","name":"write","arguments":` + string(args) + `}}`)
	ev(`{"type":"done","reason":"toolUse","usage":{"input":1,"output":2,"cacheRead":0,"cacheWrite":0,"totalTokens":3,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}}`)
	return []byte(b.String())
}

// BenchmarkProxyDecode measures the client side of a proxied stream: SSE
// reading, event decoding and the rebuilt partials, over an in-memory
// transport.
func BenchmarkProxyDecode(b *testing.B) {
	body := benchBody()
	fn := agentcore.StreamProxy(agentcore.ProxyOptions{URL: "http://proxy.invalid", Client: &http.Client{Transport: bodyTransport{body}}})
	want := strings.Count(string(body), "data: ")
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		n := 0
		for range fn(context.Background(), fixtureModel, agentcore.Request{}, agentcore.StreamOptions{}) {
			n++
		}
		if n != want {
			b.Fatalf("%d events", n)
		}
	}
}

// BenchmarkProxyLoopback measures a whole proxied stream on loopback: the
// handler serving the fake model and the client rebuilding it.
func BenchmarkProxyLoopback(b *testing.B) {
	served := agentcoretest.NewFunc(func(context.Context, agentcoretest.Call) agentcoretest.Response {
		r := agentcoretest.TextResponse(strings.Repeat("streamed words, ", 50))
		r.Chunks = 50
		return r
	})
	srv := proxyServer(b, served.Stream)
	fn := agentcore.StreamProxy(agentcore.ProxyOptions{URL: srv.URL, AuthToken: "proxy-token"})
	b.ReportAllocs()
	for b.Loop() {
		got := collect(fn(context.Background(), agentcoretest.Model(), agentcore.Request{}, agentcore.StreamOptions{}))
		if got.final == nil || got.final.StopReason != agentcore.StopStop {
			b.Fatalf("final %+v", got.final)
		}
	}
}
