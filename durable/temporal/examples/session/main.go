// Command session shows a durable agentcore session surviving the loss of
// its worker: an in-process Temporal server, two workers, and a client
// that prompts, steers from another goroutine, and kills the worker running
// the session; the run finishes on the other worker, and the answer's text
// is seen live as it streams. It runs offline, on the scripted fake model.
//
//	GOTOOLCHAIN=auto go run ./examples/session   (from durable/temporal)
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	durable "github.com/pi-go/agentcore/durable/temporal"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"go.temporal.io/server/temporaltest"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := run(ctx, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "session:", err)
		os.Exit(1)
	}
}

type quiet struct{}

func (quiet) Debug(string, ...any) {}
func (quiet) Info(string, ...any)  {}
func (quiet) Warn(string, ...any)  {}
func (quiet) Error(string, ...any) {}

var _ log.Logger = quiet{}

// workerProc is one worker process: its own connection and worker.
type workerProc struct {
	name string
	c    client.Client
	w    worker.Worker
}

func (p *workerProc) kill() { p.c.Close(); p.w.Stop() }

// run plays the scenario and writes what happens to out.
func run(ctx context.Context, out io.Writer) error {
	srv := temporaltest.NewServer()
	defer srv.Stop()
	dial := func() (client.Client, error) {
		return client.Dial(client.Options{HostPort: srv.GetFrontendHostPort(), Namespace: srv.GetDefaultNamespace(), Logger: quiet{}})
	}

	// The tool: the first attempt hangs as if its machine froze; it is safe
	// to run again, so the second worker re-runs it.
	var mu sync.Mutex
	attempts := 0
	started, release := make(chan string, 2), make(chan struct{})
	defer close(release)
	type args struct {
		Path string `json:"path"`
	}
	build := agentcore.NewTool("build", "Builds a target.", func(ctx context.Context, _ string, a args, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		mu.Lock()
		attempts++
		n := attempts
		mu.Unlock()
		started <- fmt.Sprintf("attempt %d", n)
		if n == 1 {
			<-release
		}
		return agentcore.TextResult("built " + a.Path), nil
	})
	build.Replay = agentcore.ReplaySafe

	answer := agentcoretest.TextResponse("Built ./cmd/app, and noted the steering.")
	answer.Chunks = 4
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("call-1", "build", map[string]any{"path": "./cmd/app"})),
		answer,
	)
	// Live streaming: both workers publish their requests' events to one
	// in-memory hub, which a client in this process subscribes to.
	live := durable.NewLive(0)
	activityOpts := workflow.ActivityOptions{StartToCloseTimeout: time.Minute, HeartbeatTimeout: 2 * time.Second}
	sessions := durable.New(durable.Options{
		SystemPrompt: "You build things.", Model: agentcoretest.Model(), StreamFn: fake.Stream,
		Tools: []agentcore.Tool{build}, ModelActivity: activityOpts, ToolActivity: activityOpts,
		OnStream: live.Publish,
	})
	const queue = "sessions"
	startWorker := func(name string) (*workerProc, error) {
		c, err := dial()
		if err != nil {
			return nil, err
		}
		w := worker.New(c, queue, worker.Options{WorkerStopTimeout: time.Second})
		sessions.Register(w)
		if err := w.Start(); err != nil {
			c.Close()
			return nil, err
		}
		fmt.Fprintf(out, "worker %s started\n", name)
		return &workerProc{name: name, c: c, w: w}, nil
	}

	a, err := startWorker("A")
	if err != nil {
		return err
	}
	defer a.kill()
	cc, err := dial()
	if err != nil {
		return err
	}
	defer cc.Close()
	s, err := durable.NewClient(cc, sessions.Name(), queue).Start(ctx, "session-1")
	if err != nil {
		return err
	}
	// A live view: the text deltas as the model streams them, whichever
	// worker runs the request. They are best-effort; the transcript below
	// is the durable record.
	sub := live.Subscribe(s.ID())
	var deltas []string
	viewed := make(chan struct{})
	go func() {
		defer close(viewed)
		for ev := range sub.Events(ctx) {
			if d, ok := ev.Event.(*agentcore.TextDeltaEvent); ok {
				deltas = append(deltas, d.Delta)
			}
		}
	}()
	defer func() { sub.Close(); <-viewed }()
	seq, err := s.Start(ctx, agentcore.UserText("Build ./cmd/app."))
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "prompted: Build ./cmd/app.")
	fmt.Fprintf(out, "tool running on worker A (%s)\n", <-started)

	// Another goroutine (another machine, as far as the session can tell)
	// steers while the tool runs.
	steered := make(chan error, 1)
	go func() { steered <- s.Steer(ctx, agentcore.UserText("Also run the tests.")) }()
	if err := <-steered; err != nil {
		return err
	}
	fmt.Fprintln(out, "steered: Also run the tests.")

	a.kill()
	fmt.Fprintln(out, "worker A killed")
	b, err := startWorker("B")
	if err != nil {
		return err
	}
	defer b.kill()
	fmt.Fprintf(out, "tool running on worker B (%s)\n", <-started)
	if err := s.Wait(ctx, seq); err != nil {
		return err
	}
	sub.Close()
	<-viewed
	fmt.Fprintf(out, "streamed live in %d deltas: %q\n", len(deltas), deltas)
	st, err := s.State(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "run finished; transcript:")
	for _, m := range st.Messages {
		switch m := m.(type) {
		case *agentcore.SystemMessage:
			fmt.Fprintf(out, "  system: %s\n", agentcore.SystemPromptText(m))
		case *agentcore.UserMessage:
			fmt.Fprintf(out, "  user: %s\n", m.Text())
		case *agentcore.AssistantMessage:
			for _, c := range m.ToolCalls() {
				fmt.Fprintf(out, "  assistant calls %s %s\n", c.Name, c.Arguments)
			}
			if text := m.Text(); text != "" {
				fmt.Fprintf(out, "  assistant: %s\n", text)
			}
		case *agentcore.ToolResultMessage:
			fmt.Fprintf(out, "  tool %s: %s\n", m.ToolName, m.Text())
		}
	}
	return nil
}
