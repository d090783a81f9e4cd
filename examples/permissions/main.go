// Command permissions shows a permission prompt built on the BeforeToolCall
// hook: before a risky shell command runs, the user is asked y/n on an input
// stream (stdin here), and no answer within a timeout means no. A denied
// call does not run; the model receives an error tool result with the
// reason, and adapts. agentcore has no notion of permissions: the policy is
// all in the hook.
//
//	go run ./examples/permissions     # answer y or n; silence for 10s denies
//
// The model is the scripted fake, so nothing needs a network or a key, and
// the "shell" only pretends to run commands.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Stdin, os.Stdout, 10*time.Second); err != nil {
		fmt.Fprintln(os.Stderr, "permissions:", err)
		os.Exit(1)
	}
}

// asker asks yes/no questions and reads the answers, one line each, from an
// input stream. Answers are taken in order: a real UI would tie each answer
// to its question.
type asker struct {
	out     io.Writer
	lines   <-chan string // closed at the end of the input
	timeout time.Duration
}

// newAsker starts reading in. The reader goroutine ends at the end of the
// input, or once done is closed and it is not blocked reading.
func newAsker(in io.Reader, out io.Writer, timeout time.Duration, done <-chan struct{}) *asker {
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			select {
			case lines <- strings.TrimSpace(sc.Text()):
			case <-done:
				return
			}
		}
	}()
	return &asker{out: out, lines: lines, timeout: timeout}
}

// confirm asks question and reports whether the answer was yes; when it was
// not, reason says why, for the model.
func (a *asker) confirm(ctx context.Context, question string) (ok bool, reason string) {
	fmt.Fprintf(a.out, "%s [y/N] ", question)
	timer := time.NewTimer(a.timeout)
	defer timer.Stop()
	select {
	case answer, open := <-a.lines:
		switch {
		case !open:
			fmt.Fprintln(a.out, "(no input)")
			return false, "The user could not be asked (no input); denied by default."
		case strings.EqualFold(answer, "y") || strings.EqualFold(answer, "yes"):
			fmt.Fprintln(a.out, "-> allowed")
			return true, ""
		default:
			fmt.Fprintln(a.out, "-> denied")
			return false, "The user denied this command."
		}
	case <-timer.C:
		fmt.Fprintf(a.out, "(no answer within %v) -> denied\n", a.timeout)
		return false, fmt.Sprintf("The user did not answer within %v; denied by default.", a.timeout)
	case <-ctx.Done(): // the run was aborted while we waited
		fmt.Fprintln(a.out, "(aborted)")
		return false, "Aborted while waiting for the user."
	}
}

type shellArgs struct {
	Command string `json:"command" jsonschema:"required" jsonschema_description:"The command line to run"`
}

// safe lists the commands that run without asking.
var safe = map[string]bool{"ls": true, "pwd": true, "git status": true}

// permissionHook is the policy: safe commands run, others need a yes.
func permissionHook(a *asker) func(context.Context, agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
	return func(ctx context.Context, call agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
		if call.ToolCall.Name != "shell" {
			return nil, nil
		}
		var args shellArgs
		if err := json.Unmarshal(call.Args, &args); err != nil {
			return nil, err // the call fails with this text
		}
		if safe[args.Command] {
			return nil, nil
		}
		if ok, reason := a.confirm(ctx, fmt.Sprintf("Allow shell %q?", args.Command)); !ok {
			return agentcore.Block(reason), nil
		}
		return nil, nil
	}
}

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

// model is the fake model: it runs a few commands and, at the end, reports
// the tool results it was given, denials included.
func model() *agentcoretest.Fake {
	shell := func(id, command string) agentcore.ToolCall {
		return agentcoretest.ToolCall(id, "shell", map[string]string{"command": command})
	}
	script := []agentcoretest.Response{
		agentcoretest.ToolCallResponse(shell("c1", "ls"), shell("c2", "go test ./...")),
		agentcoretest.ToolCallResponse(shell("c3", "rm -rf build")),
		agentcoretest.ToolCallResponse(shell("c4", "git push --force")),
	}
	return agentcoretest.NewFunc(func(_ context.Context, call agentcoretest.Call) agentcoretest.Response {
		if call.Index <= len(script) {
			return script[call.Index-1]
		}
		var denied []string
		for _, m := range call.Request.Messages {
			if r, ok := m.(*agentcore.ToolResultMessage); ok && r.IsError {
				denied = append(denied, r.ToolCallID)
			}
		}
		return agentcoretest.TextResponse(fmt.Sprintf("Tests pass. I did not clean or push: calls %s were refused.", strings.Join(denied, " and ")))
	})
}

// run plays the session, asking on in and writing the log to out; an
// unanswered question is denied after timeout.
func run(ctx context.Context, in io.Reader, out io.Writer, timeout time.Duration) error {
	done := make(chan struct{})
	defer close(done)
	ask := newAsker(in, out, timeout, done)

	agent := agentcore.New(agentcore.Options{
		SystemPrompt: "You are a careful coding agent.",
		Model:        agentcoretest.Model(),
		StreamFn:     model().Stream,
		Tools:        []agentcore.Tool{shellTool()},
		Hooks:        agentcore.Hooks{BeforeToolCall: permissionHook(ask)},
	})
	agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		m, ok := ev.(*agentcore.MessageEndEvent)
		if !ok {
			return
		}
		switch m := m.Message.(type) {
		case *agentcore.AssistantMessage:
			for _, c := range m.ToolCalls() {
				fmt.Fprintf(out, "model calls %s %s\n", c.Name, c.Arguments)
			}
			if text := m.Text(); text != "" {
				fmt.Fprintln(out, "model:", text)
			}
		case *agentcore.ToolResultMessage:
			// This is exactly what the next request shows the model.
			kind := "result"
			if m.IsError {
				kind = "error result"
			}
			text := agentcore.Blocks(m.Content...).Text()
			fmt.Fprintf(out, "  %s %s: %s\n", kind, m.ToolCallID, strings.ReplaceAll(text, "\n", " | "))
		}
	})
	return agent.Prompt(ctx, "Run the tests, clean the build directory and push.")
}
