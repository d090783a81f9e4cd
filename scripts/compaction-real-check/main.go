// Command compaction-real-check runs a long session with tools against a
// real OpenAI-compatible server with a small context window, through
// package compaction, and checks that the window never starves a request:
//
//   - no request (the agent's or a summary's) goes out with fewer than
//     -min-output max_completion_tokens;
//   - no request is over the window by the server's count (the prompt
//     tokens of its usage, or its refusal of a prompt over its context);
//   - the session compacts at least twice;
//   - every tool call in the transcript and in the full message log has
//     its result;
//   - the transcript, saved as JSON, reloads to the same messages;
//   - with -tool-bytes MIN-MAX, the tools were called and every result
//     was MIN to MAX bytes (the n-th call's text is the same in every run).
//
// It is not run in CI: it needs a server. With the llama.cpp server of
// ../shared/tools/real-llama-server (an 8k context):
//
//	../shared/tools/real-llama-server/setup.sh /tmp/llama
//	/tmp/llama/llama-server.sh -m /tmp/llama/tiny-chat.gguf --host 127.0.0.1 --port 8089 --jinja -c 8192 -np 1 --alias tiny-chat &
//	go run ./scripts/compaction-real-check -url http://127.0.0.1:8089/v1 -model tiny-chat
//	go run ./scripts/compaction-real-check -url http://127.0.0.1:8089/v1 -model tiny-chat -tool-bytes 1000-3000
//
// It prints its figures, then one SUMMARY line (requests of the agent and
// of the summaries, fewest and median max_completion_tokens, requests
// below -min-output and over the window, the most prompt tokens the
// server counted, compactions, run errors, tool results and their sizes,
// PASS or FAIL), and exits with status 1 when a check fails. -dir keeps
// the transcript, the message log and a trace of the requests.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/compaction"
	"github.com/pi-go/agentcore/providers"
	"github.com/pi-go/agentcore/providers/openai"
)

