package google_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/providers/google"
)

// fakeServer stands in for the Gemini API: it thinks, then streams
// "Hello, world!" in two chunks.
func fakeServer() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, chunk := range []string{
			`{"candidates":[{"content":{"parts":[{"text":"A greeting.","thought":true}],"role":"model"}}]}`,
			`{"candidates":[{"content":{"parts":[{"text":"Hello"}],"role":"model"}}]}`,
			`{"candidates":[{"content":{"parts":[{"text":", world!"}],"role":"model"},"finishReason":"STOP"}],` +
				`"usageMetadata":{"promptTokenCount":12,"candidatesTokenCount":4,"thoughtsTokenCount":5,"totalTokenCount":21}}`,
		} {
			fmt.Fprintf(w, "data: %s\r\n\r\n", chunk)
		}
	}))
}

// An agent on Gemini, printing the answer as it streams.
func Example() {
	srv := fakeServer()
	defer srv.Close()

	agent := agentcore.New(agentcore.Options{
		Model: agentcore.Model{ID: "gemini-2.5-flash", Provider: "google", API: "google-generative-ai",
			Reasoning: true, Input: []string{"text", "image"}, MaxTokens: 65536},
		ThinkingLevel: agentcore.ThinkingLow,
		StreamFn:      google.StreamFn(google.Options{BaseURL: srv.URL + "/v1beta"}),
		StreamOptions: agentcore.StreamOptions{APIKey: "gemini-key"},
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
	msgs := agent.State().Messages
	answer := msgs[len(msgs)-1].(*agentcore.AssistantMessage)
	fmt.Println("output tokens:", answer.Usage.Output, "of which thinking:", *answer.Usage.Reasoning)
	// Output:
	// Hello, world!
	// output tokens: 9 of which thinking: 5
}
