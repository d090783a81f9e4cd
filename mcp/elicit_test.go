package agentmcp_test

import (
	"cmp"
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/hold"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	agentmcp "github.com/pi-go/agentcore/mcp"
)

// legacyProtocol is the last protocol version in which the server sends
// elicitation/create requests itself.
const legacyProtocol = "2025-11-25"

// deployer is an Agent whose deploy calls a Gate holds: its model calls
// deploy once per round, rounds times, then answers with the text of the
// last tool result it read.
type deployer struct {
	agent *agentcore.Agent
	gate  *hold.Gate

	mu       sync.Mutex
	deployed []string // the env of each deploy that ran
}

func newDeployer(rounds int) *deployer {
	d := &deployer{gate: hold.New(hold.Options{Policy: hold.Always(hold.Request{
		Title: "Deploy?", Reason: "It changes production.", Touches: []string{"web"},
	}, "deploy")})}
	type args struct {
		Env string `json:"env"`
	}
	deploy := agentcore.NewTool("deploy", "Deploys the web app.", func(_ context.Context, _ string, a args, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		d.mu.Lock()
		d.deployed = append(d.deployed, a.Env)
		d.mu.Unlock()
		return agentcore.TextResult("deployed " + a.Env), nil
	})
	fake := agentcoretest.NewFunc(func(_ context.Context, call agentcoretest.Call) agentcoretest.Response {
		msgs := call.Request.Messages
		results := 0
		for _, m := range msgs {
			if _, ok := m.(*agentcore.ToolResultMessage); ok {
				results++
			}
		}
		if results < rounds {
			return agentcoretest.ToolCallResponse(agentcoretest.ToolCall(fmt.Sprintf("c%d", results+1), "deploy", map[string]any{"env": "prod"}))
		}
		last := msgs[len(msgs)-1].(*agentcore.ToolResultMessage)
		return agentcoretest.TextResponse("model read: " + last.Text())
	})
	d.agent = agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: fake.Stream,
		Tools: []agentcore.Tool{deploy}, Layers: []agentcore.Layer{d.gate},
	})
	return d
}

func (d *deployer) runs() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.deployed...)
}

func (d *deployer) server(t *testing.T) *mcp.Server {
	server, err := agentmcp.NewAgentServer(&mcp.Implementation{Name: "agent"}, agentmcp.AgentTool{Agent: d.agent, Gate: d.gate})
	require.NoError(t, err)
	return server
}

// person answers the nth elicitation (from 1) with answers(n) and records
// what it was asked.
type person struct {
	answers func(n int) *mcp.ElicitResult

	mu    sync.Mutex
	asked []*mcp.ElicitParams
}

// always is a person who answers every elicitation with res.
func always(res *mcp.ElicitResult) *person {
	return &person{answers: func(int) *mcp.ElicitResult { return res }}
}

func (p *person) questions() []*mcp.ElicitParams {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]*mcp.ElicitParams(nil), p.asked...)
}

