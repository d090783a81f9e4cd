// Command chat is a terminal chat with an agent whose model is Claude (the
// Anthropic Messages API), Gemini (Google's Gemini API or Vertex AI), GPT
// on Azure OpenAI, Mistral, or behind any OpenAI-compatible server, with
// two small tools: now (the time in a zone)
// and calc (arithmetic). One stream function serves them all
// (providers.StreamFn dispatches on the model's API). From the
// repository's root:
//
//	ANTHROPIC_API_KEY=sk-ant-... go run ./examples/chat -model anthropic/claude-sonnet-4-5
//	OPENROUTER_API_KEY=... go run ./examples/chat -model openrouter/anthropic/claude-sonnet-4.5
//	go run ./examples/chat -model ollama/qwen3 -base-url http://localhost:11434/v1
//	ANTHROPIC_API_KEY=sk-ant-... go run ./examples/chat
//	ANTHROPIC_API_KEY=sk-ant-... MODEL=claude-opus-4-1 THINKING=medium go run ./examples/chat
//	GEMINI_API_KEY=... go run ./examples/chat
//	GEMINI_API_KEY=... MODEL=gemini-2.5-pro THINKING=low go run ./examples/chat
//	OPENAI_API_KEY=sk-... go run ./examples/chat
//	OPENAI_BASE_URL=http://localhost:11434/v1 MODEL=qwen3 go run ./examples/chat
//	AZURE_OPENAI_API_KEY=... AZURE_OPENAI_RESOURCE_NAME=my-resource MODEL=gpt-4.1 go run ./examples/chat
//	GOOGLE_CLOUD_API_KEY=... go run ./examples/chat
//	MISTRAL_API_KEY=... go run ./examples/chat
//
// Type a message and press Enter. While the answer streams, a line you
// enter steers the agent: it is queued and sent after the current step.
// Ctrl-C aborts the answer; Ctrl-C when idle, or end of input, quits.
//
// -model PROVIDER/ID (or CHAT_MODEL) takes the model from pi-ai's catalog
// (package models): its API, server, context window, output limit and
// prices, so each answer reports what it cost. -base-url URL (or BASE_URL)
// sends the requests to another server; with a name the catalog does not
// know, that is an OpenAI-compatible server such as llama.cpp, Ollama or
// vLLM. The key is the provider's variable (ANTHROPIC_API_KEY,
// OPENROUTER_API_KEY, ...; OPENAI_API_KEY for a server of no known
// provider).
//
// Without -model, the environment chooses: PROVIDER ("anthropic", "google",
// "azure", "google-vertex", "mistral" or "openai"; default the first of
// anthropic, google, azure, google-vertex and mistral whose key is set,
// else openai), API (for openai: "openai-completions", the
// default, or "openai-responses", OpenAI's Responses API), MODEL (default
// claude-sonnet-4-5, gemini-2.5-flash, gpt-4.1-mini, or gpt-5-mini for the
// Responses API), THINKING (a thinking level for Claude, Gemini and the
// Responses API: minimal, low, medium, high; default off).
// For Anthropic: ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL (default
// https://api.anthropic.com). For Gemini: GEMINI_API_KEY, GEMINI_BASE_URL
// (default https://generativelanguage.googleapis.com/v1beta). For Azure:
// AZURE_OPENAI_API_KEY and AZURE_OPENAI_BASE_URL or
// AZURE_OPENAI_RESOURCE_NAME (MODEL names the deployment, default
// gpt-4.1). For Vertex: GOOGLE_CLOUD_API_KEY (an express key; ADC needs a
// token source, see providers/vertex/examples/adc). For Mistral:
// MISTRAL_API_KEY, MISTRAL_BASE_URL (default https://api.mistral.ai). For OpenAI:
// OPENAI_BASE_URL (default https://api.openai.com/v1), OPENAI_API_KEY
// (none for local servers).
package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/examples/internal/modelflag"
	"github.com/pi-go/agentcore/models"
	"github.com/pi-go/agentcore/providers"
	"github.com/pi-go/agentcore/providers/anthropic"
	"github.com/pi-go/agentcore/providers/azure"
	"github.com/pi-go/agentcore/providers/google"
	"github.com/pi-go/agentcore/providers/mistral"
	"github.com/pi-go/agentcore/providers/openai"
	"github.com/pi-go/agentcore/providers/openairesponses"
)

