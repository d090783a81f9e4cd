package hold_test

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/hold"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type deployArgs struct {
	Env string `json:"env" jsonschema:"required,enum=staging,enum=production"`
}

type readArgs struct {
	Path string `json:"path" jsonschema:"required"`
}

// ran records the tool executions of a test, in order.
type ran struct {
	mu    sync.Mutex
	calls []string
}

func (r *ran) add(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, s)
}

func (r *ran) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls)
}

// tools are a harmless read and a deploy that needs a decision.
func tools(r *ran) []agentcore.Tool {
	return []agentcore.Tool{
		agentcore.NewTool("read", "Read a file.", func(_ context.Context, _ string, a readArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			r.add("read " + a.Path)
			return agentcore.TextResult("contents of " + a.Path), nil
		}),
		agentcore.NewTool("deploy", "Deploy the service.", func(_ context.Context, _ string, a deployArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			r.add("deploy " + a.Env)
			return agentcore.TextResult("deployed to " + a.Env), nil
		}),
	}
}

func read(id, path string) agentcore.ToolCall {
	return agentcoretest.ToolCall(id, "read", map[string]string{"path": path})
}

func deploy(id, env string) agentcore.ToolCall {
	return agentcoretest.ToolCall(id, "deploy", map[string]string{"env": env})
}

// deployPolicy holds deploys to production.
var deployPolicy = hold.When("deploy", func(a deployArgs) *hold.Request {
	if a.Env != "production" {
		return nil
	}
	return &hold.Request{Title: "Deploy to production?", Reason: "production is live", Touches: []string{"prod"}}
})

// fixture is an Agent with a Gate on a scripted fake.
type fixture struct {
	gate   *hold.Gate
	agent  *agentcore.Agent
	fake   *agentcoretest.Fake
	ran    *ran
	mu     sync.Mutex
	events []hold.Event
}

// newFixture plays script; messages, when given, is the initial
// transcript. opts.OnEvent is set to record the events.
func newFixture(t *testing.T, opts hold.Options, messages []agentcore.Message, script ...agentcoretest.Response) *fixture {
	t.Helper()
	f := &fixture{fake: agentcoretest.New(script...), ran: &ran{}}
	user := opts.OnEvent
	opts.OnEvent = func(ev hold.Event) {
		f.mu.Lock()
		f.events = append(f.events, ev)
		f.mu.Unlock()
		if user != nil {
			user(ev)
		}
	}
	f.gate = hold.New(opts)
	f.agent = agentcore.New(agentcore.Options{
		SystemPrompt: "You deploy.", Model: agentcoretest.Model(), StreamFn: f.fake.Stream,
		Tools: tools(f.ran), Messages: messages, Layers: []agentcore.Layer{f.gate},
	})
	return f
}

func (f *fixture) eventList() []hold.Event {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.events)
}

// result returns the transcript's result of call id.
func result(t *testing.T, msgs []agentcore.Message, id string) *agentcore.ToolResultMessage {
	t.Helper()
	for _, m := range msgs {
		if r, ok := m.(*agentcore.ToolResultMessage); ok && r.ToolCallID == id {
			return r
		}
	}
	require.Failf(t, "no result", "call %s has no result", id)
	return nil
}

// lastRequest returns the messages of the fake's last request.
func lastRequest(t *testing.T, f *agentcoretest.Fake) []agentcore.Message {
	t.Helper()
	calls := f.Calls()
	require.NotEmpty(t, calls)
	return calls[len(calls)-1].Request.Messages
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	require.NoError(t, err)
	return string(data)
}
