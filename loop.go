package agentcore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
)

// sink receives the events of a run, synchronously and in order, on the
// run's goroutine. An error ends the run with that error.
type sink func(ev AgentEvent) error

// engine is one run of the loop: the state the reference keeps in
// runLoop's locals.
type engine struct {
	ctx    context.Context
	cfg    LoopConfig
	level  ThinkingLevel
	stream StreamFn
	emit   sink

	cur         AgentContext
	newMessages []Message
	last        *AssistantMessage // the run's latest assistant message
	tools       toolState
	llm         llmView

	// toolCtx is the tools' ctx, created with the first batch and
	// cancelled when an event fails.
	toolCtx     context.Context
	cancelTools context.CancelFunc

	// pending are the messages the next turn delivers before its request.
	pending []Message

	// held are the messages the run took from a queue (heldFrom) and has
	// not delivered yet (emitted their message_end), oldest first: what an
	// Agent puts back in its queue when the run fails.
	held     []Message
	heldFrom Queue
}

// The refusals of RunLoopContinue and Agent.Continue.
var (
	// ErrNoMessages is reported when a run is continued from an empty
	// transcript (or one holding only system messages, for an Agent).
	ErrNoMessages = errors.New("agentcore: no messages to continue from")
	// ErrContinueFromAssistant is reported when a run is continued from a
	// transcript ending in an assistant message, with nothing queued.
	ErrContinueFromAssistant = errors.New("agentcore: cannot continue from message role: assistant")
)

// newEngine prepares a run. actx.Messages becomes the engine's own: callers
// pass a copy.
func newEngine(ctx context.Context, actx AgentContext, cfg LoopConfig, emit sink) (*engine, error) {
	fn, err := resolveStreamFn(cfg.StreamFn)
	if err != nil {
		return nil, err
	}
	return &engine{ctx: ctx, cfg: cfg, level: cfg.ThinkingLevel.orOff(), stream: fn, emit: emit, cur: actx}, nil
}

// checkContinue applies RunLoopContinue's preconditions.
func checkContinue(messages []Message) error {
	if len(messages) == 0 {
		return ErrNoMessages
	}
	if _, ok := messages[len(messages)-1].(*AssistantMessage); ok {
		return ErrContinueFromAssistant
	}
	return nil
}

// runPrompts runs the loop with new prompt messages, taken from queue from
// (zero when they are the caller's).
func (e *engine) runPrompts(prompts []Message, from Queue) (msgs []Message, err error) {
	defer e.release()
	defer e.recoverInto(&err)
	e.hold(prompts, from)
	if prompts, err = e.adopt(prompts); err != nil {
		return nil, err
	}
	initial, inserted := e.declareToolChanges(prompts)
	e.newMessages = append([]Message{}, initial...)
	if err := e.emitAll(&AgentStartEvent{}, &TurnStartEvent{}); err != nil {
		return e.newMessages, err
	}
	for i, m := range initial {
		e.cur.Messages = append(e.cur.Messages, m)
		if err := e.deliver(m, i, inserted, 0); err != nil {
			return e.newMessages, err
		}
	}
	return e.newMessages, e.run()
}

// runContinue runs the loop from the existing context.
func (e *engine) runContinue() (msgs []Message, err error) {
	defer e.release()
	defer e.recoverInto(&err)
	if err := checkContinue(e.cur.Messages); err != nil {
		return nil, err
	}
	if _, err := e.adopt(nil); err != nil {
		return nil, err
	}
	e.newMessages = []Message{}
	if err := e.emitAll(&AgentStartEvent{}, &TurnStartEvent{}); err != nil {
		return e.newMessages, err
	}
	return e.newMessages, e.run()
}

// adopt makes the pointer blocks of the run's context and of its prompts
// values (see [ValueBlocks]); it returns the prompts.
func (e *engine) adopt(prompts []Message) ([]Message, error) {
	var err error
	if e.cur.Messages, err = valueContext("context message", e.cur.Messages); err != nil {
		return nil, err
	}
	return valueMessages("prompt", prompts)
}

// hold records msgs, taken from queue from, as not delivered yet.
func (e *engine) hold(msgs []Message, from Queue) {
	e.held, e.heldFrom = nil, from
	if from != 0 {
		e.held = msgs
	}
}

