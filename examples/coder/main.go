// Command coder is a terminal coding agent: a model with pi's coding tools
// (package codingtools: read, bash, edit, write, grep, find, ls) working in
// a directory, with compaction keeping long sessions within the model's
// window, and a y/n question before every bash command, write and edit
// (a hold.Gate holds those calls for the user's decision).
//
// Without -model it runs offline on the fake model of agentcoretest, in a
// scratch directory holding a small Go program, with a scripted session
// (the prompt and the y/n answers are fixed):
//
//	go run ./examples/coder
//
// With a model, it works in -dir (default: the current directory) and
// reads prompts and answers from the terminal:
//
//	ANTHROPIC_API_KEY=sk-ant-... go run ./examples/coder -model anthropic/claude-sonnet-4-5 -dir ~/src/project
//	go run ./examples/coder -model ollama/qwen3 -base-url http://localhost:11434/v1
//
// -model PROVIDER/ID takes the model from pi-ai's catalog (package models)
// and -base-url URL sends the requests to another server, as in
// examples/chat; the key is the provider's variable (ANTHROPIC_API_KEY,
// OPENAI_API_KEY, ...). Ctrl-C quits, aborting a running answer.
package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/codingtools"
	"github.com/pi-go/agentcore/compaction"
	"github.com/pi-go/agentcore/examples/internal/modelflag"
	"github.com/pi-go/agentcore/examples/internal/toolprompt"
	"github.com/pi-go/agentcore/hold"
	"github.com/pi-go/agentcore/providers"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdin, os.Stdout); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "coder:", err)
		os.Exit(1)
	}
}

// run parses the flags and runs a session: the scripted one on the fake
// model when no model is named, else one reading in.
func run(ctx context.Context, args []string, in io.Reader, out io.Writer) error {
	fs := flag.NewFlagSet("coder", flag.ContinueOnError)
	fs.SetOutput(out)
	dir := fs.String("dir", ".", "the directory to work in (with a model)")
	flags := modelflag.Register(fs, "go run ./examples/coder [-model PROVIDER/ID] [-base-url URL] [-dir DIR]",
		"  Without a model named, a scripted session runs on the built-in fake model.\n")
	if help, err := modelflag.Parse(fs, args); help || err != nil {
		return cmp.Or(err, flag.ErrHelp)
	}
	env := flags.Getenv(os.Getenv)
	m, ok, err := modelflag.Lookup(env)
	switch {
	case err != nil:
		return err
	case !ok:
		return runFake(ctx, out)
	}
	s := session{dir: *dir, model: m, streamFn: providers.StreamFn(providers.Options{Getenv: env}), in: bufio.NewScanner(in), out: out}
	if m.Provider == providers.LocalProvider {
		s.apiKey = env("OPENAI_API_KEY")
	}
	return s.run(ctx)
}

// session is what one coding session needs: where it works, the model and
// how to call it, and where prompts and answers come from.
type session struct {
	dir      string
	model    agentcore.Model
	streamFn agentcore.StreamFn
	apiKey   string
	in       *bufio.Scanner
	out      io.Writer
	echo     bool // print the lines read from in (scripted input)
	gate     *hold.Gate
}

