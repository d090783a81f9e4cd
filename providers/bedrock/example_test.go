package bedrock_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/providers"
	"github.com/pi-go/agentcore/providers/bedrock"
)

// fakeBedrock stands in for Bedrock: it answers with a recorded event
// stream of "Hello there, world.".
func fakeBedrock() *httptest.Server {
	body, err := os.ReadFile("testdata/stream/text.bin")
	if err != nil {
		panic(err)
	}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/vnd.amazon.eventstream")
		w.Write(body)
	}))
}

// An agent whose registry dispatches Bedrock models to this package
// beside the built-in providers.
func Example() {
	srv := fakeBedrock()
	defer srv.Close()

	reg := providers.New(providers.Options{})
	// BaseURL points at the fake; leave it empty for the region's
	// endpoint. Without a BearerToken (or AWS_BEARER_TOKEN_BEDROCK) the
	// request is signed with the AWS credential chain.
	bedrock.Register(reg, bedrock.Options{BaseURL: srv.URL, BearerToken: "bedrock-api-key"})

	agent := agentcore.New(agentcore.Options{
		Model: agentcore.Model{ID: "anthropic.claude-sonnet-4-5-20250929-v1:0", Name: "Claude Sonnet 4.5",
			Provider: "amazon-bedrock", API: bedrock.API, Reasoning: true, Input: []string{"text", "image"},
			ContextWindow: 200000, MaxTokens: 64000},
		StreamFn:     reg.Stream,
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
	msgs := agent.State().Messages
	answer := msgs[len(msgs)-1].(*agentcore.AssistantMessage)
	fmt.Println(answer.StopReason, "after", answer.Usage.Input, "input tokens")
	// Output:
	// Hello there, world.
	// stop after 12 input tokens
}
