package openai_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/providers/openai"
)

// fakeServer stands in for any OpenAI-compatible server: it streams
// "Hello, world!" in two pieces.
func fakeServer() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"1","choices":[{"index":0,"delta":{"content":"Hello"}}]}`+"\n\n")
		fmt.Fprint(w, `data: {"id":"1","choices":[{"index":0,"delta":{"content":", world!"},"finish_reason":"stop"}]}`+"\n\n")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
}

// An agent whose model is behind an OpenAI-compatible server, printing
// the answer as it streams.
func Example() {
	srv := fakeServer()
	defer srv.Close()

	agent := agentcore.New(agentcore.Options{
		Model:        agentcore.Model{ID: "my-model", Provider: "local", API: "openai-completions", Input: []string{"text"}},
		StreamFn:     openai.StreamFn(openai.Options{BaseURL: srv.URL + "/v1"}),
		SystemPrompt: "Be brief.",
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

	stream := openai.StreamFn(openai.Options{BaseURL: srv.URL})
	req := agentcore.Request{Messages: []agentcore.Message{agentcore.UserText("Say hello.")}}
	for ev := range stream(context.Background(), agentcore.Model{ID: "my-model"}, req, agentcore.StreamOptions{APIKey: "sk-..."}) {
		switch ev := ev.(type) {
		case *agentcore.DoneEvent:
			fmt.Printf("%s: %q\n", ev.Reason, ev.Message.Text())
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
	// stop: "Hello, world!"
}
