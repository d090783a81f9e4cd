package structured_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/structured"
)

func Example() {
	type Ticket struct {
		Title    string   `json:"title" jsonschema:"description=one line"`
		Priority string   `json:"priority" jsonschema:"enum=low,enum=high"`
		Labels   []string `json:"labels,omitempty"`
	}
	// The fake model first answers with a priority the schema does not
	// allow, reads the validator's words, and answers again.
	model := agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "final_answer",
			map[string]any{"title": "Login fails on Safari", "priority": "urgent"})),
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c2", "final_answer",
			map[string]any{"title": "Login fails on Safari", "priority": "high", "labels": []string{"auth", "safari"}})),
	)
	answer := structured.New[Ticket](structured.Options[Ticket]{})
	agent := agentcore.New(agentcore.Options{
		Model:    agentcoretest.Model(),
		StreamFn: model.Stream,
		Layers:   []agentcore.Layer{answer},
	})

	ticket, err := answer.Prompt(context.Background(), agent, "File a ticket: users cannot log in with Safari.")
	if err != nil {
		fmt.Println("no ticket:", err)
		return
	}
	fmt.Printf("%q %s %v\n", ticket.Title, ticket.Priority, ticket.Labels)
	fmt.Println("requests:", model.CallCount())
	// Output:
	// "Login fails on Safari" high [auth safari]
	// requests: 2
}

func ExampleError() {
	type Line struct {
		Item     string `json:"item"`
		Quantity int    `json:"quantity" jsonschema:"minimum=1"`
	}
	model := agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "final_answer", map[string]any{"item": "tea", "quantity": 0})),
	)
	answer := structured.New[Line](structured.Options[Line]{Repairs: -1}) // no second chance
	agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: model.Stream, Layers: []agentcore.Layer{answer}})

	_, err := answer.Prompt(context.Background(), agent, "Extract the order line.")
	var failed *structured.Error
	if errors.As(err, &failed) {
		fmt.Println(errors.Is(err, structured.ErrInvalidAnswer), failed.Invalid, string(failed.Arguments))
	}
	// Output:
	// true 1 {"item":"tea","quantity":0}
}

func ExampleMode() {
	type Ticket struct {
		Title    string `json:"title"`
		Priority string `json:"priority" jsonschema:"enum=low,enum=high"`
	}
	// A Gemini 3 model takes a response schema: under ModeAuto the
	// request asks for JSON text and carries no final-answer tool. (The
	// fake model stands in for Gemini and answers with the text.)
	gemini := agentcore.Model{ID: "gemini-3-flash-preview", API: "google-generative-ai", Provider: "google"}
	model := agentcoretest.New(agentcoretest.TextResponse(`{"title":"Login fails on Safari","priority":"high"}`))
	answer := structured.New[Ticket](structured.Options[Ticket]{Mode: structured.ModeAuto})
	agent := agentcore.New(agentcore.Options{Model: gemini, StreamFn: model.Stream, Layers: []agentcore.Layer{answer}})

	ticket, err := answer.Prompt(context.Background(), agent, "File a ticket: users cannot log in with Safari.")
	if err != nil {
		fmt.Println("no ticket:", err)
		return
	}
	req := model.Calls()[0]
	fmt.Printf("%q %s\n", ticket.Title, ticket.Priority)
	fmt.Println("format:", req.Options.ResponseFormat.Name, "strict:", req.Options.ResponseFormat.Strict)
	fmt.Println("tools:", len(agentcore.CurrentTools(req.Request.Messages)))
	// Output:
	// "Login fails on Safari" high
	// format: final_answer strict: true
	// tools: 0
}