func main() {
	var cfg config
	flag.StringVar(&cfg.URL, "url", "http://127.0.0.1:8089/v1", "the server's API root")
	flag.StringVar(&cfg.Model, "model", "tiny-chat", "the model's name on the server")
	flag.IntVar(&cfg.Window, "window", 0, "the model's context window (Model.ContextWindow); 0 asks the server (providers.ServerContextWindow)")
	flag.IntVar(&cfg.MaxTokens, "max-tokens", 1024, "the model's output limit (Model.MaxTokens)")
	flag.IntVar(&cfg.Prompts, "prompts", 60, "how many prompts the session runs")
	flag.IntVar(&cfg.MinOutput, "min-output", 512, "the fewest output tokens a request may be given")
	flag.IntVar(&cfg.MaxTurns, "max-turns", 4, "the most turns a prompt's run may take")
	flag.StringVar(&cfg.Dir, "dir", "", "where to write transcript.json, log.jsonl and trace.txt (default: a temporary directory)")
	flag.Var(&cfg.ToolBytes, "tool-bytes", "MIN-MAX: every tool result is MIN to MAX bytes of text (the n-th call's text is the same in every run); default: the tools' own sizes")
	flag.Parse()
	ok, err := run(context.Background(), cfg, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "compaction-real-check:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}

type config struct {
	URL, Model, Dir                                 string
	Window, MaxTokens, Prompts, MinOutput, MaxTurns int
	ToolBytes                                       byteRange
}

// session is the state of a check run.
type session struct {
	mu       sync.Mutex
	requests []*request
	events   []compaction.Event
	log      []agentcore.Message // every message any run ended
	turns    int
	stops    map[agentcore.StopReason]int
	trace    []string // the requests, compactions and answers in order
	calls    toolCalls
}

func (s *session) onEvent(_ context.Context, ev compaction.Event) {
	s.mu.Lock()
	s.events = append(s.events, ev)
	switch ev := ev.(type) {
	case *compaction.StartEvent:
		s.trace = append(s.trace, fmt.Sprintf("[%s %d", ev.Reason, ev.TokensBefore))
	case *compaction.EndEvent:
		if ev.Err != nil {
			s.trace = append(s.trace, "failed]")
		} else {
			s.trace = append(s.trace, fmt.Sprintf("-> %d]", ev.Result.TokensAfter))
		}
	}
	s.mu.Unlock()
}

func (s *session) listen(_ context.Context, ev agentcore.AgentEvent) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch ev := ev.(type) {
	case *agentcore.MessageEndEvent:
		s.log = append(s.log, ev.Message)
	case *agentcore.TurnEndEvent:
		s.turns++
		s.stops[ev.Message.StopReason]++
		u := ev.Message.Usage
		s.trace = append(s.trace, fmt.Sprintf("(%s in=%d out=%d)", ev.Message.StopReason, u.Input+u.CacheRead, u.Output))
	case *agentcore.AgentStartEvent:
		s.trace = append(s.trace, "|")
	}
}

var prompts = []string{
	"Read the file plan.txt and tell me what the garden plan says about the trees near the water.",
	"Now write a short note to notes.txt about the house on the hill, then read it back.",
	"What did we decide so far? Keep the answer short and list the files you looked at.",
	"Read the file water.txt and compare it with the plan: is the tree in the same place?",
	"Write a list of three things to change in the garden to the file todo.txt.",
}

func run(ctx context.Context, cfg config, out io.Writer) (bool, error) {
	if cfg.Dir == "" {
		dir, err := os.MkdirTemp("", "compaction-real-check")
		if err != nil {
			return false, err
		}
		defer os.RemoveAll(dir)
		cfg.Dir = dir
	}
	if cfg.Window == 0 {
		window, err := providers.ServerContextWindow(ctx, cfg.URL, cfg.Model, nil)
		if err != nil {
			return false, err
		}
		cfg.Window = window
	}
	s := &session{stops: map[agentcore.StopReason]int{}}
	model := agentcore.Model{
		ID: cfg.Model, Name: cfg.Model, API: "openai-completions", Provider: "llama.cpp", BaseURL: cfg.URL,
		Input: []string{"text"}, ContextWindow: cfg.Window, MaxTokens: cfg.MaxTokens,
	}
	turnsThisRun := 0
	streamFn := s.record(openai.StreamFn(openai.Options{BaseURL: cfg.URL}))
	agent := agentcore.New(agentcore.Options{
		SystemPrompt:  "You are a helpful assistant working on a garden project. Use the tools to read and write files.",
		Model:         model,
		StreamFn:      streamFn,
		StreamOptions: agentcore.StreamOptions{OnPayload: s.onPayload, Timeout: 5 * time.Minute},
		Tools:         tools(cfg.ToolBytes, &s.calls),
		Hooks: agentcore.Hooks{
			FinishTurn: func(context.Context, agentcore.TurnContext) (agentcore.TurnDecision, error) {
				turnsThisRun++
				if turnsThisRun >= cfg.MaxTurns {
					return agentcore.TurnEnd, nil
				}
				return agentcore.TurnDefault, nil
			},
		},
		Layers: []agentcore.Layer{compaction.New(compaction.Options{OnEvent: s.onEvent, StreamFn: streamFn})},
	})
	agent.Subscribe(s.listen)

	start := time.Now()
	var runErrors []string
	for i := range cfg.Prompts {
		turnsThisRun = 0
		prompt := fmt.Sprintf("(%d) %s", i+1, prompts[i%len(prompts)])
		if err := agent.Prompt(ctx, prompt); err != nil {
			var runErr *agentcore.RunError
			switch {
			case errors.As(err, &runErr):
				runErrors = append(runErrors, runErr.Message.ErrorMessage)
			case errors.Is(err, compaction.ErrRecoveryFailed):
				runErrors = append(runErrors, err.Error())
			default:
				return false, err
			}
		}
	}
	elapsed := time.Since(start)

	reloaded, err := saveAndReload(cfg.Dir, agent.Messages(), s.log)
	if err != nil {
		return false, err
	}
	if err := os.WriteFile(filepath.Join(cfg.Dir, "trace.txt"), []byte(strings.Join(s.trace, " ")+"\n"), 0o644); err != nil {
		return false, err
	}
	return s.report(out, cfg, elapsed, runErrors, agent.Messages(), reloaded), nil
}

// saveAndReload writes the transcript and the full log, reads them back
// and reports whether both decode to the same JSON.
func saveAndReload(dir string, transcript, log []agentcore.Message) (bool, error) {
	data, err := json.MarshalIndent(transcript, "", "  ")
	if err != nil {
		return false, err
	}
	path := filepath.Join(dir, "transcript.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return false, err
	}
	var logData bytes.Buffer
	for _, m := range log {
		line, err := json.Marshal(m)
		if err != nil {
			return false, err
		}
		logData.Write(append(line, '\n'))
	}
	if err := os.WriteFile(filepath.Join(dir, "log.jsonl"), logData.Bytes(), 0o644); err != nil {
		return false, err
	}

	var reg agentcore.MessageRegistry
	compaction.Register(&reg)
	read, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	back, err := reg.UnmarshalMessages(read)
	if err != nil {
		return false, err
	}
	again, err := json.MarshalIndent(back, "", "  ")
	if err != nil {
		return false, err
	}
	for _, line := range bytes.Split(bytes.TrimSpace(logData.Bytes()), []byte("\n")) {
		m, err := reg.UnmarshalMessage(line)
		if err != nil {
			return false, err
		}
		if b, _ := json.Marshal(m); !bytes.Equal(b, line) {
			return false, nil
		}
	}
	return bytes.Equal(data, again) && len(back) == len(transcript), nil
}

// unanswered returns the tool calls of messages without a result after
// them, and the results without a call before them.
func unanswered(messages []agentcore.Message) (calls, results int) {
	open := map[string]bool{}
	for _, m := range messages {
		switch m := m.(type) {
		case *agentcore.AssistantMessage:
			for _, c := range m.ToolCalls() {
				open[c.ID] = true
			}
		case *agentcore.ToolResultMessage:
			if !open[m.ToolCallID] {
				results++
			}
			delete(open, m.ToolCallID)
		}
	}
	return len(open), results
}

func countCalls(messages []agentcore.Message) int {
	n := 0
	for _, m := range messages {
		if a, ok := m.(*agentcore.AssistantMessage); ok {
			n += len(a.ToolCalls())
		}
	}
	return n
}

// compactionFigures counts the compactions by reason and their failures
// by error, and lists the tokens before and after each.
func (s *session) compactionFigures() (done map[compaction.Reason]int, failed map[string]int, befores, afters []int) {
	done, failed = map[compaction.Reason]int{}, map[string]int{}
	for _, ev := range s.events {
		end, ok := ev.(*compaction.EndEvent)
		switch {
		case !ok:
		case end.Err != nil:
			failed[end.Err.Error()]++
		default:
			done[end.Reason]++
			befores = append(befores, end.Result.TokensBefore)
			afters = append(afters, end.Result.TokensAfter)
		}
	}
	return done, failed, befores, afters
}

// report prints the figures and returns whether every check passed.
func (s *session) report(out io.Writer, cfg config, elapsed time.Duration, runErrors []string, transcript []agentcore.Message, reloaded bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	rq := s.requestFigures(cfg.MinOutput, cfg.Window)
	s.calls.mu.Lock()
	results, smallest, largest := s.calls.n, s.calls.smallest, s.calls.largest
	s.calls.mu.Unlock()
	compactions, failed, befores, afters := s.compactionFigures()
	total := len(befores)
	openLog, orphanLog := unanswered(s.log)
	openNow, orphanNow := unanswered(transcript)

	fmt.Fprintf(out, "server %s, model %s, window %d, max tokens %d, %d prompts in %s\n", cfg.URL, cfg.Model, cfg.Window, cfg.MaxTokens, cfg.Prompts, elapsed.Round(time.Second))
	fmt.Fprintf(out, "turns %d, stop reasons %v, run errors %d\n", s.turns, s.stops, len(runErrors))
	fmt.Fprintf(out, "requests %d (agent %d, summary %d); max_completion_tokens min %d, median %d, max %d; below %d: %d; unset: %d\n",
		len(s.requests), rq.agent, rq.summary, at(rq.sizes, 0), at(rq.sizes, len(rq.sizes)/2), at(rq.sizes, len(rq.sizes)-1), cfg.MinOutput, rq.starved, rq.unset)
	fmt.Fprintf(out, "server prompt tokens: most %d, over the window %d, not counted %d; fewest tokens left to answer %d; %.2f bytes of a body a token (median)\n", rq.maxPrompt, rq.over, rq.unknown, rq.room, rq.bytesPerToken)
	fmt.Fprintf(out, "compactions %d %v; failed %d %v\n", total, compactions, sum(failed), failed)
	fmt.Fprintf(out, "tokens before compaction %v\ntokens after compaction %v\n", befores, afters)
	fmt.Fprintf(out, "tool calls %d in the log (%d without result, %d results without call), %d in the transcript (%d, %d)\n",
		countCalls(s.log), openLog, orphanLog, countCalls(transcript), openNow, orphanNow)
	fmt.Fprintf(out, "tool calls run %d, results of %d to %d bytes (-tool-bytes %s)\n", results, smallest, largest, cfg.ToolBytes)
	fmt.Fprintf(out, "messages: %d in the log, %d in the transcript; transcript reloads: %v\n", len(s.log), len(transcript), reloaded)
	for i, e := range runErrors {
		if i == 3 {
			fmt.Fprintf(out, "  ... %d more run errors\n", len(runErrors)-3)
			break
		}
		fmt.Fprintf(out, "  run error: %.160s\n", e)
	}

	checks := []struct {
		name string
		ok   bool
	}{
		{fmt.Sprintf("no request below %d output tokens", cfg.MinOutput), rq.starved == 0 && rq.unset == 0},
		{"no request over the window (by the server's count)", rq.over == 0},
		{"at least two compactions", total >= 2},
		{"every tool call has its result", openLog == 0 && orphanLog == 0 && openNow == 0 && orphanNow == 0},
		{"the transcript reloads", reloaded},
		{fmt.Sprintf("at least %d prompts", 60), cfg.Prompts >= 60},
	}
	if cfg.ToolBytes.set() {
		checks = append(checks, struct {
			name string
			ok   bool
		}{fmt.Sprintf("the tools ran, every result %s bytes", cfg.ToolBytes), results > 0 && smallest >= cfg.ToolBytes.min && largest <= cfg.ToolBytes.max})
	}
	ok := true
	for _, c := range checks {
		mark := "PASS"
		if !c.ok {
			mark, ok = "FAIL", false
		}
		fmt.Fprintf(out, "%s  %s\n", mark, c.name)
	}
	verdict := "PASS"
	if !ok {
		verdict = "FAIL"
	}
	fmt.Fprintf(out, "SUMMARY tool-bytes=%s prompts=%d requests=%d agent=%d summary=%d max_completion_tokens_min=%d median=%d under%d=%d over_window=%d max_prompt=%d/%d min_room=%d body_bytes_per_token=%.2f compactions=%d failed=%d run_errors=%d tools_run=%d result_bytes=%d-%d elapsed=%s %s\n",
		cfg.ToolBytes, cfg.Prompts, len(s.requests), rq.agent, rq.summary, at(rq.sizes, 0), at(rq.sizes, len(rq.sizes)/2), cfg.MinOutput, rq.starved+rq.unset,
		rq.over, rq.maxPrompt, cfg.Window, rq.room, rq.bytesPerToken, total, sum(failed), len(runErrors), results, smallest, largest, elapsed.Round(time.Second), verdict)
	return ok
}

func at(s []int, i int) int {
	if i < 0 || i >= len(s) {
		return -1
	}
	return s[i]
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