func main() {
	fs := flag.NewFlagSet("chat", flag.ContinueOnError)
	flags := modelflag.Register(fs, "go run ./examples/chat [-model PROVIDER/ID] [-base-url URL]", environment)
	help, err := modelflag.Parse(fs, os.Args[1:])
	switch {
	case help:
		return
	case err != nil:
		os.Exit(2)
	}
	if err := run(context.Background(), os.Stdin, os.Stdout, flags.Getenv(os.Getenv)); err != nil {
		fmt.Fprintln(os.Stderr, "chat:", err)
		os.Exit(1)
	}
}

// environment lists the variables chat reads without -model, for -h.
const environment = `  Without a model named, PROVIDER (anthropic, google, azure,
  google-vertex, mistral or openai; default: the first whose key is set),
  MODEL (the ID), API (openai-responses for OpenAI's Responses API),
  THINKING (minimal, low, medium, high) and the providers' base URLs
  (ANTHROPIC_BASE_URL, GEMINI_BASE_URL, AZURE_OPENAI_BASE_URL or
  AZURE_OPENAI_RESOURCE_NAME, MISTRAL_BASE_URL, OPENAI_BASE_URL) choose.
`

// run chats over in and out until in ends, ctx is done, or Ctrl-C arrives
// while no answer is streaming; Ctrl-C during an answer aborts it. env
// reads the configuration. The goroutine reading in ends when in reports
// EOF or an error; for a terminal that is when the process exits.
func run(ctx context.Context, in io.Reader, out io.Writer, env func(string) string) error {
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	defer signal.Stop(interrupts)
	return chat(ctx, in, out, env, interrupts)
}

// chat is run with the interrupts as a channel, for tests.
func chat(ctx context.Context, in io.Reader, out io.Writer, env func(string) string, interrupts <-chan os.Signal) error {
	out = &syncWriter{w: out}
	c, err := config(env)
	if err != nil {
		return err
	}
	agent := agentcore.New(agentcore.Options{
		Model:         c.model,
		StreamFn:      c.streamFn,
		StreamOptions: agentcore.StreamOptions{APIKey: c.apiKey},
		ThinkingLevel: c.thinking,
		SystemPrompt:  "You are a helpful assistant in a terminal chat. Use the tools for the current time and for arithmetic. Be brief.",
		Tools:         []agentcore.Tool{nowTool(), calcTool()},
	})
	agent.Subscribe(printer(out))
	fmt.Fprintf(out, "chat with %s at %s. Enter sends; Enter during an answer steers; Ctrl-C aborts it; Ctrl-C when idle quits.\n> ", c.model.ID, c.baseURL)

	quit := make(chan struct{})
	defer close(quit)
	lines := make(chan string)
	go readLines(in, lines, quit)

	var running chan error // the active run's result; nil when idle
	finish := func() {
		if running != nil {
			<-running
		}
	}
	for {
		select {
		case <-ctx.Done():
			agent.Abort()
			finish()
			return ctx.Err()
		case line, ok := <-lines:
			switch {
			case !ok:
				finish()
				return nil
			case running != nil:
				if strings.TrimSpace(line) != "" {
					agent.Steer(agentcore.UserText(line))
					fmt.Fprintln(out, "(steering: sent after the current step)")
				}
			case strings.TrimSpace(line) == "":
				fmt.Fprint(out, "> ")
			default:
				running = make(chan error, 1)
				go func() { running <- agent.Prompt(ctx, line) }()
			}
		case err := <-running:
			running = nil
			// A failed run was shown with its message; a run that did not
			// start is not.
			if _, ran := errors.AsType[*agentcore.RunError](err); err != nil && !ran {
				fmt.Fprintln(out, "error:", err)
			}
			fmt.Fprint(out, "> ")
		case <-interrupts:
			if running == nil {
				fmt.Fprintln(out)
				return nil
			}
			agent.Abort()
		}
	}
}

// settings are the chat's model and how to reach it.
type settings struct {
	model    agentcore.Model
	baseURL  string
	apiKey   string // empty: the dispatcher reads the provider's variable
	thinking agentcore.ThinkingLevel
	streamFn agentcore.StreamFn
}