// deliver emits message m, element i of a declared batch whose inserted
// element is the loop's own declaration and whose first skip elements
// were not taken from a queue. Once its message_end is out (an Agent has
// appended it, whatever its listeners do), a message taken from a queue is
// no longer held.
func (e *engine) deliver(m Message, i, inserted, skip int) error {
	if err := e.emit(&MessageStartEvent{Message: m}); err != nil {
		return err
	}
	err := e.emit(&MessageEndEvent{Message: m})
	if inserted >= 0 && i > inserted {
		i-- // its index in the batch
	}
	if i != inserted && i >= skip && len(e.held) > 0 {
		e.held = e.held[1:]
	}
	return err
}

// release ends the run's tools' ctx.
func (e *engine) release() {
	if e.cancelTools != nil {
		e.cancelTools()
	}
}

// toolContext returns the ctx of the run's tools.
func (e *engine) toolContext() context.Context {
	if e.toolCtx == nil {
		e.toolCtx, e.cancelTools = context.WithCancel(e.ctx)
	}
	return e.toolCtx
}

// recoverInto turns a panic escaping a hook or the stream function into the
// run's error.
func (e *engine) recoverInto(err *error) {
	if r := recover(); r != nil {
		*err = panicError(r)
	}
}

func (e *engine) emitAll(events ...AgentEvent) error {
	for _, ev := range events {
		if err := e.emit(ev); err != nil {
			return err
		}
	}
	return nil
}

// view returns s without spare capacity, so that a hook appending to it
// copies instead of writing into the engine's array.
func view[T any](s []T) []T { return s[:len(s):len(s)] }

func (e *engine) agentContext() AgentContext {
	return AgentContext{Messages: view(e.cur.Messages), Tools: view(e.cur.Tools)}
}

func (e *engine) steering() []Message {
	if e.cfg.GetSteeringMessages == nil {
		return nil
	}
	return e.cfg.GetSteeringMessages(e.ctx)
}

func (e *engine) followUps() []Message {
	if e.cfg.GetFollowUpMessages == nil {
		return nil
	}
	return e.cfg.GetFollowUpMessages(e.ctx)
}

// endEvent is the run's agent_end. Its messages, which a Wait returns too,
// have no spare capacity: each holder's append copies.
func (e *engine) endEvent() *AgentEndEvent {
	return &AgentEndEvent{Messages: view(e.newMessages)}
}

func (e *engine) turnContext(msg *AssistantMessage, results []*ToolResultMessage) TurnContext {
	return TurnContext{Message: msg, ToolResults: results, Context: e.agentContext(), NewMessages: view(e.newMessages)}
}

// failure is the [RunError] of a run that ended normally with a failed
// response, else nil.
func (e *engine) failure() error {
	if e.last != nil && e.last.StopReason.Failed() {
		return newRunError(e.ctx, e.last, nil)
	}
	return nil
}

// panicError turns a recovered panic value into an error.
func panicError(r any) error {
	if err, ok := r.(error); ok {
		return err
	}
	return fmt.Errorf("%v", r)
}

// LoopRun is a run started by [RunLoop] or [RunLoopContinue]. Its events
// arrive on [LoopRun.Events], in order; the loop does not wait for the
// reader: events queue until they are read. The caller must call
// [LoopRun.Wait], or drain Events, or cancel the run's ctx: a run that is
// none of these keeps a goroutine blocked, holding its undelivered events.
type LoopRun struct {
	events   chan AgentEvent
	done     chan struct{}
	messages []Message
	err      error

	mu       sync.Mutex
	claimed  bool          // Events was called
	discard  chan struct{} // closed when nobody will read the events
	discards bool
}

// Events returns the run's events; range over it. It is closed after
// agent_end (or after the run failed). A caller that takes the channel
// drains it, or cancels the run's ctx: after a cancellation the events not
// yet delivered are dropped.
func (r *LoopRun) Events() <-chan AgentEvent {
	r.mu.Lock()
	r.claimed = true
	r.mu.Unlock()
	return r.events
}

