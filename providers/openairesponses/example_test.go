package openairesponses_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/providers/openairesponses"
)

// fakeServer stands in for OpenAI's Responses API: it streams one message
// item, "Hello, world!", in two pieces.
func fakeServer() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, data := range []string{
			`{"type":"response.created","response":{"id":"resp_1","status":"in_progress"}}`,
			`{"type":"response.output_item.added","output_index":0,"item":{"id":"msg_1","type":"message","role":"assistant","content":[]}}`,
			`{"type":"response.output_text.delta","output_index":0,"delta":"Hello"}`,
			`{"type":"response.output_text.delta","output_index":0,"delta":", world!"}`,
			`{"type":"response.output_item.done","output_index":0,"item":{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"output_text","text":"Hello, world!"}]}}`,
			`{"type":"response.completed","response":{"id":"resp_1","status":"completed","usage":{"input_tokens":12,"output_tokens":4,"total_tokens":16}}}`,
		} {
			fmt.Fprintf(w, "data: %s\n\n", data)
		}
	}))
}

// An agent whose model is behind the Responses API, printing the answer
// as it streams.
func Example() {
	srv := fakeServer()
	defer srv.Close()

	agent := agentcore.New(agentcore.Options{
		Model:         agentcore.Model{ID: "gpt-5-mini", Provider: "openai", API: "openai-responses", Reasoning: true, Input: []string{"text", "image"}},
		StreamFn:      openairesponses.StreamFn(openairesponses.Options{BaseURL: srv.URL + "/v1"}),
		StreamOptions: agentcore.StreamOptions{APIKey: "sk-...", Reasoning: agentcore.ThinkingLow},
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

	stream := openairesponses.StreamFn(openairesponses.Options{BaseURL: srv.URL, APIKey: "sk-..."})
	req := agentcore.Request{Messages: []agentcore.Message{agentcore.UserText("Say hello.")}}
	for ev := range stream(context.Background(), agentcore.Model{ID: "gpt-5-mini", Provider: "openai", API: "openai-responses"}, req, agentcore.StreamOptions{}) {
		switch ev := ev.(type) {
		case *agentcore.DoneEvent:
			fmt.Printf("%s: %q, response %s, %d tokens\n", ev.Reason, ev.Message.Text(), ev.Message.ResponseID, ev.Message.Usage.TotalTokens)
		case *agentcore.ErrorEvent:
			fmt.Printf("%s: %s\n", ev.Reason, ev.Message.ErrorMessage)
		default:
			fmt.Println(ev.Type())
		}
	}
	// Output:
	// start
	// text_start
	// text_delta
	// text_delta
	// text_end
	// stop: "Hello, world!", response resp_1, 16 tokens
}
