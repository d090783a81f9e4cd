package anthropic_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/providers/anthropic"
)

// fakeServer stands in for the Messages API: it thinks, then streams
// "Hello, world!" in two pieces.
func fakeServer() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, ev := range [][2]string{
			{"message_start", `{"type":"message_start","message":{"id":"msg_1","model":"claude-test","usage":{"input_tokens":12,"output_tokens":1}}}`},
			{"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}`},
			{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"A greeting."}}`},
			{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"sig"}}`},
			{"content_block_stop", `{"type":"content_block_stop","index":0}`},
			{"content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}`},
			{"content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hello"}}`},
			{"content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":", world!"}}`},
			{"content_block_stop", `{"type":"content_block_stop","index":1}`},
			{"message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":9}}`},
			{"message_stop", `{"type":"message_stop"}`},
		} {
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev[0], ev[1])
		}
	}))
}

// An agent on Claude, printing the answer as it streams.
func Example() {
	srv := fakeServer()
	defer srv.Close()

	agent := agentcore.New(agentcore.Options{
		Model: agentcore.Model{ID: "claude-test", Provider: "anthropic", API: "anthropic-messages",
			Reasoning: true, Input: []string{"text", "image"}, MaxTokens: 32000},
		ThinkingLevel: agentcore.ThinkingLow,
		StreamFn:      anthropic.StreamFn(anthropic.Options{BaseURL: srv.URL}),
		StreamOptions: agentcore.StreamOptions{APIKey: "sk-ant-..."},
		SystemPrompt:  "Be brief.",
	})
	agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		if u, ok := ev.(*agentcore.MessageUpdateEvent); ok {
			if d, ok := u.AssistantEvent.(*agentcore.TextDeltaEvent); ok {
				fmt.Print(d.Delta)
			}
		}
	})
	if err := agent.Prompt(context.Background(), "Say hello."); err != nil {
		fmt.Println(err)
	}
	fmt.Println()
	fmt.Println("failed:", agent.State().ErrorMessage != "")
	// Output:
	// Hello, world!
	// failed: false
}

// The stream function alone: one request, its events, its final message.
func ExampleStreamFn() {
	srv := fakeServer()
	defer srv.Close()

	stream := anthropic.StreamFn(anthropic.Options{BaseURL: srv.URL, APIKey: "sk-ant-..."})
	model := agentcore.Model{ID: "claude-test", Provider: "anthropic", API: "anthropic-messages", Cost: agentcore.ModelCost{Input: 3, Output: 15}}
	req := agentcore.Request{Messages: []agentcore.Message{agentcore.UserText("Say hello.")}}
	for ev := range stream(context.Background(), model, req, agentcore.StreamOptions{}) {
		switch ev := ev.(type) {
		case *agentcore.ThinkingEndEvent:
			fmt.Println("thinking:", ev.Content)
		case *agentcore.TextEndEvent:
			fmt.Println("text:", ev.Content)
		case *agentcore.DoneEvent:
			u := ev.Message.Usage
			fmt.Printf("%s, %d in, %d out, $%.6f\n", ev.Message.StopReason, u.Input, u.Output, u.Cost.Total)
		case *agentcore.ErrorEvent:
			fmt.Println("error:", ev.Message.ErrorMessage)
		}
	}
	// Output:
	// thinking: A greeting.
	// text: Hello, world!
	// stop, 12 in, 9 out, $0.000171
}
