// Command session writes a large pi session file and times opening it and
// building its context with package session, the Go side of run.sh (pi.mjs
// is the pi side).
//
//	go run ./bench/session gen -mb 50 FILE   # write a session of about 50 MB
//	go run ./bench/session time -n 5 FILE    # open + context, n times
//
// time prints one line per round: "open <ms> context <ms> total <ms>
// messages <n> heap <bytes>", heap being the live heap an open session
// holds (after a GC), measured once before the rounds.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/session"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: session gen|time [flags] FILE")
		os.Exit(2)
	}
	var err error
	switch cmd, args := os.Args[1], os.Args[2:]; cmd {
	case "gen":
		fs := flag.NewFlagSet("gen", flag.ExitOnError)
		mb := fs.Int("mb", 50, "size of the file in megabytes (about)")
		fs.Parse(args)
		err = gen(fs.Arg(0), int64(*mb)<<20)
	case "time":
		fs := flag.NewFlagSet("time", flag.ExitOnError)
		n := fs.Int("n", 5, "rounds")
		fs.Parse(args)
		err = timeOpen(fs.Arg(0), *n)
	default:
		err = fmt.Errorf("unknown command %q", cmd)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "session:", err)
		os.Exit(1)
	}
}

// text returns about n bytes of a coding agent's text: source lines with
// tabs, quotes, backslashes and a little non-ASCII, seeded by i.
func text(i, n int) string {
	var sb strings.Builder
	for k := 0; sb.Len() < n; k++ {
		fmt.Fprintf(&sb, "%d\tfunc handle%d(w http.ResponseWriter, r *http.Request) { // état №%d\n", i+k, k, i)
		fmt.Fprintf(&sb, "\t\tif err := json.NewDecoder(r.Body).Decode(&req); err != nil { http.Error(w, \"bad \\\"request\\\"\", 400) }\n")
		sb.WriteString("\t\treturn fmt.Sprintf(\"%s: %d items processed in the batch\", name, count)\n")
	}
	return sb.String()
}

// gen writes a version 3 session of about size bytes as pi writes one: a
// model change, then turns of a user prompt, assistant messages with
// thinking, text and a tool call, and tool results of about 8 KB.
func gen(path string, size int64) error {
	if path == "" {
		return fmt.Errorf("gen: no file")
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	start := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	clock := start
	stamp := func() string {
		clock = clock.Add(1500 * time.Millisecond)
		return clock.Format("2006-01-02T15:04:05.000Z")
	}
	var written int64
	put := func(v any) error {
		line, err := json.Marshal(v)
		if err != nil {
			return err
		}
		written += int64(len(line)) + 1
		w.Write(line)
		return w.WriteByte('\n')
	}
	if err := put(session.Header{Version: session.CurrentVersion, ID: "019b8a3c-bench-7000-8000-000000000001",
		Timestamp: stamp(), Cwd: "/home/dev/project"}); err != nil {
		return err
	}
	parent := ""
	id := 0
	entry := func(e session.Entry) error {
		id++
		b := e.Base()
		b.ID, b.ParentID, b.Timestamp = fmt.Sprintf("%08x", 0x1a2b0000+id), parent, stamp()
		parent = b.ID
		return put(e)
	}
	if err := entry(&session.ModelChange{Provider: "anthropic", ModelID: "claude-sonnet-4-5"}); err != nil {
		return err
	}
	usage := agentcore.Usage{Input: 18234, Output: 912, CacheRead: 120344, CacheWrite: 2210, TotalTokens: 141700,
		Cost: agentcore.Cost{Input: 0.054702, Output: 0.01368, CacheRead: 0.0361032, CacheWrite: 0.0082875, Total: 0.1127727}}
	for turn := 0; written < size; turn++ {
		if turn%8 == 0 {
			if err := entry(&session.MessageEntry{Message: &agentcore.UserMessage{
				Content: agentcore.Text("Please refactor the handlers below and keep the tests green.\n" + text(turn, 3000)), Timestamp: clock.UnixMilli()}}); err != nil {
				return err
			}
		}
		call := fmt.Sprintf("toolu_01Bench%08d", turn)
		args, _ := json.Marshal(map[string]string{"path": fmt.Sprintf("internal/server/handler_%d.go", turn), "content": text(turn+1, 2500)})
		if err := entry(&session.MessageEntry{Message: &agentcore.AssistantMessage{
			Content: []agentcore.ContentBlock{
				agentcore.ThinkingBlock{Thinking: "The handler decodes the body twice; " + text(turn+2, 900), ThinkingSignature: strings.Repeat("EqQBCkgIBxABGAIiQL", 20)},
				agentcore.TextBlock{Text: "I'll rewrite the file with a single decode.\n" + text(turn+3, 1800)},
				agentcore.ToolCall{ID: call, Name: "write", Arguments: args},
			},
			API: "anthropic-messages", Provider: "anthropic", Model: "claude-sonnet-4-5", Usage: usage,
			StopReason: agentcore.StopToolUse, Timestamp: clock.UnixMilli(),
		}}); err != nil {
			return err
		}
		if err := entry(&session.MessageEntry{Message: &agentcore.ToolResultMessage{
			ToolCallID: call, ToolName: "write", Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: text(turn+4, 8000)}},
			Timestamp: clock.UnixMilli(),
		}}); err != nil {
			return err
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// timeOpen measures the live heap an open session holds, then opens path
// read-only and builds the leaf's context n times.
func timeOpen(path string, n int) error {
	before := liveHeap()
	s, err := session.Open(path, &session.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	heap := liveHeap() - before
	s.Close()
	for round := 0; round < n; round++ {
		t0 := time.Now()
		s, err := session.Open(path, &session.Options{ReadOnly: true})
		if err != nil {
			return err
		}
		t1 := time.Now()
		ctx := s.Context()
		t2 := time.Now()
		if err := s.Err(); err != nil {
			return err
		}
		s.Close()
		fmt.Printf("open %.1f context %.1f total %.1f messages %d heap %d\n",
			ms(t1.Sub(t0)), ms(t2.Sub(t1)), ms(t2.Sub(t0)), len(ctx.Messages), heap)
	}
	return nil
}

func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }
