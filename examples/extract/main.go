// Command extract pulls a typed record out of free text with a
// structured.Answer, on the built-in fake model (no network, no key). The
// model first answers in prose and is asked to call the answer tool, then
// sends a record the schema refuses, reads the validator's words, and
// sends a valid one; the program prints each step and the record. With
// -model (as examples/chat takes it) a real model does the extraction.
//
//	go run ./examples/extract
//	go run ./examples/extract -model anthropic/claude-sonnet-4-5
//	go run ./examples/extract -h
package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/examples/internal/modelflag"
	"github.com/pi-go/agentcore/providers"
	"github.com/pi-go/agentcore/structured"
)

// Order is what the program wants out of the email.
type Order struct {
	Customer string            `json:"customer" jsonschema:"description=who placed the order"`
	Delivery string            `json:"delivery" jsonschema:"enum=standard,enum=express"`
	Lines    []Line            `json:"lines" jsonschema:"minItems=1"`
	Address  *Address          `json:"address,omitempty"`
	Notes    map[string]string `json:"notes,omitempty" jsonschema:"description=anything else worth keeping, by topic"`
}

// Line is one item of an order.
type Line struct {
	Item     string `json:"item"`
	Quantity int    `json:"quantity" jsonschema:"minimum=1"`
}

// Address is where the order goes.
type Address struct {
	Street string `json:"street"`
	City   string `json:"city"`
}

const email = `Hi! Ada Lovelace here. Please send me 2 boxes of Earl Grey and a teapot,
as fast as you can, to 12 Analytical Row, London. Ring the bell twice.`

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "extract:", err)
		os.Exit(1)
	}
}

// setup is the model the run talks to: the one -model names, else the
// scripted fake.
type setup struct {
	model    agentcore.Model
	streamFn agentcore.StreamFn
	apiKey   string
}

// parse reads the flags; -h prints the usage to out and is flag.ErrHelp.
func parse(args []string, out io.Writer) (setup, error) {
	fs := flag.NewFlagSet("extract", flag.ContinueOnError)
	fs.SetOutput(out)
	flags := modelflag.Register(fs, "go run ./examples/extract [-model PROVIDER/ID] [-base-url URL]",
		"  Without a model named, a scripted run on the built-in fake model.\n")
	if help, err := modelflag.Parse(fs, args); help || err != nil {
		return setup{}, cmp.Or(err, flag.ErrHelp)
	}
	env := flags.Getenv(os.Getenv)
	m, ok, err := modelflag.Lookup(env)
	switch {
	case err != nil:
		return setup{}, err
	case !ok:
		return setup{model: agentcoretest.Model(), streamFn: script().Stream}, nil
	}
	s := setup{model: m, streamFn: providers.StreamFn(providers.Options{Getenv: env})}
	if m.Provider == providers.LocalProvider {
		s.apiKey = env("OPENAI_API_KEY")
	}
	return s, nil
}

// script is what the fake model answers, in order.
func script() *agentcoretest.Fake {
	order := map[string]any{
		"customer": "Ada Lovelace",
		"delivery": "express",
		"lines":    []any{map[string]any{"item": "Earl Grey, box", "quantity": 2}, map[string]any{"item": "teapot", "quantity": 1}},
		"address":  map[string]any{"street": "12 Analytical Row", "city": "London"},
		"notes":    map[string]string{"delivery": "ring the bell twice"},
	}
	wrong := map[string]any{"customer": "Ada Lovelace", "delivery": "fast", "lines": []any{map[string]any{"item": "teapot"}}}
	return agentcoretest.New(
		agentcoretest.TextResponse("Ada wants tea and a teapot, delivered fast."),
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", structured.DefaultName, wrong)),
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c2", structured.DefaultName, order)),
	)
}

// run parses args and extracts the order, printing each step to out.
func run(ctx context.Context, args []string, out io.Writer) error {
	model, err := parse(args, out)
	if err != nil {
		return err
	}
	answer := structured.New[Order](structured.Options[Order]{
		OnPartial: func(_ context.Context, o Order) {
			fmt.Fprintf(out, "partial: customer %q, %d lines\n", o.Customer, len(o.Lines))
		},
	})
	agent := agentcore.New(agentcore.Options{
		SystemPrompt:  "You extract orders from customer emails.",
		Model:         model.model,
		StreamFn:      model.streamFn,
		Layers:        []agentcore.Layer{answer},
		StreamOptions: agentcore.StreamOptions{APIKey: model.apiKey},
	})
	agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		end, ok := ev.(*agentcore.MessageEndEvent)
		if !ok {
			return
		}
		switch m := end.Message.(type) {
		case *agentcore.AssistantMessage:
			if text := m.Text(); text != "" {
				fmt.Fprintf(out, "model says: %s\n", text)
			}
		case *agentcore.UserMessage:
			fmt.Fprintf(out, "user: %s\n", firstLine(m.Content.Text()))
		case *agentcore.CustomMessage: // the layer's nudge: pi's custom message
			var c struct{ Content string }
			if json.Unmarshal(m.Raw, &c) == nil {
				fmt.Fprintf(out, "layer: %s\n", c.Content)
			}
		case *agentcore.ToolResultMessage:
			status := "accepted"
			if m.IsError {
				status = "refused"
			}
			text, _, _ := strings.Cut(m.Text(), "\n\nReceived arguments")
			fmt.Fprintf(out, "answer %s: %s\n", status, text)
		}
	})

	order, err := answer.Prompt(ctx, agent, "Extract the order from this email:\n\n"+email)
	if err != nil {
		return err
	}
	record, err := json.MarshalIndent(order, "", "  ")
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "order:\n%s\n", record)
	return nil
}

// firstLine is s up to its first newline.
func firstLine(s string) string {
	if line, _, cut := strings.Cut(s, "\n"); cut {
		return line + " ..."
	}
	return s
}
