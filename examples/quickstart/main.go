// Command quickstart runs an agent on the built-in fake model (no network,
// no key) and prints its events as a readable log: streaming text, a
// parallel batch of two tool calls, a steering message typed while the tools
// run, and a follow-up taken when the agent would otherwise stop.
//
//	go run ./examples/quickstart
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/examples/internal/eventlog"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

// files is the pretend workspace the tools read.
var files = map[string]string{
	"notes.txt": "ship the agent loop on friday",
	"todo.txt":  "write docs, add examples, measure",
}

type readArgs struct {
	Path string `json:"path" jsonschema:"required,description=file to read"`
}

type countArgs struct {
	Text string `json:"text" jsonschema:"required"`
}

// tools returns the workspace's tools. notes.txt is slow: it is read only
// once todoShown is closed, when the end of todo.txt's read was shown, so
// the parallel batch finishes out of order.
func tools(todoShown <-chan struct{}) []agentcore.Tool {
	read := agentcore.NewTool("read_file", "Read a file of the workspace.",
		func(ctx context.Context, _ string, args readArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			if args.Path == "notes.txt" {
				select {
				case <-todoShown:
				case <-ctx.Done():
					return agentcore.ToolResult{}, ctx.Err()
				}
			}
			text, ok := files[args.Path]
			if !ok {
				return agentcore.ToolResult{}, fmt.Errorf("no such file: %s", args.Path)
			}
			return agentcore.TextResult(text), nil
		})
	count := agentcore.NewTool("word_count", "Count the words of a text.",
		func(_ context.Context, _ string, args countArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			return agentcore.TextResult(fmt.Sprint(len(strings.Fields(args.Text)))), nil
		})
	return []agentcore.Tool{read, count}
}

// script is what the fake model answers, request by request.
func script() []agentcoretest.Response {
	tc := agentcoretest.ToolCall
	return []agentcoretest.Response{
		{Content: []agentcore.ContentBlock{
			agentcore.TextBlock{Text: "Reading both files."},
			tc("c1", "read_file", map[string]string{"path": "notes.txt"}),
			tc("c2", "read_file", map[string]string{"path": "todo.txt"}),
		}, StopReason: agentcore.StopToolUse, Chunks: 3},
		{Content: []agentcore.ContentBlock{
			agentcore.TextBlock{Text: "Counting, as you asked."},
			tc("c3", "word_count", map[string]string{"text": files["todo.txt"]}),
		}, StopReason: agentcore.StopToolUse, Chunks: 2},
		{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "The notes say to ship on Friday; the todo list has 5 words."}}, Chunks: 4},
		{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "Summary: ship Friday, then docs."}}, Chunks: 2},
	}
}

func run(ctx context.Context, w io.Writer) error {
	fake := agentcoretest.New(script()...)
	todoShown := make(chan struct{})
	agent := agentcore.New(agentcore.Options{
		SystemPrompt: "You are a careful assistant.",
		Model:        agentcoretest.Model(),
		StreamFn:     fake.Stream,
		Tools:        tools(todoShown),
	})
	// The log shows each event as a line; see examples/internal/eventlog.
	steer := agentcore.UserText("Also count the words of todo.txt.")
	followUp := agentcore.UserText("Then summarize in one line.")
	log := eventlog.Log{W: w, ToolRuns: true, UserLabel: func(m *agentcore.UserMessage) string {
		switch m {
		case steer:
			return "steer"
		case followUp:
			return "follow-up"
		}
		return ""
	}}
	steered := false
	agent.Subscribe(func(ctx context.Context, ev agentcore.AgentEvent) {
		log.Event(ctx, ev)
		if end, ok := ev.(*agentcore.ToolExecutionEndEvent); ok && end.ToolCallID == "c2" {
			close(todoShown)
		}
		// A user types while the first tool batch runs: steering waits for
		// the batch to finish, then goes in before the next request.
		if start, ok := ev.(*agentcore.ToolExecutionStartEvent); ok && !steered && start.ToolCallID == "c2" {
			steered = true
			agent.Steer(steer)
		}
	})
	// A follow-up runs only when the agent would otherwise stop.
	agent.FollowUp(followUp)
	if err := agent.Prompt(ctx, "What do my files say?"); err != nil {
		return err
	}
	st := agent.State()
	fmt.Fprintf(w, "done: %d messages, %d model requests\n", len(st.Messages), fake.CallCount())
	return nil
}
