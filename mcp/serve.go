package agentmcp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/hold"
)

// AgentTool serves an [agentcore.Agent] as a tool of an MCP server: a
// client (an IDE, another agent) calls it with a prompt and gets the
// Agent's final answer, its streamed text as progress notifications on
// the way. Set Agent or NewAgent.
type AgentTool struct {
	// Name is the tool's name; empty means "ask_agent".
	Name string
	// Description tells the client's model what the Agent is for; empty
	// means a generic description.
	Description string
	// Agent is the one Agent every call prompts. Its transcript carries
	// over from call to call, whichever client made them; calls run one
	// at a time, in turn.
	Agent *agentcore.Agent
	// NewAgent, when set, makes one Agent per MCP session, at the
	// session's first call, and Agent is ignored. Its transcript carries
	// over between the session's calls, which run one at a time. It runs
	// on the goroutine of the call's SDK handler and gets the call's ctx
	// and session; an error (or a nil Agent) fails the call with its text,
	// and the next call of the session asks again. The Agent is dropped
	// once its session is over (checked at every call).
	NewAgent func(ctx context.Context, session *mcp.ServerSession) (*agentcore.Agent, error)
	// Gate, when set, is the [hold.Gate] among Agent's layers: a call it
	// holds is asked of a person through the client (see [AddAgentTool]).
	// Nil means the tool knows of no Gate: a run that holds calls fails
	// with the [*hold.HeldError]'s text. With NewAgent, GateOf is used.
	Gate *hold.Gate
	// GateOf, with NewAgent, returns the [hold.Gate] among the layers of
	// an Agent NewAgent made, or nil when it has none. It is called once
	// per Agent, right after NewAgent, on the same goroutine.
	GateOf func(agent *agentcore.Agent) *hold.Gate
}

// Prompt is the arguments of an [AgentTool].
type Prompt struct {
	// Prompt is the user message of the run; it must not be empty.
	Prompt string `json:"prompt" jsonschema:"the request for the agent, in plain language"`
}

// The defaults of [AgentTool].
const (
	DefaultAgentToolName        = "ask_agent"
	DefaultAgentToolDescription = "Ask an agent to carry out a request with its own model and tools; it answers with text."
)

// ErrNoAgent is reported by [AddAgentTool] for an AgentTool with neither
// Agent nor NewAgent.
var ErrNoAgent = errors.New("agentmcp: AgentTool has neither Agent nor NewAgent")

// NewAgentServer returns an MCP server whose one tool is t. Serve it with
// the SDK: over stdio with server.Run(ctx, &mcp.StdioTransport{}), over
// Streamable HTTP with mcp.NewStreamableHTTPHandler.
func NewAgentServer(impl *mcp.Implementation, t AgentTool) (*mcp.Server, error) {
	server := mcp.NewServer(impl, nil)
	if err := AddAgentTool(server, t); err != nil {
		return nil, err
	}
	return server, nil
}

// AddAgentTool adds t to server.
//
// A call prompts the Agent with its prompt and returns the text of the
// run's last assistant message. While the run streams, each text delta is
// sent as a notifications/progress message (Message the delta, Progress
// counting them) when the client asked for progress. A client's
// cancellation aborts the run. A run that fails is an error result holding
// the Agent's error; an Agent busy with a run started elsewhere answers
// [agentcore.ErrBusy] as an error result.
//
// A call the Agent's [hold.Gate] ([AgentTool].Gate) holds is asked of a
// person through the client, when the client declared the elicitation
// capability: one form elicitation per held call, whose message gives the
// request's title (or the tool's name), reason, what it touches and the
// arguments, and whose form has an "approve" boolean (true by default)
// and a "reason" string. Accept approves the call (unedited) unless the
// form says approve is false, which denies it with the reason; decline
// and cancel deny it. The decisions go to the Gate, the run continues,
// and the call answers with its final text; a later hold is asked the
// same way. To a client on protocol 2026-07-28 or later the elicitations
// are the input requests of the call's result (SEP-2322; the SDK's client
// answers them and calls again, and that call resumes the run: its
// request state is a random token naming what the server keeps); to an
// older client they are elicitation/create requests sent while the call
// runs (a call cancelled meanwhile denies the calls still asked about). A
// client without the capability has every held call denied with
// [ReasonNoElicitation], which the model reads, and the call completes.
//
// While an Agent waits for answers asked of one call, a new call to it
// is refused with an error result wrapping [ErrWaiting]: a client that
// never answers leaves it waiting until the Gate's deadline
// ([hold.Options].Timeout) or the program's own [hold.Gate.Decide]
// frees it. Without a Gate, a run that holds calls is an error result
// holding the [*hold.HeldError].
func AddAgentTool(server *mcp.Server, t AgentTool) error {
	if t.Agent == nil && t.NewAgent == nil {
		return ErrNoAgent
	}
	h := &agentHandler{server: server, tool: t, sessions: map[*mcp.ServerSession]*agentSlot{}}
	if t.NewAgent == nil {
		h.shared = newSlot(t.Agent, t.Gate)
	}
	mcp.AddTool(server, &mcp.Tool{
		Name:        cmp.Or(t.Name, DefaultAgentToolName),
		Description: cmp.Or(t.Description, DefaultAgentToolDescription),
	}, h.handle)
	return nil
}

