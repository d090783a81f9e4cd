// Command coder is a terminal coding agent: a model with pi's coding tools
// (package codingtools: read, bash, edit, write, grep, find, ls) working in
// a directory, with compaction keeping long sessions within the model's
// window, and a y/n question before every bash command, write and edit.
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
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/codingtools"
	"github.com/pi-go/agentcore/compaction"
	"github.com/pi-go/agentcore/providers"
)

func main() {
	model := flag.String("model", "", "the model, PROVIDER/ID from pi-ai's catalog, such as anthropic/claude-sonnet-4-5 (default: the offline fake model and a scripted session)")
	baseURL := flag.String("base-url", "", "the server to send requests to, such as http://localhost:11434/v1")
	dir := flag.String("dir", ".", "the directory to work in (with -model)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var err error
	if *model == "" {
		err = runFake(ctx, os.Stdout)
	} else {
		err = runModel(ctx, *model, *baseURL, *dir, os.Stdin, os.Stdout)
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(os.Stderr, "coder:", err)
		os.Exit(1)
	}
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
}

func runModel(ctx context.Context, name, baseURL, dir string, in io.Reader, out io.Writer) error {
	m, err := providers.LookupModel(name, baseURL)
	if err != nil {
		return err
	}
	s := session{dir: dir, model: m, streamFn: providers.StreamFn(providers.Options{}), in: bufio.NewScanner(in), out: out}
	if m.Provider == providers.LocalProvider {
		s.apiKey = os.Getenv("OPENAI_API_KEY")
	}
	return s.run(ctx)
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

// newAgent is the agent with its tools, permissions and compaction, a
// layer.
func (s *session) newAgent() *agentcore.Agent {
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
		Hooks:         agentcore.Hooks{BeforeToolCall: s.confirm},
		Layers:        []agentcore.Layer{compactor},
	})
}

// asks are the tools that change something: each call asks first.
var asks = map[string]bool{"bash": true, "write": true, "edit": true}

// confirm asks y/n before a call of a tool in asks; anything but "y" or
// "yes" blocks the call and tells the model so.
func (s *session) confirm(_ context.Context, c agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
	if !asks[c.ToolCall.Name] {
		return nil, nil
	}
	answer, _ := s.readLine(fmt.Sprintf("  allow %s %s? [y/N] ", c.ToolCall.Name, c.Args))
	if a := strings.ToLower(strings.TrimSpace(answer)); a == "y" || a == "yes" {
		return nil, nil
	}
	return agentcore.Block("The user declined this " + c.ToolCall.Name + " call."), nil
}

// systemPrompt lists the tools with their snippets and guidelines.
func systemPrompt(dir string) string {
	var b strings.Builder
	abs, _ := filepath.Abs(dir)
	fmt.Fprintf(&b, "You are a coding assistant working in %s. Use the tools to look at the code before changing it, and keep answers short.\n\nTools:\n", abs)
	var guidelines []string
	for _, name := range codingtools.ToolNames() {
		p, _ := codingtools.Prompt(name)
		fmt.Fprintf(&b, "- %s: %s\n", name, p.Snippet)
		guidelines = append(guidelines, p.Guidelines...)
	}
	b.WriteString("\nGuidelines:\n")
	for _, g := range guidelines {
		fmt.Fprintf(&b, "- %s\n", g)
	}
	return b.String()
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
			text := ev.Result.Text()
			lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
			if len(lines) > 6 {
				lines = append(lines[:6], fmt.Sprintf("... (%d more lines)", len(lines)-6))
			}
			mark := "="
			if ev.IsError {
				mark = "!"
			}
			for _, l := range lines {
				fmt.Fprintf(s.out, "    %s %s\n", mark, l)
			}
		}
	}
}
