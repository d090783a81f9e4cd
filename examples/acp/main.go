// Command acp is a coding agent an editor launches: it speaks the Agent
// Client Protocol (package acp) on its standard input and output, with
// pi's coding tools (package codingtools) working in the session's
// directory through the editor's buffers and terminal, a permission
// question before every bash command, write and edit, and pi's session
// files (~/.pi/agent/sessions), which the editor lists and resumes.
//
// Without -model it answers on the fake model of agentcoretest: it lists
// the directory and says so, no network, no key. With a model:
//
//	ANTHROPIC_API_KEY=sk-ant-... go run ./examples/acp -model anthropic/claude-sonnet-4-5
//	go run ./examples/acp -model ollama/qwen3 -base-url http://localhost:11434/v1
//
// -model PROVIDER/ID takes the model from pi-ai's catalog (package models)
// and -base-url URL sends the requests to another server, as in
// examples/chat; the key is the provider's variable (ANTHROPIC_API_KEY,
// OPENAI_API_KEY, ...), from the environment the editor gives the
// program. -sessions DIR keeps the session files under DIR instead of
// ~/.pi/agent. The README's "An agent in the editor" shows the settings
// of Zed and Neovim.
//
// The MCP servers the editor passes are ignored: the program sets no
// [acp.Options].ConnectMCP, since this module cannot import the mcp
// module (github.com/pi-go/agentcore/mcp, which holds the MCP SDK). A
// program that wants them sets ConnectMCP to agentmcp.ACPConnector of
// that module.
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/acp"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/codingtools"
	"github.com/pi-go/agentcore/examples/internal/modelflag"
	"github.com/pi-go/agentcore/examples/internal/toolprompt"
	"github.com/pi-go/agentcore/hold"
	"github.com/pi-go/agentcore/models"
	"github.com/pi-go/agentcore/providers"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	// Standard output is the protocol's: messages go to standard error.
	err := run(ctx, os.Args[1:], os.Getenv, stdio{}, os.Stderr)
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "acp:", err)
		os.Exit(1)
	}
}

// stdio is the editor's end: standard input and output.
type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return os.Stdin.Close() }

// run parses the flags and serves one editor on rw until its input ends.
func run(ctx context.Context, args []string, getenv func(string) string, rw io.ReadWriter, stderr io.Writer) error {
	fs := flag.NewFlagSet("acp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sessions := fs.String("sessions", "", "the directory of the session files (default: pi's, ~/.pi/agent)")
	flags := modelflag.Register(fs, "acp [-model PROVIDER/ID] [-base-url URL] [-sessions DIR]",
		"  Without a model named, the built-in fake model answers.\n")
	if help, err := modelflag.Parse(fs, args); help || err != nil {
		return cmp.Or(err, flag.ErrHelp)
	}
	env := flags.Getenv(getenv)
	model, ok, err := modelflag.Lookup(env)
	if err != nil {
		return err
	}
	streamFn := providers.StreamFn(providers.Options{Getenv: env})
	var apiKey string
	if !ok {
		model, streamFn = agentcoretest.Model(), fakeModel().Stream
	} else if model.Provider == providers.LocalProvider {
		apiKey = env("OPENAI_API_KEY")
	}
	srv := acp.NewServer(acp.Options{
		Name:       "agentcore-acp-example",
		Version:    "0.1.0",
		AgentDir:   *sessions,
		Lookup:     models.Lookup,
		Permission: hold.Always(hold.Request{}, "bash", "write", "edit"),
		Agent: func(_ context.Context, e *acp.Env) (agentcore.Options, error) {
			return agentcore.Options{
				Model:         model,
				StreamFn:      streamFn,
				StreamOptions: agentcore.StreamOptions{APIKey: apiKey},
				SystemPrompt:  systemPrompt(e.Cwd),
				Tools:         append(codingtools.AllTools(e.Cwd, &codingtools.Options{FS: e.FS, Shell: e.Shell}), e.Tools...),
			}, nil
		},
	})
	return srv.Serve(ctx, rw)
}

// fakeModel answers every prompt by listing the directory and saying
// what it is. Every session's Agent streams from it, at once.
func fakeModel() *agentcoretest.Fake {
	var n atomic.Int64
	return agentcoretest.NewFunc(func(_ context.Context, call agentcoretest.Call) agentcoretest.Response {
		msgs := call.Request.Messages
		if r, ok := msgs[len(msgs)-1].(*agentcore.ToolResultMessage); ok {
			entries := len(strings.Split(strings.TrimSpace(r.Text()), "\n"))
			return agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: fmt.Sprintf(
				"I am the fake model of agentcoretest: the directory holds %d entries. Start the agent with -model PROVIDER/ID to talk to a real one.", entries)}},
				Chunks: 4}
		}
		return agentcoretest.ToolCallResponse(agentcoretest.ToolCall(fmt.Sprint("ls-", n.Add(1)), "ls", map[string]any{}))
	})
}

// systemPrompt introduces the agent and lists the tools.
func systemPrompt(dir string) string {
	return toolprompt.For(fmt.Sprintf("You are a coding assistant working in %s, inside the user's editor. Use the tools to look at the code before changing it, and keep answers short.", dir))
}
