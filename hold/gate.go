package hold

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/pi-go/agentcore"
)

// Texts the model reads for calls the Gate did not let run.
const (
	// DefaultPlaceholder is the result a held call has in the transcript
	// until it is decided: what the model reads if it never is.
	DefaultPlaceholder = "This tool call is waiting for a person's decision and has not run."
	textDenied         = "The user denied this tool call."
	textExpired        = "No decision was made before the deadline; the tool call was denied."
	textNested         = "This tool call needs a person's decision, which a call made inside another tool cannot wait for; it was denied."
)

// Options configure a [Gate]. The zero value holds nothing.
type Options struct {
	// Policy decides which calls are held; nil holds none. [Always],
	// [When] and [First] build the usual ones.
	Policy Policy
	// Timeout, when positive, is the deadline of a held call whose
	// request sets none, counted from when it was held. Zero means no
	// deadline.
	Timeout time.Duration
	// OnDeadline returns the decision applied to a call still undecided
	// at its deadline; nil, or an answer that is nil or names another
	// call, denies it with a text saying no decision came in time. It is
	// called on the goroutine that finds the deadline passed ([Gate.Wait],
	// [Gate.Decide] or a run's start), without the Gate's lock held.
	OnDeadline func(c Call) Decision
	// Placeholder is the result text of a held call until it is decided;
	// empty means [DefaultPlaceholder]. It must differ from the texts of
	// the other results the hooks produce (the Gate recognizes its
	// placeholders by it).
	Placeholder string
	// OnEvent, optional, is told when calls are held, decided, resolved
	// or discarded (see [Event]: each event says on which goroutine). It
	// is called without the Gate's lock held and may call the Gate's
	// methods (a decision from a HeldEvent continues the same run); it
	// must not panic. The event is the callee's.
	OnEvent func(ev Event)
	// Now is the Gate's clock: when calls are held, when deadlines have
	// passed, and the timestamps of resolved results. Nil is time.Now. A
	// surface that runs hooks in a replayed workflow gives it the
	// workflow's time, so that what the Gate records is deterministic.
	Now func() time.Time
}

// Gate is a [agentcore.Layer] that holds tool calls for a person's
// decision; see the package documentation. Its methods are safe for
// concurrent use, and none needs the Agent's goroutine. A Gate serves one
// Agent (or one conversation of [agentcore.RunLoop] runs) at a time.
type Gate struct {
	opts Options

	mu    sync.Mutex
	agent *agentcore.Agent
	state State
	// turn are the calls held by BeforeToolCall in the running turn,
	// confirmed by FinishTurn.
	turn []Call
	// tools are the tools as the later layers wrap them, by name, from the
	// latest run.
	tools map[string]agentcore.Tool
	// running is the approved call being run by a resume, which the
	// policy must let through.
	running string
	// changed is closed, and replaced, when the state changes.
	changed chan struct{}
	// restored is set while the state [Gate.Restore] gave has not been
	// checked against the Agent's transcript by a run's start.
	restored bool
}

// New returns a Gate configured by opts.
func New(opts Options) *Gate {
	if opts.Placeholder == "" {
		opts.Placeholder = DefaultPlaceholder
	}
	return &Gate{opts: opts, tools: map[string]agentcore.Tool{}, changed: make(chan struct{})}
}

// now reads the Gate's clock.
func (g *Gate) now() time.Time {
	if g.opts.Now != nil {
		return g.opts.Now()
	}
	return time.Now()
}

// Options returns the options the Gate was made with, for a surface that
// applies them its own way (a durable session takes a Gate found among
// its layers as its holding options).
func (g *Gate) Options() Options { return g.opts }

// Install adds the Gate to an Agent or a RunLoop run: a BeforeToolCall hook
// that holds the calls the policy picks, a FinishTurn hook that ends the
// run after a turn that held any, a tool wrapper that notes the run's tools
// (unchanged), and, on an Agent, a run wrapper that refuses to start a run
// while calls wait and resolves decided calls before it starts. Under
// RunLoop the caller resolves decided calls itself ([Gate.Resolve]).
func (g *Gate) Install(s *agentcore.Setup) {
	if a := s.Agent(); a != nil {
		g.mu.Lock()
		g.agent = a
		g.mu.Unlock()
	}
	s.AddHooks(agentcore.Hooks{BeforeToolCall: g.beforeToolCall, FinishTurn: g.finishTurn})
	s.WrapTool(func(t agentcore.Tool) agentcore.Tool {
		g.mu.Lock()
		g.tools[t.Name] = t
		g.mu.Unlock()
		return t
	})
	s.WrapRun(g.wrapRun)
}

