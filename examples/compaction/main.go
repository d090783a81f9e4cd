// Command compaction shows package compaction keeping a session within
// an 8k model's context window, on the fake model of agentcoretest (no
// network, no key):
//
//   - tool results fill the context during a run, and the Agent compacts
//     between two turns, before the next request;
//   - "/compact <instructions>" compacts on demand, with a focus;
//   - a request the server refuses as too large (llama.cpp's error text)
//     is recovered: the failed run ends, the transcript is compacted, and
//     a fresh run retries;
//   - the compacted transcript is saved as JSON and loaded into a new
//     Agent, summary included.
//
// Run it with
//
//	go run ./examples/compaction
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/compaction"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "compaction:", err)
		os.Exit(1)
	}
}

// script is the fake model's side of the session: the answers to the
// agent's requests in order, and a canned summary for summary requests.
var script = []agentcoretest.Response{
	readCall("notes1.txt"), readCall("notes2.txt"), readCall("notes3.txt"), agentcoretest.TextResponse("I read the three notes."),
	readCall("notes4.txt"), agentcoretest.TextResponse("The notes are about a garden."),
	agentcoretest.ErrorResponse("400 the request exceeds the available context size, try increasing it"),
	agentcoretest.TextResponse("Roses, tulips and a pond."),
	agentcoretest.TextResponse("You're welcome."),
}

func readCall(path string) agentcoretest.Response {
	return agentcoretest.ToolCallResponse(agentcoretest.ToolCall("read-"+path, "read", map[string]string{"path": path}))
}

// newFake answers summary requests (recognized by their system prompt)
// with a summary, and the agent's requests from script.
func newFake() *agentcoretest.Fake {
	next := 0
	return agentcoretest.NewFunc(func(_ context.Context, c agentcoretest.Call) agentcoretest.Response {
		if sys, ok := c.Request.Messages[0].(*agentcore.SystemMessage); ok && strings.HasPrefix(sys.Content.Text(), "You write context checkpoints") {
			return agentcoretest.TextResponse("## Goal\nRead the garden notes.\n\n## Progress\n### Done\n- [x] Read the notes")
		}
		if next == len(script) {
			return agentcoretest.ErrorResponse("end of script")
		}
		next++
		return script[next-1]
	})
}

type readArgs struct {
	Path string `json:"path" jsonschema:"required"`
}

// readTool returns about a thousand tokens per file.
func readTool() agentcore.Tool {
	return agentcore.NewTool("read", "Read a file.", func(_ context.Context, _ string, args readArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.TextResult(strings.Repeat("A line of "+args.Path+" about the garden.\n", 110)), nil
	})
}

// newAgent returns an Agent on an 8k model with a Compactor layer whose
// events are written to out, and the Compactor.
func newAgent(fake *agentcoretest.Fake, messages []agentcore.Message, out io.Writer) (*agentcore.Agent, *compaction.Compactor) {
	model := agentcoretest.Model()
	model.ContextWindow, model.MaxTokens = 8192, 2048
	compactor := compaction.New(compaction.Options{
		StreamFn: fake.Stream, // the summaries' model, also before the first run
		OnEvent: func(_ context.Context, ev compaction.Event) {
			switch ev := ev.(type) {
			case *compaction.StartEvent:
				fmt.Fprintf(out, "  [compacting: %s, %d tokens, retry after: %v]\n", ev.Reason, ev.TokensBefore, ev.WillRetry)
			case *compaction.EndEvent:
				if ev.Err != nil {
					fmt.Fprintf(out, "  [compaction failed: %v]\n", ev.Err)
					return
				}
				fmt.Fprintf(out, "  [compacted: %d -> %d tokens, %d messages summarized, %d kept]\n",
					ev.Result.TokensBefore, ev.Result.TokensAfter, ev.Result.Summarized, ev.Result.Kept)
			}
		},
	})
	agent := agentcore.New(agentcore.Options{
		SystemPrompt: "You read notes.", Model: model, StreamFn: fake.Stream, Tools: []agentcore.Tool{readTool()}, Messages: messages,
		Layers: []agentcore.Layer{compactor},
	})
	return agent, compactor
}

func run(ctx context.Context, out io.Writer) error {
	fake := newFake()
	agent, compactor := newAgent(fake, nil, out)
	for _, input := range []string{"Read notes1.txt, notes2.txt and notes3.txt.", "/compact focus on the garden", "Read notes4.txt: what are they all about?", "List the plants."} {
		fmt.Fprintln(out, "> "+input)
		if instructions, ok := strings.CutPrefix(input, "/compact"); ok {
			if _, err := compactor.Compact(ctx, strings.TrimSpace(instructions)); err != nil {
				fmt.Fprintln(out, "  compact:", err)
			}
			continue
		}
		if err := agent.Prompt(ctx, input); err != nil {
			return err
		}
		fmt.Fprintln(out, lastAnswer(agent.Messages()))
	}

	// Save the transcript, load it into a new Agent, and go on.
	data, err := json.Marshal(agent.Messages())
	if err != nil {
		return err
	}
	var registry agentcore.MessageRegistry
	compaction.Register(&registry)
	loaded, err := registry.UnmarshalMessages(data)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "saved and loaded %d messages: %s\n", len(loaded), roles(loaded))
	again, _ := newAgent(fake, loaded, out)
	fmt.Fprintln(out, "> Thanks!")
	if err := again.Prompt(ctx, "Thanks!"); err != nil {
		return err
	}
	fmt.Fprintln(out, lastAnswer(again.Messages()))
	return nil
}

func lastAnswer(messages []agentcore.Message) string {
	for i := len(messages) - 1; i >= 0; i-- {
		if a, ok := messages[i].(*agentcore.AssistantMessage); ok {
			return a.Text()
		}
	}
	return ""
}

func roles(messages []agentcore.Message) string {
	names := make([]string, len(messages))
	for i, m := range messages {
		names[i] = m.Role()
	}
	return strings.Join(names, " ")
}
