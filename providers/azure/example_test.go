package azure_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/providers/azure"
)

// An agent whose model is an Azure OpenAI deployment, answering from a
// stand-in for the resource.
func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Println(r.URL.Path, r.URL.Query().Get("api-version"), r.Header.Get("Api-Key"))
		w.Header().Set("Content-Type", "text/event-stream")
		for _, data := range []string{
			`{"type":"response.output_item.added","output_index":0,"item":{"id":"msg_1","type":"message","role":"assistant","content":[]}}`,
			`{"type":"response.output_text.delta","output_index":0,"delta":"Hello from Azure"}`,
			`{"type":"response.output_item.done","output_index":0,"item":{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"output_text","text":"Hello from Azure"}]}}`,
			`{"type":"response.completed","response":{"id":"resp_1","status":"completed","usage":{"input_tokens":12,"output_tokens":4,"total_tokens":16}}}`,
		} {
			fmt.Fprintf(w, "data: %s\n\n", data)
		}
	}))
	defer srv.Close()

	agent := agentcore.New(agentcore.Options{
		Model: agentcore.Model{ID: "gpt-5-mini", Provider: "azure", API: "azure-openai-responses"},
		StreamFn: azure.StreamFn(azure.Options{
			BaseURL:     srv.URL + "/openai/v1",
			Deployments: map[string]string{"gpt-5-mini": "prod-mini"},
			Getenv:      func(string) string { return "" },
		}),
		StreamOptions: agentcore.StreamOptions{APIKey: "my-azure-key"},
	})
	if err := agent.Prompt(context.Background(), "Hi"); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(agent.State().Messages[1].(*agentcore.AssistantMessage).Text())
	// Output:
	// /openai/v1/responses v1 my-azure-key
	// Hello from Azure
}