// run reads prompts until the input ends.
func (s *session) run(ctx context.Context) error {
	agent := s.newAgent()
	agent.Subscribe(s.printer())
	fmt.Fprintf(s.out, "coder in %s with %s. Enter sends.\n", s.dir, s.model.ID)
	for {
		line, ok := s.readLine("> ")
		if !ok {
			return nil
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		err := agent.Prompt(ctx, line)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if _, ran := errors.AsType[*agentcore.RunError](err); err != nil && !ran {
			fmt.Fprintln(s.out, "error:", err)
		}
	}
}

// readLine prints prompt and reads a line; false at the end of input.
func (s *session) readLine(prompt string) (string, bool) {
	fmt.Fprint(s.out, prompt)
	if !s.in.Scan() {
		fmt.Fprintln(s.out)
		return "", false
	}
	line := s.in.Text()
	if s.echo {
		fmt.Fprintln(s.out, line)
	}
	return line, true
}

// newAgent is the agent with its tools and two layers: a Gate that holds
// every call of a tool in asks for the user's decision, and compaction.
func (s *session) newAgent() *agentcore.Agent {
	s.gate = hold.New(hold.Options{
		Policy:  hold.Always(hold.Request{Title: "Allow this call?"}, slices.Sorted(maps.Keys(asks))...),
		OnEvent: s.onHold,
	})
	compactor := compaction.New(compaction.Options{
		OnEvent: func(_ context.Context, ev compaction.Event) {
			if end, ok := ev.(*compaction.EndEvent); ok && end.Err == nil {
				fmt.Fprintf(s.out, "  [compacted: %d -> %d tokens]\n", end.Result.TokensBefore, end.Result.TokensAfter)
			}
		},
	})
	return agentcore.New(agentcore.Options{
		Model:         s.model,
		StreamFn:      s.streamFn,
		StreamOptions: agentcore.StreamOptions{APIKey: s.apiKey},
		SystemPrompt:  systemPrompt(s.dir),
		Tools:         codingtools.AllTools(s.dir, nil),
		Layers:        []agentcore.Layer{s.gate, compactor},
	})
}

// asks are the tools that change something: each call waits for the
// user's decision.
var asks = map[string]bool{"bash": true, "write": true, "edit": true}

// onHold asks y/n for each call the Gate holds, on the run's goroutine,
// and decides it at once, so that the run goes on; anything but "y" or
// "yes" denies the call and tells the model so. A decided call's result
// is shown once it replaced the placeholder.
func (s *session) onHold(ev hold.Event) {
	switch ev := ev.(type) {
	case *hold.HeldEvent:
		c := ev.Call
		answer, _ := s.readLine(fmt.Sprintf("  allow %s %s? [y/N] ", c.Tool, c.Arguments))
		var d hold.Decision = hold.Deny{ID: c.ID, Reason: "The user declined this " + c.Tool + " call."}
		if a := strings.ToLower(strings.TrimSpace(answer)); a == "y" || a == "yes" {
			d = hold.Approve{ID: c.ID}
		}
		if err := s.gate.Decide(d); err != nil {
			fmt.Fprintln(s.out, "error:", err)
		}
	case *hold.ResolvedEvent:
		s.showResult(ev.Result.Text(), ev.Result.IsError)
	}
}

// systemPrompt introduces the agent and lists the tools.
func systemPrompt(dir string) string {
	abs, _ := filepath.Abs(dir)
	return toolprompt.For(fmt.Sprintf("You are a coding assistant working in %s. Use the tools to look at the code before changing it, and keep answers short.", abs))
}

// printer shows each answer and each tool call with the start of its
// result.
func (s *session) printer() agentcore.Listener {
	return func(_ context.Context, ev agentcore.AgentEvent) {
		switch ev := ev.(type) {
		case *agentcore.MessageEndEvent:
			if m, ok := ev.Message.(*agentcore.AssistantMessage); ok {
				if text := strings.TrimSpace(m.Text()); text != "" {
					fmt.Fprintln(s.out, text)
				}
				if m.ErrorMessage != "" {
					fmt.Fprintln(s.out, "error:", m.ErrorMessage)
				}
			}
		case *agentcore.ToolExecutionStartEvent:
			if !asks[ev.ToolName] { // those were shown by the question
				fmt.Fprintf(s.out, "  %s %s\n", ev.ToolName, ev.Args)
			}
		case *agentcore.ToolExecutionEndEvent:
			if !s.gate.Holds(ev.ToolCallID) { // a held call's result is shown once decided
				s.showResult(ev.Result.Text(), ev.IsError)
			}
		}
	}
}

// showResult prints the start of a tool's result, marked "!" when the
// call failed.
func (s *session) showResult(text string, failed bool) {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) > 6 {
		lines = append(lines[:6], fmt.Sprintf("... (%d more lines)", len(lines)-6))
	}
	mark := "="
	if failed {
		mark = "!"
	}
	for _, l := range lines {
		fmt.Fprintf(s.out, "    %s %s\n", mark, l)
	}
}
