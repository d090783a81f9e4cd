package temporal_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	durable "github.com/pi-go/agentcore/durable/temporal"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/server/temporaltest"
)

// server is one in-process Temporal server shared by the package's tests;
// each test uses task queues and workflow IDs of its own.
var server *temporaltest.TestServer

func TestMain(m *testing.M) {
	server = temporaltest.NewServer()
	code := m.Run()
	worker.PurgeStickyWorkflowCache()
	if leaks := leaked(); code == 0 && len(leaks) > 0 {
		fmt.Fprintf(os.Stderr, "leaked goroutines:\n\n%s\n", strings.Join(leaks, "\n\n"))
		code = 1
	}
	server.Stop()
	os.Exit(code)
}

// leaked returns the stacks of the goroutines still running this module's
// or agentcore's code once every test has ended and every worker stopped.
// goleak cannot tell them from the in-process server's own goroutines,
// which outlive the tests by design; this check looks for ours only.
func leaked() []string {
	var leaks []string
	for range 100 {
		buf := make([]byte, 1<<24)
		buf = buf[:runtime.Stack(buf, true)]
		leaks = leaks[:0]
		for _, g := range strings.Split(string(buf), "\n\n") {
			if strings.Contains(g, "github.com/pi-go/agentcore") && !strings.Contains(g, "temporal_test.TestMain") {
				leaks = append(leaks, g)
			}
		}
		if len(leaks) == 0 {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return leaks
}

// quietLogger drops the SDK's logs.
type quietLogger struct{}

func (quietLogger) Debug(string, ...any) {}
func (quietLogger) Info(string, ...any)  {}
func (quietLogger) Warn(string, ...any)  {}
func (quietLogger) Error(string, ...any) {}

var _ log.Logger = quietLogger{}

// proc is a worker process: its own connection and worker. kill ends it
// the way a crash does as far as the server can tell: nothing it was
// running reports back.
type proc struct {
	c    client.Client
	w    worker.Worker
	once sync.Once
}

func (p *proc) kill() {
	p.once.Do(func() {
		p.c.Close()
		p.w.Stop()
	})
}

var queues atomic.Int64

// taskQueue returns a task queue unique to the test.
func taskQueue(t *testing.T) string {
	return fmt.Sprintf("%s-%d", t.Name(), queues.Add(1))
}

// dial connects to the test server; the caller closes the client.
func dial(t *testing.T) client.Client {
	t.Helper()
	c, err := client.Dial(client.Options{HostPort: server.GetFrontendHostPort(), Namespace: server.GetDefaultNamespace(), Logger: quietLogger{}})
	require.NoError(t, err)
	return c
}

// startWorker starts a worker process serving sessions on queue.
func startWorker(t *testing.T, queue string, s *durable.Sessions) *proc {
	t.Helper()
	return startWorkerWith(t, queue, s, workerOptions())
}

// startWorkerWith starts a worker process with options wo serving
// sessions on queue.
func startWorkerWith(t *testing.T, queue string, s *durable.Sessions, wo worker.Options) *proc {
	t.Helper()
	c := dial(t)
	w := worker.New(c, queue, wo)
	s.Register(w)
	require.NoError(t, w.Start())
	p := &proc{c: c, w: w}
	t.Cleanup(p.kill)
	return p
}

// workerOptions are the test workers' options. The race detector and a
// busy machine slow workflow code down many times: a workflow task is
// given 10 s before the SDK reports a deadlock, not 1 s.
func workerOptions() worker.Options {
	return durable.WorkerOptions(worker.Options{WorkerStopTimeout: time.Second, DeadlockDetectionTimeout: 10 * time.Second})
}

// newClient returns a session client on queue.
func newClient(t *testing.T, queue string, s *durable.Sessions) *durable.Client {
	t.Helper()
	c := dial(t)
	t.Cleanup(c.Close)
	return durable.NewClient(c, s.Name(), queue)
}

// startSession starts a worker of the session type o on a task queue of
// its own and, on it, a session of that queue's name with the initial
// transcript msgs.
func startSession(t *testing.T, o durable.Options, msgs ...agentcore.Message) *durable.Session {
	t.Helper()
	return startSessionWith(t, o, workerOptions(), msgs...)
}

// startSessionWith is startSession on a worker with options wo.
func startSessionWith(t *testing.T, o durable.Options, wo worker.Options, msgs ...agentcore.Message) *durable.Session {
	t.Helper()
	sessions := durable.New(o)
	queue := taskQueue(t)
	startWorkerWith(t, queue, sessions, wo)
	s, err := newClient(t, queue, sessions).Start(testCtx(t), queue, msgs...)
	require.NoError(t, err)
	return s
}

// testCtx bounds a test's calls.
func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// normalize drops what differs between two runs of the same script: times
// and durations.
func normalize(t *testing.T, msgs []agentcore.Message) []map[string]any {
	t.Helper()
	out := make([]map[string]any, len(msgs))
	for i, m := range msgs {
		data, err := json.Marshal(m)
		require.NoError(t, err)
		var v map[string]any
		require.NoError(t, json.Unmarshal(data, &v))
		delete(v, "timestamp")
		delete(v, "durationMs")
		out[i] = v
	}
	return out
}

// echoTool answers its text argument.
func echoTool(replay agentcore.ReplayPolicy, execute func(ctx context.Context, text string) (string, error)) agentcore.Tool {
	type args struct {
		Text string `json:"text"`
	}
	tool := agentcore.NewTool("echo", "Echoes text.", func(ctx context.Context, _ string, a args, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		text := a.Text
		if execute != nil {
			var err error
			if text, err = execute(ctx, a.Text); err != nil {
				return agentcore.ToolResult{}, err
			}
		}
		return agentcore.TextResult("echo: " + text), nil
	})
	tool.Replay = replay
	return tool
}

func echoCall(id, text string) agentcore.ToolCall {
	return agentcoretest.ToolCall(id, "echo", map[string]any{"text": text})
}