// agentHandler answers the calls of one AgentTool.
type agentHandler struct {
	server *mcp.Server
	tool   AgentTool
	shared *agentSlot // the Agent of every call, when NewAgent is nil

	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*agentSlot
}

// agentSlot is one Agent and the turn of the calls that prompt it. Its
// fields other than turn are read and written holding the turn.
type agentSlot struct {
	turn  chan struct{} // holds a token while a call runs
	agent *agentcore.Agent
	gate  *hold.Gate
	// asked is the elicitation awaiting its client's answers, if any.
	asked *asked
}

// asked is an elicitation sent to a client as input requests: the request
// state that names it, and the held calls it asks about.
type asked struct {
	state string
	calls []string
}

func newSlot(a *agentcore.Agent, g *hold.Gate) *agentSlot {
	return &agentSlot{turn: make(chan struct{}, 1), agent: a, gate: g}
}

// slot returns the slot of session's calls, dropping the slots of the
// sessions that are over.
func (h *agentHandler) slot(session *mcp.ServerSession) *agentSlot {
	if h.shared != nil {
		return h.shared
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	live := map[*mcp.ServerSession]bool{}
	for ss := range h.server.Sessions() {
		live[ss] = true
	}
	for ss := range h.sessions {
		if !live[ss] && ss != session {
			delete(h.sessions, ss)
		}
	}
	s := h.sessions[session]
	if s == nil {
		s = newSlot(nil, nil)
		h.sessions[session] = s
	}
	return s
}

// handle runs one call: it waits for its turn, prompts the Agent (or,
// when the call brings a person's answers, applies them and continues
// it) and answers with its final text or with the elicitations of the
// calls its Gate held.
func (h *agentHandler) handle(ctx context.Context, req *mcp.CallToolRequest, in Prompt) (*mcp.CallToolResult, any, error) {
	if in.Prompt == "" {
		return nil, nil, errors.New("prompt is empty")
	}
	s := h.slot(req.Session)
	select {
	case s.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	defer func() { <-s.turn }()
	if s.agent == nil {
		a, err := h.tool.NewAgent(ctx, req.Session)
		if err != nil {
			return nil, nil, err
		}
		if a == nil {
			return nil, nil, errors.New("NewAgent returned no Agent")
		}
		s.agent = a
		if h.tool.GateOf != nil {
			s.gate = h.tool.GateOf(a)
		}
	}
	run := func(ctx context.Context) error { return s.agent.Prompt(ctx, in.Prompt) }
	if state := req.Params.RequestState; state != "" {
		if err := s.answer(state, req.Params.InputResponses); err != nil {
			return errorResult(err), nil, nil
		}
		run = s.agent.Continue
	}
	res, err := s.serve(ctx, req, run)
	return res, nil, err
}

// answer applies the answers of a client to the elicitation named state
// to the calls it asked about that still wait.
func (s *agentSlot) answer(state string, answers mcp.InputResponseMap) error {
	a := s.asked
	if a == nil || s.gate == nil || a.state != state {
		return errors.New("the answers are for a request for a decision that this agent does not wait for")
	}
	s.asked = nil
	waiting := map[string]bool{}
	for _, c := range s.gate.State().Undecided() {
		waiting[c.ID] = true
	}
	ids := slices.DeleteFunc(slices.Clone(a.calls), func(id string) bool { return !waiting[id] })
	if len(ids) == 0 {
		return errors.New("the calls asked about were decided meanwhile")
	}
	return s.gate.Decide(decisions(ids, answers)...)
}

// serve runs the Agent with run, then goes on through the calls its Gate
// holds: denied when the client cannot ask a person, asked of the person
// by elicitation/create requests when the client speaks a protocol older
// than [multiRoundTrip], else handed back as the input requests of the
// result. It returns the final text, or the run's failure, as a result;
// an error only when ctx ended while asking.
func (s *agentSlot) serve(ctx context.Context, req *mcp.CallToolRequest, run func(context.Context) error) (*mcp.CallToolResult, error) {
	onDelta := progressSender(req)
	for {
		text, ran, err := runAgent(ctx, s.agent, run, onDelta)
		if ran {
			s.asked = nil // answers to an earlier elicitation are stale
		}
		var held *hold.HeldError
		switch {
		case err == nil:
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
		case !errors.As(err, &held) || s.gate == nil:
			return errorResult(err), nil
		case !ran:
			return errorResult(fmt.Errorf("%w: %w", ErrWaiting, err)), nil
		}
		var ds []hold.Decision
		switch {
		case !canElicit(req):
			ds = denials(held.Calls, ReasonNoElicitation)
		case asksInline(req):
			if ds, err = askInline(ctx, req, held.Calls); err != nil {
				// Nobody will answer: the Agent must not wait for it.
				_ = s.gate.Decide(denials(held.Calls, reasonGone)...)
				return nil, err
			}
		default:
			s.asked = &asked{state: newRequestState(), calls: callIDs(held.Calls)}
			return &mcp.CallToolResult{InputRequests: elicitations(held.Calls), RequestState: s.asked.state}, nil
		}
		if err := s.gate.Decide(ds...); err != nil {
			return errorResult(err), nil
		}
		run = s.agent.Continue
	}
}

// errorResult is the error result holding err's text.
func errorResult(err error) *mcp.CallToolResult {
	res := &mcp.CallToolResult{}
	res.SetError(err)
	return res
}

// progressSender returns the function that sends the text deltas of req's
// run as progress notifications, or nil when the client asked for none.
func progressSender(req *mcp.CallToolRequest) func(ctx context.Context, delta string) {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return nil
	}
	n := 0
	return func(ctx context.Context, delta string) {
		n++
		// A notification that cannot be sent is lost; the answer is not.
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
			ProgressToken: token, Progress: float64(n), Message: delta,
		})
	}
}

// runAgent runs agent with run and returns the text of the run's last
// assistant message; ran reports whether a run took place (an Agent whose
// Gate waits refuses to start one). onDelta, when not nil, gets the text
// deltas as they stream, on the run's goroutine.
func runAgent(ctx context.Context, agent *agentcore.Agent, run func(context.Context) error, onDelta func(context.Context, string)) (text string, ran bool, err error) {
	var added []agentcore.Message
	unsubscribe := agent.Subscribe(func(ctx context.Context, ev agentcore.AgentEvent) {
		switch ev := ev.(type) {
		case *agentcore.MessageUpdateEvent:
			if d, ok := ev.AssistantEvent.(*agentcore.TextDeltaEvent); ok && onDelta != nil {
				onDelta(ctx, d.Delta)
			}
		case *agentcore.AgentEndEvent:
			added, ran = ev.Messages, true
		}
	})
	err = run(ctx)
	unsubscribe()
	if err != nil {
		return "", ran, err
	}
	for i := len(added) - 1; i >= 0; i-- {
		if m, ok := added[i].(*agentcore.AssistantMessage); ok {
			return m.Text(), ran, nil
		}
	}
	return "", ran, nil
}
