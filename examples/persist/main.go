// Command persist shows the session pattern of the pi coding agent on top of
// agentcore, which stores nothing itself:
//
//   - a listener appends every finished message (message_end, any role) to a
//     JSON-lines session file;
//   - PrepareRequest rebuilds the run's context from that file before every
//     model request, so the file, not the Agent's in-memory transcript, is
//     what the model sees (compaction or other writers can change it
//     between requests);
//   - after a "restart" a brand-new Agent picks the conversation up from the
//     file.
//
// Run it with
//
//	go run ./examples/persist            # in a temporary directory
//	go run ./examples/persist -dir .     # keep session.jsonl
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

func main() {
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

// SessionFile is an append-only transcript, one JSON message per line.
type SessionFile struct {
	Path string
	// Registry decodes app-defined message roles; unknown roles are kept
	// as *agentcore.CustomMessage, so nothing is lost on the way back.
	Registry *agentcore.MessageRegistry
}

// Exists reports whether the file has been started.
func (f *SessionFile) Exists() bool {
	_, err := os.Stat(f.Path)
	return err == nil
}

// Append writes messages at the end of the file.
func (f *SessionFile) Append(messages ...agentcore.Message) error {
	var buf bytes.Buffer
	for _, m := range messages {
		line, err := json.Marshal(m)
		if err != nil {
			return err
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	file, err := os.OpenFile(f.Path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = file.Write(buf.Bytes())
	return errors.Join(err, file.Close())
}

// Load reads every message of the file.
func (f *SessionFile) Load() ([]agentcore.Message, error) {
	data, err := os.ReadFile(f.Path)
	if err != nil {
		return nil, err
	}
	var out []agentcore.Message
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		m, err := f.Registry.UnmarshalMessage(sc.Bytes())
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", f.Path, n, err)
		}
		out = append(out, m)
	}
	return out, sc.Err()
}

// NewAgent returns an Agent whose conversation lives in f: a new file
// starts with the Agent's leading system message (the prompt and the tool
// declarations); every finished message is appended; every request is
// built from the file. The Agent's own transcript stays a working copy
// holding what its runs emitted; a UI that shows the whole history restores
// it at startup with agent.SetMessages(f.Load()).
func NewAgent(f *SessionFile, opts agentcore.Options) (*agentcore.Agent, error) {
	var writeErr error // a listener cannot fail a run; PrepareRequest can
	opts.PrepareRequest = func(_ context.Context, req agentcore.RequestContext) (*agentcore.RequestUpdate, error) {
		if writeErr != nil {
			return nil, fmt.Errorf("session file: %w", writeErr)
		}
		messages, err := f.Load()
		if err != nil {
			return nil, err // ends the run with the Agent's failure sequence
		}
		return &agentcore.RequestUpdate{Context: &agentcore.AgentContext{Messages: messages, Tools: req.Context.Tools}}, nil
	}
	agent := agentcore.New(opts)
	if !f.Exists() {
		if err := f.Append(agent.Messages()...); err != nil {
			return nil, err
		}
	}
	// Listeners are awaited: by the time PrepareRequest runs, the messages
	// of this turn so far are in the file.
	agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		if end, ok := ev.(*agentcore.MessageEndEvent); ok && writeErr == nil {
			writeErr = f.Append(end.Message)
		}
	})
	return agent, nil
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

// run plays two "processes" sharing dir/session.jsonl, then a third agent
// without the file for contrast.
func run(ctx context.Context, dir string, out io.Writer) error {
	file := &SessionFile{Path: filepath.Join(dir, "session.jsonl"), Registry: &agentcore.MessageRegistry{}}
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
	first, err := NewAgent(file, options(model()))
	if err != nil {
		return err
	}
	if err := ask(first, "Hi! My name is Ada."); err != nil {
		return err
	}
	saved, err := file.Load()
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "session file: %s\n", roles(saved))

	fmt.Fprintln(out, "== restart: a new Agent, the same file")
	fake := model()
	second, err := NewAgent(file, options(fake))
	if err != nil {
		return err
	}
	if err := ask(second, "What is my name?"); err != nil {
		return err
	}
	fmt.Fprintf(out, "the request showed the model: %s\n", roles(fake.Calls()[0].Request.Messages))
	fmt.Fprintf(out, "the new Agent's own transcript: %s\n", roles(second.Messages()))
	if saved, err = file.Load(); err != nil {
		return err
	}
	fmt.Fprintf(out, "session file: %s\n", roles(saved))

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
