package mistral_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/providers/mistral"
)

// An agent on a Mistral model, its session routed by x-affinity,
// answering from a stand-in for Mistral's API.
func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Println(r.URL.Path, r.Header.Get("X-Affinity"))
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"c1","choices":[{"index":0,"delta":{"content":"Bonjour"},"finish_reason":null}]}`+"\n\n")
		fmt.Fprint(w, `data: {"id":"c1","choices":[{"index":0,"delta":{"content":""},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}`+"\n\n")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	defer srv.Close()

	agent := agentcore.New(agentcore.Options{
		Model:         agentcore.Model{ID: "mistral-small-latest", Provider: "mistral", API: "mistral-conversations"},
		StreamFn:      mistral.StreamFn(mistral.Options{BaseURL: srv.URL}),
		StreamOptions: agentcore.StreamOptions{APIKey: "my-mistral-key", SessionID: "chat-42"},
	})
	if err := agent.Prompt(context.Background(), "Hi"); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(agent.State().Messages[1].(*agentcore.AssistantMessage).Text())
	// Output:
	// /v1/chat/completions chat-42
	// Bonjour
}
