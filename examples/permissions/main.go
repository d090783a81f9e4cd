// Command permissions asks a person before risky shell commands run, in a
// way that survives a restart: when the agent wants to run one, the
// program saves the conversation and the held call to a file and exits; a
// later invocation decides (approve or deny) and the run goes on from
// where it stopped. The policy is a hold.Gate layer (package hold); safe
// commands run without asking.
//
//	go run ./examples/permissions                  # runs until a command needs a decision, then exits
//	go run ./examples/permissions -approve c2      # approves it; the run goes on
//	go run ./examples/permissions -deny c3 -reason "never force-push"
//
// The session lives in -state (permissions.json in the current directory
// by default), deleted when the run finishes. The model is the scripted
// fake, so nothing needs a network or a key, and the "shell" only pretends
// to run commands.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/hold"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "permissions:", err)
		os.Exit(1)
	}
}

type shellArgs struct {
	Command string `json:"command" jsonschema:"required" jsonschema_description:"The command line to run"`
}

// safe lists the commands that run without asking.
var safe = map[string]bool{"ls": true, "pwd": true, "git status": true, "go test ./...": true}

// policy holds every shell command that is not known to be safe.
var policy = hold.When("shell", func(a shellArgs) *hold.Request {
	if safe[a.Command] {
		return nil
	}
	return &hold.Request{Title: fmt.Sprintf("Allow shell %q?", a.Command), Touches: []string{"the workspace"}}
})

// shellTool pretends to run commands: this example never executes anything.
func shellTool() agentcore.Tool {
	outputs := map[string]string{
		"ls":            "README.md\nbuild/\ngo.mod\nmain.go",
		"go test ./...": "ok  \texample.com/app\t0.012s",
	}
	return agentcore.NewTool("shell", "Run a shell command in the workspace.",
		func(_ context.Context, _ string, args shellArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			if out, ok := outputs[args.Command]; ok {
				return agentcore.TextResult(out), nil
			}
			return agentcore.TextResult("(done)"), nil
		})
}

// model is the fake model. It answers from the transcript it is sent, not
// from a count of its own calls, so that a new process picks up the script
// where the last one stopped.
func model() *agentcoretest.Fake {
	shell := func(id, command string) agentcore.ToolCall {
		return agentcoretest.ToolCall(id, "shell", map[string]string{"command": command})
	}
	script := []agentcoretest.Response{
		agentcoretest.ToolCallResponse(shell("c1", "go test ./..."), shell("c2", "rm -rf build")),
		agentcoretest.ToolCallResponse(shell("c3", "git push --force")),
	}
	return agentcoretest.NewFunc(func(_ context.Context, call agentcoretest.Call) agentcoretest.Response {
		turn := 0
		var refused []string
		for _, m := range call.Request.Messages {
			switch m := m.(type) {
			case *agentcore.AssistantMessage:
				turn++
			case *agentcore.ToolResultMessage:
				if m.IsError {
					refused = append(refused, m.ToolCallID)
				}
			}
		}
		if turn < len(script) {
			return script[turn]
		}
		if len(refused) == 0 {
			return agentcoretest.TextResponse("Tests pass, build cleaned, pushed.")
		}
		return agentcoretest.TextResponse("Tests pass. Not done, as refused: " + strings.Join(refused, ", ") + ".")
	})
}

// session is what the state file holds between invocations.
type session struct {
	Messages json.RawMessage `json:"messages"`
	Held     hold.State      `json:"held"`
}