// config reads the model and the server from env: CHAT_MODEL from the
// catalog, else the provider's defaults. The stream function is the
// dispatcher of every provider, with env as its environment for keys.
func config(env func(string) string) (settings, error) {
	if m, ok, err := modelflag.Lookup(env); err != nil {
		return settings{}, err
	} else if ok {
		s := settings{model: m, baseURL: m.BaseURL, thinking: agentcore.ThinkingLevel(env("THINKING")),
			streamFn: providers.StreamFn(providers.Options{Getenv: env})}
		if m.Provider == providers.LocalProvider {
			s.apiKey = env("OPENAI_API_KEY")
		}
		return s, nil
	}
	s := defaults(env)
	// A default the catalog knows, on the same API, comes with its
	// window, limits and prices.
	if m, ok := models.Lookup(s.model.Provider, s.model.ID); ok && m.API == s.model.API {
		m.BaseURL = s.baseURL
		s.model = m
	}
	return s, nil
}

// defaults reads the provider, the model and the server from env when no
// model is named: PROVIDER, MODEL, API and the providers' base URLs.
func defaults(env func(string) string) settings {
	provider := env("PROVIDER")
	switch {
	case provider != "":
	case env("ANTHROPIC_API_KEY") != "":
		provider = "anthropic"
	case env("GEMINI_API_KEY") != "":
		provider = "google"
	case env("AZURE_OPENAI_API_KEY") != "":
		provider = "azure"
	case env("GOOGLE_CLOUD_API_KEY") != "":
		provider = "google-vertex"
	case env("MISTRAL_API_KEY") != "":
		provider = "mistral"
	}
	s := settings{
		thinking: agentcore.ThinkingLevel(env("THINKING")),
		streamFn: providers.StreamFn(providers.Options{
			OpenAI:          openai.Options{BaseURL: env("OPENAI_BASE_URL")},
			OpenAIResponses: openairesponses.Options{BaseURL: env("OPENAI_BASE_URL")},
			Anthropic:       anthropic.Options{BaseURL: env("ANTHROPIC_BASE_URL")},
			Google:          google.Options{BaseURL: env("GEMINI_BASE_URL")},
			Mistral:         mistral.Options{BaseURL: env("MISTRAL_BASE_URL")},
			Getenv:          env,
		}),
	}
	switch provider {
	case "anthropic":
		s.baseURL = cmp.Or(env("ANTHROPIC_BASE_URL"), anthropic.DefaultBaseURL)
		s.model = agentcore.Model{ID: cmp.Or(env("MODEL"), "claude-sonnet-4-5"), Provider: "anthropic", API: providers.AnthropicMessages,
			Reasoning: true, Input: []string{"text", "image"}, MaxTokens: 16000}
	case "google":
		s.baseURL = cmp.Or(env("GEMINI_BASE_URL"), google.DefaultBaseURL)
		s.model = agentcore.Model{ID: cmp.Or(env("MODEL"), "gemini-2.5-flash"), Provider: "google", API: providers.GoogleGenerativeAI,
			Reasoning: true, Input: []string{"text", "image"}, MaxTokens: 65536}
	case "azure":
		s.model = agentcore.Model{ID: cmp.Or(env("MODEL"), "gpt-4.1"), Provider: "azure", API: providers.AzureOpenAIResponses,
			Input: []string{"text", "image"}, MaxTokens: 32768}
		s.baseURL, _ = azure.Options{Getenv: env}.ResolveBaseURL(s.model)
		s.thinking = ""
	case "google-vertex":
		s.model = agentcore.Model{ID: cmp.Or(env("MODEL"), "gemini-2.5-flash"), Provider: "google-vertex", API: providers.GoogleVertex,
			Reasoning: true, Input: []string{"text", "image"}, MaxTokens: 65536}
		s.baseURL = "https://aiplatform.googleapis.com"
	case "mistral":
		s.baseURL = cmp.Or(env("MISTRAL_BASE_URL"), mistral.DefaultBaseURL)
		s.model = agentcore.Model{ID: cmp.Or(env("MODEL"), "mistral-medium-latest"), Provider: "mistral", API: providers.MistralConversations,
			Input: []string{"text", "image"}, MaxTokens: 32768}
		s.thinking = ""
	default:
		s.baseURL = cmp.Or(env("OPENAI_BASE_URL"), openai.DefaultBaseURL)
		name := "openai-compatible"
		if strings.Contains(s.baseURL, "api.openai.com") {
			name = "openai"
		}
		s.apiKey = env("OPENAI_API_KEY") // also for the servers of other providers
		if env("API") == providers.OpenAIResponses || provider == providers.OpenAIResponses {
			s.model = agentcore.Model{ID: cmp.Or(env("MODEL"), "gpt-5-mini"), Provider: name, API: providers.OpenAIResponses,
				Reasoning: true, Input: []string{"text", "image"}}
			break
		}
		s.model = agentcore.Model{ID: cmp.Or(env("MODEL"), "gpt-4.1-mini"), Provider: name, API: providers.OpenAICompletions, Input: []string{"text"}}
		s.thinking = ""
	}
	return s
}

