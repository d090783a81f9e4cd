// Command webchat serves a chat page for an agentcore agent over AG-UI:
// the answer streams in, the agent's reasoning and each tool call (its
// arguments and result) show as they happen, a Stop button ends the run,
// a front-end tool asks the user to confirm before the agent deploys, and
// a server tool held by a hold.Gate (deploy, held by an Always policy)
// shows an approval card: Approve, or Deny with a reason (AG-UI interrupts
// and RunAgentInput.resume).
// The page is plain HTML and JavaScript speaking AG-UI to the agui
// package's handler; any AG-UI client (@ag-ui/client, CopilotKit) can use
// the same endpoint, /agent.
//
// On the built-in fake model (no key, no network), from the repository's
// root:
//
//	go run ./examples/webchat
//
// then open http://127.0.0.1:8080. On a real model, name it as
// PROVIDER/ID from pi-ai's catalog; the key comes from the provider's
// environment variable (ANTHROPIC_API_KEY, GEMINI_API_KEY,
// OPENAI_API_KEY, ...; -h lists them):
//
//	go run ./examples/webchat -model anthropic/claude-sonnet-4-5
//	go run ./examples/webchat -model google/gemini-2.5-flash -thinking low
//	go run ./examples/webchat -model openai/gpt-4.1-mini
//	go run ./examples/webchat -model ollama/qwen3 -base-url http://localhost:11434/v1
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/examples/internal/modelflag"
	"github.com/pi-go/agentcore/examples/webchat/internal/webchat"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "webchat:", err)
		os.Exit(1)
	}
}

// run parses the flags and serves until ctx is done; -h prints the usage
// and returns flag.ErrHelp.
func run(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("webchat", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	thinking := fs.String("thinking", "", "thinking level: minimal, low, medium, high (default off)")
	flags := modelflag.Register(fs, "go run ./examples/webchat [-model PROVIDER/ID] [-base-url URL] [-addr HOST:PORT]",
		"  Without a model named, the page runs the built-in fake model.\n")
	if help, err := modelflag.Parse(fs, args); help || err != nil {
		return cmp.Or(err, flag.ErrHelp)
	}
	cfg, err := config(flags.Getenv(os.Getenv), agentcore.ThinkingLevel(*thinking))
	if err != nil {
		return err
	}
	return webchat.Serve(ctx, *addr, webchat.New(cfg), os.Stdout, "webchat", cfg.Model)
}

// config is the page's model (see webchat.ConfigFrom).
var config = webchat.ConfigFrom