// run is one invocation: args are the command line's flags, out the log.
func run(ctx context.Context, args []string, out io.Writer) error {
	flags := flag.NewFlagSet("permissions", flag.ContinueOnError)
	flags.SetOutput(out)
	path := flags.String("state", "permissions.json", "the session file")
	approve := flags.String("approve", "", "approve the held call of this ID")
	deny := flags.String("deny", "", "deny the held call of this ID")
	reason := flags.String("reason", "", "the reason of -deny, for the model")
	flags.Usage = func() {
		fmt.Fprint(flags.Output(), "Usage: go run ./examples/permissions [-state FILE] [-approve ID | -deny ID [-reason TEXT]]\n\n"+
			"Without -approve or -deny it starts a run, which holds risky commands and saves the session;\n"+
			"a later invocation decides on a held call and the run goes on.\n\nFlags:\n")
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		return err
	}

	gate := hold.New(hold.Options{Policy: policy, OnEvent: func(ev hold.Event) {
		// The decided calls' results replace their placeholders before the
		// resumed run's first request; the Agent's listeners do not see it.
		if r, ok := ev.(*hold.ResolvedEvent); ok {
			fmt.Fprintf(out, "decided %s: %s\n", r.Call.ID, resultLine(r.Result))
		}
	}})
	var messages []agentcore.Message
	saved, err := load(*path)
	switch {
	case err != nil:
		return err
	case saved != nil:
		if messages, err = agentcore.UnmarshalMessages(saved.Messages); err != nil {
			return fmt.Errorf("%s: %w", *path, err)
		}
		if err := gate.Restore(saved.Held); err != nil {
			return fmt.Errorf("%s: %w", *path, err)
		}
	case *approve != "" || *deny != "":
		return errors.New("nothing is waiting for a decision: run without -approve and -deny to start")
	}
	agent := agentcore.New(agentcore.Options{
		SystemPrompt: "You are a careful coding agent.",
		Model:        agentcoretest.Model(),
		StreamFn:     model().Stream,
		Tools:        []agentcore.Tool{shellTool()},
		Messages:     messages,
		Layers:       []agentcore.Layer{gate},
	})
	agent.Subscribe(logger(out))

	var decisions []hold.Decision
	if *approve != "" {
		decisions = append(decisions, hold.Approve{ID: *approve})
	}
	if *deny != "" {
		decisions = append(decisions, hold.Deny{ID: *deny, Reason: *reason})
	}
	if err := gate.Decide(decisions...); err != nil {
		return err // nothing changed: the file still holds the session
	}
	if saved == nil {
		err = agent.Prompt(ctx, "Run the tests, clean the build directory and push.")
	} else {
		err = agent.Continue(ctx)
	}
	var held *hold.HeldError
	if errors.As(err, &held) {
		for _, c := range held.Calls {
			fmt.Fprintf(out, "waiting: %s (call %s); run again with -approve %s or -deny %s\n", c.Title, c.ID, c.ID, c.ID)
		}
		return save(*path, agent.Messages(), gate.State())
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "session finished")
	return os.Remove(*path)
}

// logger prints the calls and results of the run, as the model sees them.
func logger(out io.Writer) agentcore.Listener {
	return func(_ context.Context, ev agentcore.AgentEvent) {
		m, ok := ev.(*agentcore.MessageEndEvent)
		if !ok {
			return
		}
		switch m := m.Message.(type) {
		case *agentcore.AssistantMessage:
			for _, c := range m.ToolCalls() {
				fmt.Fprintf(out, "model calls %s %s (%s)\n", c.Name, c.Arguments, c.ID)
			}
			if text := m.Text(); text != "" {
				fmt.Fprintln(out, "model:", text)
			}
		case *agentcore.ToolResultMessage:
			fmt.Fprintf(out, "  %s %s\n", m.ToolCallID, resultLine(m))
		}
	}
}

// resultLine is a tool result on one line.
func resultLine(m *agentcore.ToolResultMessage) string {
	kind := "result"
	if m.IsError {
		kind = "error result"
	}
	return kind + ": " + strings.ReplaceAll(m.Text(), "\n", " | ")
}

// load reads the session file; nil when there is none.
func load(path string) (*session, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var s session
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &s, nil
}

// save writes the session file, replacing it whole.
func save(path string, messages []agentcore.Message, held hold.State) error {
	msgs, err := json.Marshal(messages)
	if err != nil {
		return err
	}
	data, err := json.MarshalIndent(session{Messages: msgs, Held: held}, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
