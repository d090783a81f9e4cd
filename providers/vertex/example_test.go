package vertex_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/providers/vertex"
)

// An agent whose Gemini model is on Vertex AI, with a token from the
// caller (Application Default Credentials in a real program), answering
// from a stand-in for Vertex.
func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Println(r.URL.Path, r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"candidates":[{"content":{"parts":[{"text":"Hello from Vertex"}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":3,"candidatesTokenCount":3,"totalTokenCount":6}}`+"\n\n")
	}))
	defer srv.Close()

	agent := agentcore.New(agentcore.Options{
		Model: agentcore.Model{ID: "gemini-2.5-flash", Provider: "google-vertex", API: "google-vertex"},
		StreamFn: vertex.StreamFn(vertex.Options{
			BaseURL: srv.URL, Project: "my-project", Location: "us-central1",
			Token:  func(context.Context) (string, error) { return "ya29.token", nil },
			Getenv: func(string) string { return "" },
		}),
	})
	if err := agent.Prompt(context.Background(), "Hi"); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(agent.State().Messages[1].(*agentcore.AssistantMessage).Text())
	// Output:
	// /v1/publishers/google/models/gemini-2.5-flash:streamGenerateContent Bearer ya29.token
	// Hello from Vertex
}
