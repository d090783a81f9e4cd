package agentcoretest_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func collect(t *testing.T, s agentcore.AssistantStream) ([]string, *agentcore.AssistantMessage) {
	t.Helper()
	var types []string
	var final *agentcore.AssistantMessage
	for ev := range s {
		types = append(types, ev.Type())
		switch e := ev.(type) {
		case *agentcore.DoneEvent:
			final = e.Message
		case *agentcore.ErrorEvent:
			final = e.Message
		}
	}
	return types, final
}

func TestFakeResponses(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name      string
		resp      agentcoretest.Response
		wantTypes string
		wantStop  agentcore.StopReason
		wantText  string
	}{
		{name: "text in chunks", resp: agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "hello"}}, Chunks: 2},
			wantTypes: "[start text_start text_delta text_delta text_end done]", wantStop: agentcore.StopStop, wantText: "hello"},
		{name: "thinking then text", resp: agentcoretest.ThinkingResponse("hmm", "ok"),
			wantTypes: "[start thinking_start thinking_delta thinking_end text_start text_delta text_end done]", wantStop: agentcore.StopStop, wantText: "ok"},
		{name: "tool call", resp: agentcoretest.ToolCallResponse(agentcoretest.ToolCall("1", "t", map[string]int{"b": 2, "a": 1})),
			wantTypes: "[start toolcall_start toolcall_delta toolcall_end done]", wantStop: agentcore.StopToolUse},
		{name: "error before start", resp: agentcoretest.ErrorResponse("overloaded"),
			wantTypes: "[error]", wantStop: agentcore.StopError},
		{name: "empty text has no delta", resp: agentcoretest.TextResponse(""),
			wantTypes: "[start text_start text_end done]", wantStop: agentcore.StopStop},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := agentcoretest.New(tt.resp)
			types, final := collect(t, fake.Stream(ctx, agentcoretest.Model(), agentcore.Request{}, agentcore.StreamOptions{}))
			if got := fmt.Sprint(types); got != tt.wantTypes {
				t.Fatalf("events %s, want %s", got, tt.wantTypes)
			}
			if final.StopReason != tt.wantStop || final.Text() != tt.wantText || final.Model != "fake-model" {
				t.Fatalf("final %+v", final)
			}
		})
	}
}

func TestFakeAbortAndScriptEnd(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "partial"}}, Hang: true})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stream := fake.Stream(ctx, agentcoretest.Model(), agentcore.Request{}, agentcore.StreamOptions{APIKey: "k"})
	var final *agentcore.AssistantMessage
	for ev := range stream {
		if ev.Type() == "text_end" {
			cancel()
		}
		if e, ok := ev.(*agentcore.ErrorEvent); ok {
			final = e.Message
		}
	}
	if final.StopReason != agentcore.StopAborted || final.ErrorMessage != agentcoretest.AbortedText || final.Text() != "partial" {
		t.Fatalf("aborted final %+v", final)
	}
	_, final = collect(t, fake.Stream(context.Background(), agentcoretest.Model(), agentcore.Request{}, agentcore.StreamOptions{}))
	if final.ErrorMessage != agentcoretest.ErrNoResponse {
		t.Fatalf("past the script: %+v", final)
	}
	if calls := fake.Calls(); len(calls) != 2 || calls[0].Options.APIKey != "k" || calls[1].Index != 2 {
		t.Fatalf("calls %+v", calls)
	}
}

func TestSplitText(t *testing.T) {
	tests := []struct {
		text   string
		chunks int
		want   string
	}{
		{"hello", 2, "[hel lo]"}, {"hello", 10, "[h e l l o]"}, {"hello", 0, "[hello]"}, {"", 3, "[]"}, {"héllo", 5, "[h é l l o]"},
		{"abcdefg", 3, "[abc def g]"}, {"héllo wörld", 3, "[héll o wö rld]"},
	}
	for _, tt := range tests {
		if got := fmt.Sprint(agentcoretest.SplitText(tt.text, tt.chunks)); got != tt.want {
			t.Errorf("SplitText(%q, %d) = %s, want %s", tt.text, tt.chunks, got, tt.want)
		}
	}
}

// FuzzSplitText checks SplitText, whose ASCII texts take a shortcut,
// against splitting a slice of runes.
func FuzzSplitText(f *testing.F) {
	for _, seed := range []string{"hello", "héllo wörld", "", "a", "日本語のテキスト", "abcdefghijé", "abcdefgh日本", "abcdefghijklmnopq"} {
		f.Add(seed, 3)
	}
	f.Fuzz(func(t *testing.T, text string, chunks int) {
		if !utf8.ValidString(text) {
			return // runes would replace the invalid bytes
		}
		runes := []rune(text)
		var want []string
		if n := len(runes); n > 0 {
			parts := max(1, min(chunks, n))
			size := (n + parts - 1) / parts
			for start := 0; start < n; start += size {
				want = append(want, string(runes[start:min(start+size, n)]))
			}
		}
		if got := agentcoretest.SplitText(text, chunks); !slices.Equal(got, want) {
			t.Fatalf("SplitText(%q, %d) = %q, want %q", text, chunks, got, want)
		}
	})
}

// Example tests an agent with the fake model: one tool call, then an answer.
func Example() {
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "greet", map[string]string{"name": "Go"})),
		agentcoretest.TextResponse("I greeted Go."),
	)
	type greetArgs struct {
		Name string `json:"name"`
	}
	greet := agentcore.NewTool("greet", "Greets someone.",
		func(_ context.Context, _ string, args greetArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			return agentcore.TextResult("hello, " + args.Name), nil
		})
	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{greet}})
	if err := agent.Prompt(context.Background(), "Greet Go."); err != nil {
		panic(err)
	}
	for _, m := range agent.Messages() {
		switch m := m.(type) {
		case *agentcore.ToolResultMessage:
			fmt.Println("tool:", agentcore.Blocks(m.Content...).Text())
		case *agentcore.AssistantMessage:
			fmt.Println(strings.TrimSpace(fmt.Sprintf("assistant: [%s] %s", m.StopReason, m.Text())))
		}
	}
	fmt.Println("requests:", fake.CallCount())
	// Output:
	// assistant: [toolUse]
	// tool: hello, Go
	// assistant: [stop] I greeted Go.
	// requests: 2
}

func TestCanonicalJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"b":1,"a":[1,{"d":"x","c":null}]}`, `{"a":[1,{"c":null,"d":"x"}],"b":1}`},
		{`{"a":1,"b":"<&>"}`, `{"a":1,"b":"<&>"}`},
		{`{ "a" : 1.50 }`, `{"a":1.5}`},
		{`{"a":"é"}`, `{"a":"é"}`},
		{`{"a":1,"b":{"a":2}}`, `{"a":1,"b":{"a":2}}`},
		{``, `{}`},
	}
	for _, tt := range tests {
		if got := agentcoretest.CanonicalJSON([]byte(tt.in)); got != tt.want {
			t.Errorf("CanonicalJSON(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