// readLines sends the lines of in until it ends or quit is closed.
func readLines(in io.Reader, lines chan<- string, quit <-chan struct{}) {
	defer close(lines)
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		select {
		case lines <- sc.Text():
		case <-quit:
			return
		}
	}
}

// printer shows the run as it happens: the answer as it streams, thinking,
// each tool call and its result, how a failed answer ended, and what an
// answer cost when the model has prices.
func printer(out io.Writer) agentcore.Listener {
	return func(_ context.Context, ev agentcore.AgentEvent) {
		switch e := ev.(type) {
		case *agentcore.MessageUpdateEvent:
			switch d := e.AssistantEvent.(type) {
			case *agentcore.TextDeltaEvent:
				fmt.Fprint(out, d.Delta)
			case *agentcore.ThinkingStartEvent:
				fmt.Fprint(out, "[thinking] ")
			case *agentcore.ThinkingDeltaEvent:
				fmt.Fprint(out, d.Delta)
			case *agentcore.ThinkingEndEvent:
				fmt.Fprintln(out)
			}
		case *agentcore.MessageEndEvent:
			if m, ok := e.Message.(*agentcore.AssistantMessage); ok {
				ended(out, m)
			}
		case *agentcore.ToolExecutionStartEvent:
			fmt.Fprintf(out, "  -> %s %s\n", e.ToolName, e.Args)
		case *agentcore.ToolExecutionEndEvent:
			var texts []string
			for _, b := range e.Result.Content {
				if t, ok := b.(agentcore.TextBlock); ok {
					texts = append(texts, t.Text)
				}
			}
			fmt.Fprintf(out, "  <- %s\n", strings.Join(texts, " "))
		}
	}
}

type nowArgs struct {
	Zone string `json:"zone,omitempty" jsonschema_description:"IANA time zone such as Europe/Paris; empty for the local zone"`
}

func nowTool() agentcore.Tool {
	return agentcore.NewTool("now", "Returns the current date and time in a time zone.",
		func(_ context.Context, _ string, a nowArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			loc, err := time.LoadLocation(a.Zone)
			if err != nil {
				return agentcore.ToolResult{}, err
			}
			return agentcore.TextResult(time.Now().In(loc).Format(time.RFC3339)), nil
		})
}

type calcArgs struct {
	Expr string `json:"expr" jsonschema:"required" jsonschema_description:"an arithmetic expression such as (2+3)*4/7"`
}

func calcTool() agentcore.Tool {
	return agentcore.NewTool("calc", "Evaluates an arithmetic expression with + - * / and parentheses.",
		func(_ context.Context, _ string, a calcArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			v, err := evaluate(a.Expr)
			if err != nil {
				return agentcore.ToolResult{}, err
			}
			return agentcore.TextResult(strconv.FormatFloat(v, 'g', -1, 64)), nil
		})
}

// syncWriter serializes writes: the run's events and the input loop both
// print.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// ended shows how an answer ended: a new line after its text, whether it
// was aborted or failed, and its usage (and cost, when the model has
// prices).
func ended(out io.Writer, m *agentcore.AssistantMessage) {
	if m.Text() != "" {
		fmt.Fprintln(out)
	}
	switch m.StopReason {
	case agentcore.StopAborted:
		fmt.Fprintln(out, "(aborted)")
	case agentcore.StopError:
		fmt.Fprintf(out, "(error: %s)\n", modelflag.ErrorText(m))
	}
	if u := modelflag.Usage(m.Usage); u != "" {
		fmt.Fprintf(out, "(%s)\n", u)
	}
}
