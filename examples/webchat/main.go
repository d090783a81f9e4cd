// Command webchat serves a chat page for an agentcore agent over AG-UI:
// the answer streams in, the agent's reasoning and each tool call (its
// arguments and result) show as they happen, a Stop button ends the run,
// and a front-end tool asks the user to confirm before the agent deploys.
// The page is plain HTML and JavaScript speaking AG-UI to the agui
// package's handler; any AG-UI client (@ag-ui/client, CopilotKit) can use
// the same endpoint, /agent.
//
// On the built-in fake model (no key, no network), from the repository's
// root:
//
//	go run ./examples/webchat
//
// then open http://127.0.0.1:8080. On a real model, name its API and ID;
// the key comes from the provider's environment variable
// (ANTHROPIC_API_KEY, GEMINI_API_KEY, OPENAI_API_KEY):
//
//	go run ./examples/webchat -api anthropic-messages -model claude-sonnet-4-5
//	go run ./examples/webchat -api google-generative-ai -model gemini-2.5-flash -thinking low
//	go run ./examples/webchat -api openai-completions -model gpt-4.1-mini
//	go run ./examples/webchat -api openai-completions -base-url http://localhost:11434/v1 -model qwen3
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/examples/webchat/internal/webchat"
	"github.com/pi-go/agentcore/providers"
	"github.com/pi-go/agentcore/providers/anthropic"
	"github.com/pi-go/agentcore/providers/google"
	"github.com/pi-go/agentcore/providers/openai"
	"github.com/pi-go/agentcore/providers/openairesponses"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "webchat:", err)
		os.Exit(1)
	}
}

// run parses the flags and serves until ctx is done.
func run(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("webchat", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	api := fs.String("api", "", "the model's API: "+strings.Join([]string{providers.AnthropicMessages, providers.GoogleGenerativeAI, providers.OpenAICompletions, providers.OpenAIResponses}, ", ")+"; empty runs the built-in fake model")
	model := fs.String("model", "", "the model's ID (with -api)")
	provider := fs.String("provider", "", "the model's provider name (default: derived from -api)")
	baseURL := fs.String("base-url", "", "the provider's base URL (default: the provider's own)")
	thinking := fs.String("thinking", "", "thinking level: minimal, low, medium, high (default off)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := config(*api, *model, *provider, *baseURL, agentcore.ThinkingLevel(*thinking))
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           webchat.New(cfg),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		IdleTimeout:       2 * time.Minute,
	}
	fmt.Printf("webchat: %s · %s on http://%s\n", cfg.Model.Provider, cfg.Model.ID, ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = srv.Shutdown(shutdown)
	if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) {
		return serr
	}
	return err
}

// config is the page's model: the fake one without an API, else the
// named model behind the providers' dispatcher.
func config(api, model, provider, baseURL string, thinking agentcore.ThinkingLevel) (webchat.Config, error) {
	if api == "" {
		if model != "" {
			return webchat.Config{}, errors.New("-model needs -api")
		}
		return webchat.Config{Model: agentcoretest.Model(), StreamFn: webchat.FakeModel(40 * time.Millisecond).Stream}, nil
	}
	if model == "" {
		return webchat.Config{}, errors.New("-api needs -model")
	}
	if provider == "" {
		provider = map[string]string{
			providers.AnthropicMessages: "anthropic", providers.GoogleGenerativeAI: "google",
			providers.OpenAICompletions: "openai", providers.OpenAIResponses: "openai",
		}[api]
	}
	m := agentcore.Model{ID: model, Name: model, API: api, Provider: provider, BaseURL: baseURL,
		Reasoning: thinking != "", Input: []string{"text", "image"}, MaxTokens: 16000}
	fn := providers.StreamFn(providers.Options{
		OpenAI:          openai.Options{BaseURL: baseURL},
		OpenAIResponses: openairesponses.Options{BaseURL: baseURL},
		Anthropic:       anthropic.Options{BaseURL: baseURL},
		Google:          google.Options{BaseURL: baseURL},
	})
	return webchat.Config{Model: m, StreamFn: fn, ThinkingLevel: thinking}, nil
}
