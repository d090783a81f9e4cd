package hold

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/limit"
)

// wrapRun is the Gate's run wrapper on an Agent: before a run it applies
// the decisions of the held calls (or refuses the run while some wait);
// after it, it reports the calls the run held, or goes on at once when
// they were all decided meanwhile. A run that held calls is paused, not
// ended: what the later layers' wrappers made of its stop (a structured
// answer missing) gives way to the [*HeldError]; a failed run (an
// [*agentcore.RunError]) keeps its error.
func (g *Gate) wrapRun(next agentcore.RunFunc) agentcore.RunFunc {
	return func(ctx context.Context, run agentcore.Run) error {
		for {
			if err := g.resume(ctx); err != nil {
				return err
			}
			err := next(ctx, run)
			if failed := (*agentcore.RunError)(nil); errors.As(err, &failed) {
				return err
			}
			g.emit(g.expire(g.now())...)
			s := g.State()
			if len(s.Calls) == 0 {
				return err
			}
			if waiting := s.Undecided(); len(waiting) > 0 {
				return &HeldError{Calls: waiting}
			}
			if err != nil {
				return err
			}
			run = agentcore.Run{Continue: true}
		}
	}
}

// resume applies the decisions of the held calls to the Agent's
// transcript; it refuses with a [*HeldError] while some wait. Held calls
// whose placeholders the transcript lost are discarded; a restored state
// that does not match the transcript refuses the run ([Gate.heldIn]).
func (g *Gate) resume(ctx context.Context) error {
	g.emit(g.expire(g.now())...)
	g.mu.Lock()
	agent, s := g.agent, g.state.clone()
	g.mu.Unlock()
	if len(s.Calls) == 0 || agent == nil {
		return nil
	}
	messages := agent.Messages()
	if ok, err := g.heldIn(messages, s); !ok {
		return err
	}
	if waiting := s.Undecided(); len(waiting) > 0 {
		return &HeldError{Calls: waiting}
	}
	opts := agent.ToolCallOptions()
	opts.Context.Messages = messages
	out, err := g.Resolve(ctx, messages, opts)
	if err != nil {
		return err
	}
	// One replacement per resolved call, so that the Agent's listeners
	// (a session file, a trace, a UI) record each real result. A
	// placeholder the transcript lost meanwhile (a concurrent SetMessages)
	// is gone with it.
	for i, m := range out {
		if r, ok := m.(*agentcore.ToolResultMessage); ok && agentcore.Message(r) != messages[i] {
			if err := agent.ReplaceMessage(messages[i], m); err != nil && !errors.Is(err, agentcore.ErrMessageNotFound) {
				return err
			}
		}
	}
	return nil
}

// held is where the held calls are in a transcript.
type held struct {
	assistant *agentcore.AssistantMessage
	// results are the indexes of the calls' placeholders, by call ID.
	results map[string]int
}

// locate finds the assistant message that made the calls of s and their
// results after it; an error says what is missing.
func locate(messages []agentcore.Message, s State) (held, error) {
	first := s.Calls[0].ID
	for i := len(messages) - 1; i >= 0; i-- {
		a, ok := messages[i].(*agentcore.AssistantMessage)
		if !ok || !calledBy(a, first) {
			continue
		}
		h := held{assistant: a, results: map[string]int{}}
		for j := i + 1; j < len(messages); j++ {
			if r, ok := messages[j].(*agentcore.ToolResultMessage); ok {
				h.results[r.ToolCallID] = j
			}
		}
		for _, c := range s.Calls {
			if _, ok := h.results[c.ID]; !ok || !calledBy(a, c.ID) {
				return held{}, fmt.Errorf("%w: the transcript holds no placeholder of call %s", ErrInvalidState, limit.Quote(c.ID))
			}
		}
		return h, nil
	}
	return held{}, fmt.Errorf("%w: the transcript holds no assistant message calling %s", ErrInvalidState, limit.Quote(first))
}

