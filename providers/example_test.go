package providers_test

import (
	"context"
	"fmt"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/providers"
)

// A registry streams each model with the provider of its API; a program
// registers its own API beside the built-in ones.
func ExampleRegistry_Register() {
	r := providers.New(providers.Options{})
	r.Register("echo", func(ctx context.Context, model agentcore.Model, req agentcore.Request, so agentcore.StreamOptions) agentcore.AssistantStream {
		return agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
			last := req.Messages[len(req.Messages)-1].(*agentcore.UserMessage)
			w.Done(&agentcore.AssistantMessage{
				Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "echo: " + last.Content.Text()}},
				API:     model.API, Provider: model.Provider, Model: model.ID, StopReason: agentcore.StopStop,
			})
		})
	})
	agent := agentcore.New(agentcore.Options{
		Model:    agentcore.Model{ID: "echo-1", Provider: "local", API: "echo"},
		StreamFn: r.Stream,
	})
	if err := agent.Prompt(context.Background(), "hello"); err != nil {
		fmt.Println(err)
		return
	}
	msgs := agent.State().Messages
	fmt.Println(msgs[len(msgs)-1].(*agentcore.AssistantMessage).Text())
	fmt.Println(r.APIs())
	// Output:
	// echo: hello
	// [anthropic-messages azure-openai-responses echo google-generative-ai google-vertex mistral-conversations openai-completions openai-responses]
}
