package agentmcp

import (
	"cmp"
	"context"
	"errors"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pi-go/agentcore"
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
func AddAgentTool(server *mcp.Server, t AgentTool) error {
	if t.Agent == nil && t.NewAgent == nil {
		return ErrNoAgent
	}
	h := &agentHandler{server: server, tool: t, sessions: map[*mcp.ServerSession]*agentSlot{}}
	if t.NewAgent == nil {
		h.shared = newSlot(t.Agent)
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

// agentSlot is one Agent and the turn of the calls that prompt it.
type agentSlot struct {
	turn  chan struct{} // holds a token while a call runs
	agent *agentcore.Agent
}

func newSlot(a *agentcore.Agent) *agentSlot {
	return &agentSlot{turn: make(chan struct{}, 1), agent: a}
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
		s = newSlot(nil)
		h.sessions[session] = s
	}
	return s
}

// handle runs one call: it waits for its turn, prompts the Agent and
// answers with its final text.
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
	}
	text, err := promptAgent(ctx, s.agent, in.Prompt, progressSender(req))
	if err != nil {
		res := &mcp.CallToolResult{}
		res.SetError(err)
		return res, nil, nil
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
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

// promptAgent runs a prompt on agent and returns the text of the run's
// last assistant message; onDelta, when not nil, gets the text deltas as
// they stream, on the run's goroutine.
func promptAgent(ctx context.Context, agent *agentcore.Agent, prompt string, onDelta func(context.Context, string)) (string, error) {
	var added []agentcore.Message
	unsubscribe := agent.Subscribe(func(ctx context.Context, ev agentcore.AgentEvent) {
		switch ev := ev.(type) {
		case *agentcore.MessageUpdateEvent:
			if d, ok := ev.AssistantEvent.(*agentcore.TextDeltaEvent); ok && onDelta != nil {
				onDelta(ctx, d.Delta)
			}
		case *agentcore.AgentEndEvent:
			added = ev.Messages
		}
	})
	err := agent.Prompt(ctx, prompt)
	unsubscribe()
	if err != nil {
		return "", err
	}
	for i := len(added) - 1; i >= 0; i-- {
		if m, ok := added[i].(*agentcore.AssistantMessage); ok {
			return m.Text(), nil
		}
	}
	return "", nil
}