// Wait blocks until the run has ended and its goroutines are gone, and
// returns the messages the run added (the agent_end event's: appending to
// the slice copies it). The error is a [*RunError] when the
// run's last response failed or was aborted; another error when a hook
// failed or panicked, or the stream function panicked (the run then ended
// without agent_end). When [LoopRun.Events] was never called, Wait drops
// the run's events as they come, so that a caller interested only in the
// outcome neither blocks the run nor keeps its events.
func (r *LoopRun) Wait() ([]Message, error) {
	r.mu.Lock()
	if !r.claimed && !r.discards {
		r.discards = true
		close(r.discard)
	}
	r.mu.Unlock()
	<-r.done
	return r.messages, r.err
}

// RunLoop starts a run with new prompt messages, which are added to the
// context with events, and returns at once. ctx is the run's abort signal.
// actx is copied; the run never modifies the caller's slices. It fails
// without starting when no stream function is configured ([ErrNoStreamFn]),
// a tool is misconfigured (an error wrapping [ErrInvalidTool]), a layer
// panicked installing or wrapping ([ErrInvalidLayer]) or a prompt is nil
// ([ErrNilMessage]).
func RunLoop(ctx context.Context, prompts []Message, actx AgentContext, cfg LoopConfig) (*LoopRun, error) {
	if err := checkMessages("prompt", prompts); err != nil {
		return nil, err
	}
	return startLoop(ctx, actx, cfg, func(e *engine) ([]Message, error) { return e.runPrompts(slices.Clone(prompts), 0) })
}

// RunLoopContinue starts a run from the existing context without adding a
// message, for retries: the context's last message must not be an
// assistant message. It refuses an empty context ([ErrNoMessages]) and an
// assistant tail ([ErrContinueFromAssistant]).
func RunLoopContinue(ctx context.Context, actx AgentContext, cfg LoopConfig) (*LoopRun, error) {
	if err := checkContinue(actx.Messages); err != nil {
		return nil, err
	}
	return startLoop(ctx, actx, cfg, (*engine).runContinue)
}

func startLoop(ctx context.Context, actx AgentContext, cfg LoopConfig, body func(*engine) ([]Message, error)) (*LoopRun, error) {
	if ctx == nil {
		return nil, ErrNilContext
	}
	fn, err := resolveStreamFn(cfg.StreamFn)
	if err != nil {
		return nil, err
	}
	layers := install(nil, cfg.Layers, cfg.Hooks)
	if layers.err != nil {
		return nil, layers.err
	}
	tools, err := layers.wrapTools(actx.Tools)
	if err != nil {
		return nil, err
	}
	if fn, err = layers.streamFn(fn); err != nil {
		return nil, err
	}
	cfg.Hooks, cfg.StreamFn, cfg.Layers = layers.hooks, fn, nil
	actx = AgentContext{Messages: slices.Clone(actx.Messages), Tools: slices.Clone(tools)}
	if err := ValidateTools(actx.Tools); err != nil {
		return nil, err
	}
	q := newHandoff[AgentEvent]()
	e, err := newEngine(ctx, actx, cfg, func(ev AgentEvent) error {
		for _, l := range layers.listeners {
			if err := callListener(ctx, l, ev); err != nil {
				return err
			}
		}
		q.put(ev)
		return nil
	})
	if err != nil {
		return nil, err
	}
	r := &LoopRun{events: make(chan AgentEvent), done: make(chan struct{}), discard: make(chan struct{})}
	engineDone := make(chan struct{})
	go func() {
		defer close(engineDone)
		defer q.put(nil)
		r.messages, r.err = body(e)
		r.messages = view(r.messages)
		if r.err == nil {
			r.err = e.failure()
		}
	}()
	go func() {
		defer close(r.done)
		pump(ctx, q, r.events, r.discard)
		close(r.events)
		<-engineDone
	}()
	return r, nil
}

// pump forwards the events of q to out until the engine's end (a nil
// event). After ctx is done, or discard is closed, it drops events but
// still waits for the end.
func pump(ctx context.Context, q *handoff[AgentEvent], out chan<- AgentEvent, discard <-chan struct{}) {
	dropping := false
	for {
		<-q.ready
		for _, ev := range q.take() {
			if ev == nil {
				return
			}
			if dropping {
				continue
			}
			select {
			case out <- ev:
			case <-ctx.Done():
				dropping = true
			case <-discard:
				dropping = true
			}
		}
	}
}