// connect connects a client that asks p to server, on protocol (empty:
// the latest).
func (p *person) connect(t *testing.T, server *mcp.Server, protocol string) *mcp.ClientSession {
	t.Helper()
	cs := connectClient(t, server, &mcp.ClientOptions{ElicitationHandler: p.handle}, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
	require.Equal(t, cmp.Or(protocol, "2026-07-28"), cs.InitializeResult().ProtocolVersion)
	return cs
}

func (p *person) handle(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asked = append(p.asked, req.Params)
	return p.answers(len(p.asked)), nil
}

func TestHeldCallIsElicited(t *testing.T) {
	for _, protocol := range []string{"", legacyProtocol} {
		for _, tc := range []struct {
			name   string
			answer *mcp.ElicitResult
			runs   []string
			model  string
		}{
			{"accept", &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, []string{"prod"}, "deployed prod"},
			{"accept edits nothing", &mcp.ElicitResult{Action: "accept"}, []string{"prod"}, "deployed prod"},
			{"accept but not approved", &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": false, "reason": "not on a Friday"}}, nil,
				"The user denied this tool call: not on a Friday"},
			{"decline", &mcp.ElicitResult{Action: "decline"}, nil, "The user declined this tool call."},
			{"cancel", &mcp.ElicitResult{Action: "cancel"}, nil, "The user dismissed the request for a decision without deciding; the tool call was denied."},
		} {
			t.Run(cmp.Or(protocol, "latest")+"/"+tc.name, func(t *testing.T) {
				d := newDeployer(1)
				p := always(tc.answer)
				cs := p.connect(t, d.server(t), protocol)

				res, err := ask(t.Context(), cs, "ship it", nil)
				require.NoError(t, err)
				assert.False(t, res.IsError, resultText(res))
				assert.Equal(t, "model read: "+tc.model, resultText(res))
				assert.Equal(t, tc.runs, d.runs())
				assert.Empty(t, d.gate.State().Calls, "the held call was resolved")

				asked := p.questions()
				require.Len(t, asked, 1)
				assert.Equal(t, "form", asked[0].Mode)
				assert.Equal(t, "Deploy?\nIt changes production.\nTouches: web\nTool: deploy\nArguments: {\"env\":\"prod\"}", asked[0].Message)
			})
		}
	}
}

func TestEveryHoldOfACallIsElicited(t *testing.T) {
	for _, protocol := range []string{"", legacyProtocol} {
		t.Run(cmp.Or(protocol, "latest"), func(t *testing.T) {
			d := newDeployer(3)
			// Approve, deny, approve: three holds of one call, each asked once.
			p := &person{answers: func(n int) *mcp.ElicitResult {
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": n != 2}}
			}}
			cs := p.connect(t, d.server(t), protocol)

			res, err := ask(t.Context(), cs, "ship it three times", nil)
			require.NoError(t, err)
			assert.False(t, res.IsError, resultText(res))
			assert.Equal(t, "model read: deployed prod", resultText(res))
			assert.Equal(t, []string{"prod", "prod"}, d.runs())
			assert.Len(t, p.questions(), 3)
			assert.Equal(t, "The user denied this tool call.", toolResults(d.agent)["c2"].Text())
		})
	}
}

func TestHeldCallIsDeniedWithoutElicitation(t *testing.T) {
	for _, protocol := range []string{"", legacyProtocol} {
		t.Run(cmp.Or(protocol, "latest"), func(t *testing.T) {
			d := newDeployer(1)
			cs := connectClient(t, d.server(t), nil, &mcp.ClientSessionOptions{ProtocolVersion: protocol})

			res, err := ask(t.Context(), cs, "ship it", nil)
			require.NoError(t, err)
			assert.False(t, res.IsError, "the call completes")
			assert.Equal(t, "model read: "+agentmcp.ReasonNoElicitation, resultText(res))
			assert.Empty(t, d.runs())
			r := toolResults(d.agent)["c1"]
			assert.True(t, r.IsError)
			assert.Equal(t, agentmcp.ReasonNoElicitation, r.Text())
		})
	}
}

// TestElicitationRoundTripByHand drives the input requests of a held call
// with the client's automatic retries off: another call meanwhile is
// refused, answers to an unknown request state change nothing, and the
// retry with the answers resumes the run.
func TestElicitationRoundTripByHand(t *testing.T) {
	d := newDeployer(1)
	server := d.server(t)
	opts := &mcp.ClientOptions{
		ElicitationHandler: always(&mcp.ElicitResult{Action: "accept"}).handle,
		MultiRoundTrip:     &mcp.MultiRoundTripOptions{Disabled: true},
	}
	cs := connectClient(t, server, opts, nil)

	first := &mcp.CallToolParams{Name: agentmcp.DefaultAgentToolName, Arguments: map[string]any{"prompt": "ship it"}}
	res, err := cs.CallTool(t.Context(), first)
	require.NoError(t, err)
	require.True(t, res.NeedsInput())
	require.Len(t, res.InputRequests, 1)
	question, ok := res.InputRequests["c1"].(*mcp.ElicitParams)
	require.True(t, ok, "%T", res.InputRequests["c1"])
	assert.Contains(t, question.Message, "Deploy?")
	assert.NotEmpty(t, res.RequestState)
	assert.Len(t, d.gate.State().Undecided(), 1)

	other, err := ask(t.Context(), connectClient(t, server, nil, nil), "something else", nil)
	require.NoError(t, err)
	assert.True(t, other.IsError)
	assert.Contains(t, resultText(other), agentmcp.ErrWaiting.Error())

	approve := mcp.InputResponseMap{"c1": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}
	forged := *first
	forged.InputResponses, forged.RequestState = approve, "forged"
	bad, err := cs.CallTool(t.Context(), &forged)
	require.NoError(t, err)
	assert.True(t, bad.IsError)
	assert.Empty(t, d.runs())
	assert.Len(t, d.gate.State().Undecided(), 1, "nothing decided")

	retry := *first
	retry.InputResponses, retry.RequestState = approve, res.RequestState
	done, err := cs.CallTool(t.Context(), &retry)
	require.NoError(t, err)
	assert.False(t, done.IsError, resultText(done))
	assert.Equal(t, "model read: deployed prod", resultText(done))
	assert.Equal(t, []string{"prod"}, d.runs())

	again, err := cs.CallTool(t.Context(), &retry)
	require.NoError(t, err)
	assert.True(t, again.IsError, "answers apply once")
}

func TestGateOfAnAgentPerSession(t *testing.T) {
	gates := map[*agentcore.Agent]*hold.Gate{}
	var mu sync.Mutex
	server, err := agentmcp.NewAgentServer(&mcp.Implementation{Name: "agent"}, agentmcp.AgentTool{
		NewAgent: func(context.Context, *mcp.ServerSession) (*agentcore.Agent, error) {
			d := newDeployer(1)
			mu.Lock()
			gates[d.agent] = d.gate
			mu.Unlock()
			return d.agent, nil
		},
		GateOf: func(a *agentcore.Agent) *hold.Gate {
			mu.Lock()
			defer mu.Unlock()
			return gates[a]
		},
	})
	require.NoError(t, err)
	cs := connectClient(t, server, &mcp.ClientOptions{ElicitationHandler: always(&mcp.ElicitResult{Action: "decline"}).handle}, nil)

	res, err := ask(t.Context(), cs, "ship it", nil)
	require.NoError(t, err)
	assert.Equal(t, "model read: The user declined this tool call.", resultText(res))
}

func TestHeldCallWithoutGate(t *testing.T) {
	d := newDeployer(1)
	server, err := agentmcp.NewAgentServer(&mcp.Implementation{Name: "agent"}, agentmcp.AgentTool{Agent: d.agent})
	require.NoError(t, err)
	cs := connectClient(t, server, &mcp.ClientOptions{ElicitationHandler: always(&mcp.ElicitResult{Action: "accept"}).handle}, nil)

	res, err := ask(t.Context(), cs, "ship it", nil)
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, resultText(res), hold.ErrHeld.Error())
}

// TestCancelledWhileAsking cancels a call while its person is asked (an
// older client): the held call is denied, and the Agent does not wait.
func TestCancelledWhileAsking(t *testing.T) {
	d := newDeployer(1)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	cs := connectClient(t, d.server(t), &mcp.ClientOptions{
		ElicitationHandler: func(ectx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			cancel()
			<-ectx.Done()
			return nil, ectx.Err()
		},
	}, &mcp.ClientSessionOptions{ProtocolVersion: legacyProtocol})

	_, err := ask(ctx, cs, "ship it", nil)
	require.ErrorIs(t, err, context.Canceled)
	require.NoError(t, d.gate.Wait(t.Context()), "nothing waits")
	calls := d.gate.State().Calls
	require.Len(t, calls, 1)
	assert.IsType(t, hold.Deny{}, calls[0].Decision)
	assert.Empty(t, d.runs())
}
