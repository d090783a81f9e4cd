package agentcoretest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
			assert.Equal(t, tt.wantTypes, fmt.Sprint(types), "events")
			require.NotNil(t, final)
			assert.Equal(t, tt.wantStop, final.StopReason)
			assert.Equal(t, tt.wantText, final.Text())
			assert.Equal(t, "fake-model", final.Model)
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
	require.NotNil(t, final, "aborted final")
	assert.Equal(t, agentcore.StopAborted, final.StopReason)
	assert.Equal(t, agentcoretest.AbortedText, final.ErrorMessage)
	assert.Equal(t, "partial", final.Text())
	_, final = collect(t, fake.Stream(context.Background(), agentcoretest.Model(), agentcore.Request{}, agentcore.StreamOptions{}))
	require.NotNil(t, final, "past the script")
	assert.Equal(t, agentcoretest.ErrNoResponse.Error(), final.ErrorMessage, "past the script")
	assert.ErrorIs(t, final.Err, agentcoretest.ErrNoResponse)
	calls := fake.Calls()
	require.Len(t, calls, 2)
	assert.Equal(t, "k", calls[0].Options.APIKey)
	assert.Equal(t, 2, calls[1].Index)
}

func TestSplitText(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		chunks int
		want   string
	}{
		{"halves", "hello", 2, "[hel lo]"},
		{"more chunks than characters", "hello", 10, "[h e l l o]"},
		{"zero chunks is one", "hello", 0, "[hello]"},
		{"empty", "", 3, "[]"},
		{"a character is a rune", "héllo", 5, "[h é l l o]"},
		{"last piece shorter", "abcdefg", 3, "[abc def g]"},
		{"runes in thirds", "héllo wörld", 3, "[héll o wö rld]"},
		{"an invalid byte is a character", "a\xffb", 3, "[a \xff b]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, fmt.Sprint(agentcoretest.SplitText(tt.text, tt.chunks)))
		})
	}
}

// FuzzSplitText checks SplitText against splitting a slice of runes.
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
		assert.Equal(t, want, agentcoretest.SplitText(text, chunks), "SplitText(%q, %d)", text, chunks)
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
	tests := []struct{ name, in, want string }{
		{"nested keys sorted", `{"b":1,"a":[1,{"d":"x","c":null}]}`, `{"a":[1,{"c":null,"d":"x"}],"b":1}`},
		{"no HTML escaping", `{"a":1,"b":"<&>"}`, `{"a":1,"b":"<&>"}`},
		{"compact, numbers as JavaScript prints them", `{ "a" : 1.50 }`, `{"a":1.5}`},
		{"big integers as JavaScript prints them", `{"a":12345678901234567890,"b":-0}`, `{"a":12345678901234567000,"b":0}`},
		{"non-ASCII as is", `{"a":"é"}`, `{"a":"é"}`},
		{"escapes as JavaScript writes them", `{"a":"\u00e9\/"}`, `{"a":"é/"}`},
		{"already canonical", `{"a":1,"b":{"a":2}}`, `{"a":1,"b":{"a":2}}`},
		{"empty is an empty object", ``, `{}`},
		{"invalid comes back unchanged", `{"a":`, `{"a":`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, agentcoretest.CanonicalJSON([]byte(tt.in)))
		})
	}
}