// Resolve applies the decisions of the held calls to messages, a
// transcript holding their placeholders, and returns a new transcript in
// which each placeholder is replaced by the call's result; then the Gate
// holds nothing. An Agent's Gate does this itself when the next run
// starts; Resolve is for a caller that runs the loop with
// [agentcore.RunLoop] (or elsewhere), which then continues from the
// returned transcript.
//
// Approved calls run one at a time, in call order, through
// [agentcore.RunToolCall] with opts (its Tools are the tools the calls may
// name; a nil AssistantMessage and an empty Context are filled in from
// messages), under ctx: an approved call's arguments are prepared and
// validated again, edited or not. On an Agent, opts is
// [agentcore.Agent.ToolCallOptions]: the Agent's tools as its layers wrap
// them and its BeforeToolCall and AfterToolCall as its layers compose
// them, the Gate's own among them (it lets the approved call through and
// holds nothing nested in it), so every layer's and the program's hooks
// apply to an approved call as to any other. A denied call's result is an
// error with the person's reason; an answered call's is the given result.
//
// It fails, changing nothing, with a [*HeldError] while calls wait, with
// an error wrapping [ErrInvalidState] when messages lack a placeholder,
// and with ctx's error when ctx is done before the first approved call
// runs. The messages are not modified. It sends a [ResolvedEvent] per
// call, on the calling goroutine.
func (g *Gate) Resolve(ctx context.Context, messages []agentcore.Message, opts agentcore.RunToolCallOptions) ([]agentcore.Message, error) {
	g.emit(g.expire(g.now())...)
	s := g.State()
	if len(s.Calls) == 0 {
		return slices.Clone(messages), nil
	}
	if waiting := s.Undecided(); len(waiting) > 0 {
		return nil, &HeldError{Calls: waiting}
	}
	h, err := locate(messages, s)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opts.AssistantMessage == nil {
		opts.AssistantMessage = h.assistant
	}
	if opts.Context.Messages == nil && opts.Context.Tools == nil {
		opts.Context = agentcore.AgentContext{Messages: slices.Clip(messages), Tools: opts.Tools}
	}
	out := slices.Clone(messages)
	events := make([]Event, 0, len(s.Calls))
	for _, c := range s.Calls {
		msg := g.result(ctx, h.assistant, c, opts)
		out[h.results[c.ID]] = msg
		events = append(events, &ResolvedEvent{Call: c, Result: msg})
	}
	g.mu.Lock()
	g.state = State{}
	g.signal()
	g.mu.Unlock()
	g.emit(events...)
	return out, nil
}

// result is the tool-result message of decided call c.
func (g *Gate) result(ctx context.Context, assistant *agentcore.AssistantMessage, c Call, opts agentcore.RunToolCallOptions) *agentcore.ToolResultMessage {
	msg := &agentcore.ToolResultMessage{ToolCallID: c.ID, ToolName: c.Tool, Content: []agentcore.ContentBlock{}, Timestamp: g.now().UnixMilli()}
	switch d := c.Decision.(type) {
	case Deny:
		reason := d.Reason
		if reason == "" {
			reason = textDenied
		}
		msg.Content, msg.IsError = []agentcore.ContentBlock{agentcore.TextBlock{Text: reason}}, true
	case Answer:
		if blocks, _ := agentcore.ValueBlocks(d.Result.Content); blocks != nil {
			msg.Content = blocks
		}
		msg.Details, msg.Usage, msg.IsError = d.Result.Details, d.Result.Usage, d.Result.IsError
	case Approve:
		call := *findCall(assistant, c.ID)
		if d.Arguments != nil {
			call.Arguments = d.Arguments
		}
		g.mu.Lock()
		g.running = c.ID
		g.mu.Unlock()
		o := agentcore.RunToolCall(ctx, call, opts)
		g.mu.Lock()
		g.running = ""
		g.mu.Unlock()
		if o.Result.Content != nil {
			msg.Content = o.Result.Content
		}
		msg.Details, msg.Usage, msg.IsError, msg.DurationMs = o.Result.Details, o.Result.Usage, o.IsError, o.DurationMs
		if d.Arguments != nil {
			msg.Content = append(slices.Clip(msg.Content), agentcore.TextBlock{Text: "(The user changed the arguments of this call before approving it; it ran with " + string(call.Arguments) + ".)"})
		}
	}
	return msg
}

// findCall returns the tool call id of m, which locate found there.
func findCall(m *agentcore.AssistantMessage, id string) *agentcore.ToolCall {
	for _, c := range m.ToolCalls() {
		if c.ID == id {
			return &c
		}
	}
	return nil
}
