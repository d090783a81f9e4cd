// Command persist keeps a conversation in a pi session file (package
// session) and resumes it in a new Agent after a "restart":
//
//   - the session's Layer appends every finished message (message_end) to
//     the file, as pi's coding agent does;
//   - Restore builds a new Agent's options from the file: the transcript
//     of the current leaf, its model and thinking level;
//   - the file opens in pi itself (pi --session <file>).
//
// Run it with
//
//	go run ./examples/persist            # in a temporary directory
//	go run ./examples/persist -dir .     # keep the session file
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/session"
)

func main() {
	flag.Usage = func() {
		fmt.Fprint(flag.CommandLine.Output(), "Usage: go run ./examples/persist [-dir DIR]\n\n"+
			"Keeps a conversation in a pi session file, then resumes it in a new Agent.\n\nFlags:\n")
		flag.PrintDefaults()
	}
	dir := flag.String("dir", "", "directory for session.jsonl (default: a temporary one)")
	flag.Parse()
	if *dir == "" {
		tmp, err := os.MkdirTemp("", "persist")
		if err != nil {
			fmt.Fprintln(os.Stderr, "persist:", err)
			os.Exit(1)
		}
		defer os.RemoveAll(tmp)
		*dir = tmp
	}
	if err := run(context.Background(), *dir, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "persist:", err)
		os.Exit(1)
	}
}

type noteArgs struct {
	Text string `json:"text" jsonschema:"required"`
}

func noteTool() agentcore.Tool {
	return agentcore.NewTool("note", "Write something down.",
		func(_ context.Context, _ string, args noteArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			return agentcore.TextResult("noted: " + args.Text), nil
		})
}

var introduction = regexp.MustCompile(`My name is (\w+)`)

// model is a fake model that only knows what its request shows it: the
// answer to "what is my name?" depends on the transcript it was given.
func model() *agentcoretest.Fake {
	return agentcoretest.NewFunc(func(_ context.Context, call agentcoretest.Call) agentcoretest.Response {
		msgs := call.Request.Messages
		name := ""
		for _, m := range msgs {
			if u, ok := m.(*agentcore.UserMessage); ok {
				if match := introduction.FindStringSubmatch(u.Content.Text()); match != nil {
					name = match[1]
				}
			}
		}
		switch last := msgs[len(msgs)-1].(type) {
		case *agentcore.ToolResultMessage:
			return agentcoretest.TextResponse("Nice to meet you, " + name + ".")
		case *agentcore.UserMessage:
			if introduction.MatchString(last.Content.Text()) {
				return agentcoretest.ToolCallResponse(agentcoretest.ToolCall("n1", "note", map[string]string{"text": "name: " + name}))
			}
			if name == "" {
				return agentcoretest.TextResponse("I don't know your name.")
			}
			return agentcoretest.TextResponse("Your name is " + name + ".")
		}
		return agentcoretest.TextResponse("?")
	})
}

// run plays two "processes" sharing one session file in dir, then a
// third agent without it for contrast.
func run(ctx context.Context, dir string, out io.Writer) error {
	options := func(fake *agentcoretest.Fake) agentcore.Options {
		return agentcore.Options{
			SystemPrompt: "You remember people.",
			Model:        agentcoretest.Model(),
			StreamFn:     fake.Stream,
			Tools:        []agentcore.Tool{noteTool()},
		}
	}
	ask := func(agent *agentcore.Agent, text string) error {
		fmt.Fprintln(out, "user:", text)
		if err := agent.Prompt(ctx, text); err != nil {
			return err
		}
		msgs := agent.Messages()
		fmt.Fprintln(out, "model:", msgs[len(msgs)-1].(*agentcore.AssistantMessage).Text())
		return nil
	}

	fmt.Fprintln(out, "== first process")
	s, err := session.Create(dir, "/work/project", nil)
	if err != nil {
		return err
	}
	first := agentcore.New(s.Restore(options(model()), nil))
	if err := ask(first, "Hi! My name is Ada."); err != nil {
		return err
	}
	path := s.File()
	fmt.Fprintf(out, "session file: %s\n", roles(s.Context().Messages))
	if err := s.Close(); err != nil {
		return err
	}

	fmt.Fprintln(out, "== restart: a new Agent, the same file")
	if s, err = session.Open(path, nil); err != nil {
		return err
	}
	defer s.Close()
	fake := model()
	second := agentcore.New(s.Restore(options(fake), nil))
	fmt.Fprintf(out, "restored transcript: %s\n", roles(second.Messages()))
	if err := ask(second, "What is my name?"); err != nil {
		return err
	}
	fmt.Fprintf(out, "the request showed the model: %s\n", roles(fake.Calls()[0].Request.Messages))
	fmt.Fprintf(out, "session file: %s\n", roles(s.Context().Messages))

	fmt.Fprintln(out, "== for contrast, an Agent without the file")
	return ask(agentcore.New(options(model())), "What is my name?")
}

func roles(messages []agentcore.Message) string {
	out := make([]string, len(messages))
	for i, m := range messages {
		out[i] = m.Role()
	}
	return fmt.Sprintf("%d messages (%s)", len(messages), strings.Join(out, " "))
}