// State returns a copy of what the Gate holds: the held calls of the last
// turn that held any, decided or not, until they are resolved.
func (g *Gate) State() State {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.state.clone()
}

// Restore replaces what the Gate holds with a copy of s, read back from
// what [Gate.State] gave a program before (a restart): call it with the
// transcript restored, before the Agent's next run. A state with a call
// lacking an ID or tool, two calls of one ID, arguments that are not a
// JSON object, or a decision naming another call is refused with an
// error wrapping [ErrInvalidState], and changes nothing.
//
// The state must match the Agent's transcript: each call a call of the
// last turn, to the same tool, its result still the Gate's placeholder,
// and every placeholder of that turn held. On a Gate installed on an
// Agent, Restore checks this at once; otherwise the next run's start
// does, and refuses to start with the error (the state and the
// transcript unchanged) rather than drop a held call.
func (g *Gate) Restore(s State) error {
	if err := s.check(); err != nil {
		return err
	}
	g.mu.Lock()
	agent := g.agent
	g.mu.Unlock()
	if agent != nil && len(s.Calls) > 0 {
		if err := g.matches(agent.Messages(), s); err != nil {
			return err
		}
	}
	g.mu.Lock()
	g.state = s.clone()
	g.restored = len(s.Calls) > 0
	g.signal()
	g.mu.Unlock()
	return nil
}

// signal wakes the waiters of [Gate.Wait], holding mu.
func (g *Gate) signal() {
	close(g.changed)
	g.changed = make(chan struct{})
}

// emit tells OnEvent about evs, in order, without mu held.
func (g *Gate) emit(evs ...Event) {
	if g.opts.OnEvent == nil {
		return
	}
	for _, ev := range evs {
		g.opts.OnEvent(ev)
	}
}

// beforeToolCall asks the policy and holds the calls it picks: they fail
// with the placeholder as their result, and are confirmed held by
// finishTurn.
func (g *Gate) beforeToolCall(ctx context.Context, call agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
	if g.opts.Policy == nil {
		return nil, nil
	}
	g.mu.Lock()
	approved := g.running != "" && g.running == call.ToolCall.ID
	g.mu.Unlock()
	if approved {
		return nil, nil
	}
	req, err := g.opts.Policy(ctx, call)
	if err != nil || req == nil {
		return nil, err
	}
	if !calledBy(call.AssistantMessage, call.ToolCall.ID) {
		return agentcore.Block(textNested), nil
	}
	c := Call{ID: call.ToolCall.ID, Tool: call.ToolCall.Name, Arguments: slices.Clone(call.Args), Request: req.clone(), HeldAt: g.now()}
	if c.Deadline.IsZero() && g.opts.Timeout > 0 {
		c.Deadline = c.HeldAt.Add(g.opts.Timeout)
	}
	g.mu.Lock()
	g.turn = append(g.turn, c)
	g.mu.Unlock()
	return agentcore.Block(g.opts.Placeholder), nil
}

// calledBy reports whether the tool call id is one of m's own, not a
// nested call made inside one of them.
func calledBy(m *agentcore.AssistantMessage, id string) bool {
	return m != nil && slices.ContainsFunc(m.ToolCalls(), func(c agentcore.ToolCall) bool { return c.ID == id })
}

// finishTurn confirms the calls the turn held (those whose result is the
// placeholder: an abort may have failed them otherwise), tells OnEvent,
// and ends the run when there are any.
func (g *Gate) finishTurn(_ context.Context, t agentcore.TurnContext) (agentcore.TurnDecision, error) {
	g.mu.Lock()
	turn := g.turn
	g.turn = nil
	var held []Call
	for _, c := range turn {
		if slices.ContainsFunc(t.ToolResults, func(r *agentcore.ToolResultMessage) bool {
			return r.ToolCallID == c.ID && r.IsError && r.Text() == g.opts.Placeholder
		}) {
			held = append(held, c)
		}
	}
	if len(held) > 0 {
		g.state.Calls = append(g.state.Calls, held...)
		g.signal()
	}
	g.mu.Unlock()
	if len(held) == 0 {
		return agentcore.TurnDefault, nil
	}
	for _, c := range held {
		g.emit(&HeldEvent{Call: c.clone()})
	}
	return agentcore.TurnEnd, nil
}

// Holds reports whether the Gate holds the tool call id: held by the
// running turn (its result is the placeholder, not yet confirmed by the
// turn's end) or listed in [Gate.State], decided or not, until resolved.
// A surface that shows the transcript (the agui handler) uses it to keep
// the placeholders out of view.
func (g *Gate) Holds(id string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	has := func(c Call) bool { return c.ID == id }
	return slices.ContainsFunc(g.turn, has) || slices.ContainsFunc(g.state.Calls, has)
}
