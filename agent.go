package agentcore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
)

// ErrBusy is reported by [Agent.Prompt], [Agent.Continue] and [Agent.Reset]
// while a run is active, and by Prompt and Continue while the listeners
// receive a transcript change outside a run (from a listener, say); they
// then change nothing. Queue input with
// [Agent.Steer] or [Agent.FollowUp], or wait with [Agent.WaitForIdle].
var ErrBusy = errors.New("agentcore: agent is already processing a run; use Steer or FollowUp to queue messages, or wait for completion")

// ErrNilContext is reported by the methods that take a context when given
// a nil one.
var ErrNilContext = errors.New("agentcore: nil Context")

// Options configure [New]. The zero value is a working configuration once a
// stream function is available (Options.StreamFn or [SetDefaultStreamFn]).
type Options struct {
	// Hooks are the loop's policy points; see [Hooks]. A nil ConvertToLLM
	// keeps the four standard roles.
	Hooks

	// SystemPrompt seeds the leading system message when Messages does not
	// start with one (together with the declarations of Tools). That message
	// is part of the initial transcript, not of a run: no event announces it.
	SystemPrompt string
	// Model is the model of future runs.
	Model Model
	// ThinkingLevel is the requested reasoning level; empty means off.
	ThinkingLevel ThinkingLevel
	// Tools are the executable tools; the slice is copied.
	Tools []Tool
	// Messages is the initial transcript; the slice is copied, without its
	// nil messages.
	Messages []Message

	// StreamFn calls the model; nil uses the default stream function.
	StreamFn StreamFn
	// StreamOptions are passed to every request (APIKey is the fallback
	// when GetAPIKey answers nothing). They hold pi's AgentOptions
	// onPayload, onResponse, onProviderStreamEvent and identity as
	// OnPayload, OnResponse, OnProviderStreamEvent and Identity; maps,
	// JSON and categories are copied. An empty Transport is sent as
	// [DefaultAgentTransport], as pi's Agent sends it.
	StreamOptions StreamOptions
	// ToolExecution is the batch mode; empty means [ToolsParallel].
	ToolExecution ToolExecutionMode
	// SteeringMode is how many steering messages a drain point takes; empty
	// means [QueueModeOneAtATime].
	SteeringMode QueueMode
	// FollowUpMode is how many follow-up messages a drain point takes; empty
	// means [QueueModeOneAtATime].
	FollowUpMode QueueMode

	// Layers add behavior to the Agent (compaction, tracing, session
	// recording, a program's own policies): [New] installs them in order,
	// the first outermost, and composes their hooks with Hooks (see
	// [Setup]). The slice is read once; a nil layer is skipped.
	Layers []Layer
}

// Listener receives the events of the Agent's runs and of the transcript
// changes its methods make. Listeners run in subscription order, one event
// at a time, never concurrently. A run's events are awaited: the run does
// not go on until they return, so a listener is a barrier (a listener of an
// assistant message_end runs before that message's tool calls are
// prepared). They run on the run's goroutine; a tool never waits for the
// listeners of its updates. ctx is the run's abort signal, or
// context.Background() for a change delivered outside a run (the package
// doc's events section says when each comes). A listener may call every
// method except WaitForIdle, which would wait for itself; Prompt, Continue
// and Reset answer [ErrBusy] during the run, and Prompt and Continue while
// a change is delivered outside a run. A listener cannot veto anything
// (hooks decide); a panicking listener fails the run with the minimal
// failure sequence, and is ignored for a change made by a method.
type Listener func(ctx context.Context, ev AgentEvent)

// Agent is the stateful shell around the loop: it owns a transcript, reduces
// it from the events of its runs, keeps the steering and follow-up queues,
// broadcasts events to awaited listeners, and runs one run at a time. All
// methods are safe for concurrent use.
type Agent struct {
	mu sync.Mutex

	layers        stack // hooks: the layers' and the program's, composed
	streamFn      StreamFn
	streamOptions StreamOptions
	toolExecution ToolExecutionMode

	model     Model
	level     ThinkingLevel
	tools     []Tool
	messages  []Message
	streaming bool
	current   Message // between message_start and message_end
	pending   []string
	errorText string

	steering messageQueue
	followUp messageQueue
	run      *activeRun

	// outbox holds the events of the API's transcript changes not yet
	// delivered; delivering is set while a call outside a run delivers
	// them (see settle), and delivered is closed when it is done. The
	// elements of messages are never written in place: events share the
	// array.
	outbox     []AgentEvent
	delivering bool
	delivered  chan struct{}

	// listeners are replaced, never modified, under mu; the loop reads them
	// without it.
	listeners atomic.Pointer[[]*listenerEntry]
}

type listenerEntry struct {
	fn      Listener
	removed atomic.Bool
}

// activeRun is the run in progress: from the start of Prompt or Continue
// to its end, run wrappers included.
type activeRun struct {
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
}

// New returns an Agent configured by opts.
func New(opts Options) *Agent {
	a := &Agent{
		streamFn:      opts.StreamFn,
		streamOptions: opts.StreamOptions.agentDefaults(),
		toolExecution: opts.ToolExecution,
		model:         opts.Model,
		level:         opts.ThinkingLevel.orOff(),
		tools:         slices.Clone(opts.Tools),
		messages:      withoutNil(opts.Messages),
		steering:      messageQueue{mode: orOneAtATime(opts.SteeringMode)},
		followUp:      messageQueue{mode: orOneAtATime(opts.FollowUpMode)},
	}
	a.layers = install(a, opts.Layers, opts.Hooks)
	for _, l := range a.layers.listeners {
		a.Subscribe(l)
	}
	if len(a.messages) == 0 || !isSystem(a.messages[0]) {
		decls := make([]ToolDeclaration, len(a.tools))
		for i, t := range a.tools {
			decls[i] = t.Declaration()
		}
		if first := InitialSystemMessage(opts.SystemPrompt, decls); first != nil {
			a.messages = append([]Message{first}, a.messages...)
		}
	}
	return a
}

// Subscribe adds a listener and returns the function that removes it.
// Removing is idempotent; a listener removed during a run gets no further
// events. A listener added while an event is being delivered gets the
// events after it. Both are safe to call from a listener. A nil listener
// is ignored.
func (a *Agent) Subscribe(fn Listener) (unsubscribe func()) {
	if fn == nil {
		return func() {}
	}
	entry := &listenerEntry{fn: fn}
	a.mu.Lock()
	list := append(slices.Clip(a.listenerList()), entry)
	a.listeners.Store(&list)
	a.mu.Unlock()
	return func() {
		entry.removed.Store(true)
		a.mu.Lock()
		defer a.mu.Unlock()
		if i := slices.Index(a.listenerList(), entry); i >= 0 {
			list := slices.Delete(slices.Clone(a.listenerList()), i, i+1)
			a.listeners.Store(&list)
		}
	}
}

// listenerList returns the current listeners; the slice is never modified.
func (a *Agent) listenerList() []*listenerEntry {
	if l := a.listeners.Load(); l != nil {
		return *l
	}
	return nil
}

// Prompt starts a run with a user message holding text and images, and
// returns when the run has ended and its agent_end listeners have returned.
// ctx is the run's abort signal, like [Agent.Abort].
//
// It fails without starting a run, changing nothing, with [ErrBusy] while a
// run is active or a transcript change is being delivered to the
// listeners (see ErrBusy), [ErrNoStreamFn], an error wrapping [ErrInvalidTool]
// when a tool is misconfigured ([ValidateTools]), or one wrapping
// [ErrInvalidLayer] when a layer panicked installing or wrapping. A run that started and ended with a
// failed or aborted response, or a failing hook, returns a [*RunError]
// (the failure is in the transcript and [State].ErrorMessage too); for an
// abort it unwraps to ctx's error: errors.Is(err, context.DeadlineExceeded)
// tells a timeout from [Agent.Abort].
func (a *Agent) Prompt(ctx context.Context, text string, images ...ImageBlock) error {
	content := make([]ContentBlock, 0, 1+len(images))
	content = append(content, TextBlock{Text: text})
	for _, img := range images {
		content = append(content, img)
	}
	return a.PromptMessages(ctx, &UserMessage{Content: Blocks(content...), Timestamp: nowMillis()})
}

// PromptMessages is [Agent.Prompt] with messages of any role as the prompt.
// The slice is copied. A nil message is refused with an error wrapping
// [ErrNilMessage].
func (a *Agent) PromptMessages(ctx context.Context, messages ...Message) error {
	if err := checkMessages("prompt", messages); err != nil {
		return err
	}
	prompts := slices.Clone(messages)
	return a.start(ctx, func() (Run, error) { return Run{Prompts: prompts}, nil })
}

// Continue starts a run from the current transcript without a new message,
// for retries. When the transcript ends in an assistant message it takes a
// batch of queued steering (and skips the run's first steering poll), else a
// batch of follow-ups, as the run's prompt; with both queues empty it fails
// with [ErrContinueFromAssistant]. An empty transcript, or one of only
// system messages, fails with [ErrNoMessages]. It returns like Prompt.
func (a *Agent) Continue(ctx context.Context) error {
	return a.start(ctx, func() (Run, error) {
		if err := a.checkContinue(); err != nil {
			if err != ErrContinueFromAssistant {
				return Run{}, err
			}
			if steer := a.steering.drain(); len(steer) > 0 {
				return Run{Prompts: steer, From: SteeringQueue}, nil
			}
			if follow := a.followUp.drain(); len(follow) > 0 {
				return Run{Prompts: follow, From: FollowUpQueue}, nil
			}
			return Run{}, err
		}
		return Run{Continue: true}, nil
	})
}

// checkContinue reports, holding mu, why the transcript cannot be
// continued without a prompt, or nil.
func (a *Agent) checkContinue() error {
	if !slices.ContainsFunc(a.messages, func(m Message) bool { return !isSystem(m) }) {
		return ErrNoMessages
	}
	if _, ok := a.messages[len(a.messages)-1].(*AssistantMessage); ok {
		return ErrContinueFromAssistant
	}
	return nil
}

// start begins a run if none is active, and runs it through the layers'
// run wrappers. choose runs under the lock, so that a refused call takes
// nothing from the queues.
func (a *Agent) start(ctx context.Context, choose func() (Run, error)) (err error) {
	if ctx == nil {
		return ErrNilContext
	}
	if _, err := resolveStreamFn(a.streamFn); err != nil {
		return err
	}
	a.mu.Lock()
	if a.run != nil || a.delivering {
		a.mu.Unlock()
		return ErrBusy
	}
	if err := a.checkTools(); err != nil {
		a.mu.Unlock()
		return err
	}
	run, err := choose()
	if err != nil {
		a.mu.Unlock()
		return err
	}
	runCtx, cancel := context.WithCancel(ctx)
	r := &activeRun{ctx: runCtx, cancel: cancel, done: make(chan struct{})}
	a.run = r
	a.streaming, a.errorText = true, ""
	a.current = nil
	a.mu.Unlock()

	defer a.finishRun(r)
	if len(a.layers.runs) > 0 {
		// A run wrapper that panics, built or running, fails the call as
		// an invalid layer; the loop's own panics are handled inside it.
		defer func() {
			if v := recover(); v != nil {
				err = fmt.Errorf("%w: run wrapper: %w", ErrInvalidLayer, panicError(v))
			}
		}()
	}
	return a.layers.run(a.runOnce)(runCtx, run)
}

// checkTools reports, holding mu, a layer that failed to install, or
// tools that the layers' wrappers break or that are invalid.
func (a *Agent) checkTools() error {
	if a.layers.err != nil {
		return a.layers.err
	}
	tools, err := a.layers.wrapTools(a.tools)
	if err != nil {
		return err
	}
	return ValidateTools(tools)
}

// runOnce is the innermost [RunFunc]: it runs the loop once on the
// Agent's current state.
func (a *Agent) runOnce(ctx context.Context, run Run) error {
	if ctx == nil {
		return ErrNilContext
	}
	if err := checkMessages("prompt", run.Prompts); err != nil {
		return err
	}
	fn, err := resolveStreamFn(a.streamFn)
	if err != nil {
		return err
	}
	a.mu.Lock()
	tools, err := a.layers.wrapTools(a.tools)
	if err == nil {
		err = ValidateTools(tools)
	}
	if err == nil {
		fn, err = a.layers.streamFn(fn)
	}
	if err != nil {
		a.mu.Unlock()
		return err
	}
	if run.Continue {
		if err := a.checkContinue(); err != nil {
			a.mu.Unlock()
			return err
		}
	}
	a.errorText = ""
	a.current = nil
	actx := AgentContext{Messages: slices.Clone(a.messages), Tools: tools}
	cfg := a.loopConfig(fn, run.From == SteeringQueue)
	a.mu.Unlock()

	// cfg.StreamFn is fn, resolved above: newEngine cannot fail.
	e, _ := newEngine(ctx, actx, cfg, func(ev AgentEvent) error { return a.process(ctx, ev, false) })
	if run.Continue {
		_, err = e.runContinue()
	} else {
		_, err = e.runPrompts(slices.Clone(run.Prompts), run.From)
	}
	if err != nil {
		a.requeue(e.held, e.heldFrom)
		return a.failRun(ctx, err)
	}
	return e.failure()
}

// loopConfig maps the Agent's state and hooks onto a loop configuration;
// the queue hooks drain the Agent's queues.
func (a *Agent) loopConfig(fn StreamFn, skipFirstSteering bool) LoopConfig {
	skip := skipFirstSteering
	return LoopConfig{
		Hooks:         a.layers.hooks,
		Model:         a.model,
		ThinkingLevel: a.level,
		StreamFn:      fn,
		StreamOptions: a.streamOptions,
		ToolExecution: a.toolExecution,
		GetSteeringMessages: func(context.Context) []Message {
			if skip {
				skip = false
				return nil
			}
			a.mu.Lock()
			defer a.mu.Unlock()
			return a.steering.drain()
		},
		GetFollowUpMessages: func(context.Context) []Message {
			a.mu.Lock()
			defer a.mu.Unlock()
			return a.followUp.drain()
		},
	}
}

// process reduces the Agent's state for ev, then awaits the listeners,
// after delivering the events of the API's changes queued before ev.
// During a failure sequence (quiet), and for agent_end, a panicking
// listener is ignored.
func (a *Agent) process(ctx context.Context, ev AgentEvent, quiet bool) error {
	a.mu.Lock()
	a.reduce(ev)
	queued := a.outbox
	a.outbox = nil
	a.mu.Unlock()
	if queued != nil {
		a.broadcast(ctx, queued)
	}
	// Once agent_end is out the run is over: a listener failing then must
	// not start a failure sequence, and the others still get the event.
	if _, end := ev.(*AgentEndEvent); end {
		quiet = true
	}
	for _, l := range a.listenerList() {
		if l.removed.Load() {
			continue
		}
		if err := callListener(ctx, l.fn, ev); err != nil && !quiet {
			return err
		}
	}
	return nil
}

// reduce applies ev to the state, holding mu.
func (a *Agent) reduce(ev AgentEvent) {
	switch ev := ev.(type) {
	case *MessageStartEvent:
		a.current = ev.Message
	case *MessageUpdateEvent:
		a.current = ev.Message
	case *MessageEndEvent:
		a.current = nil
		a.messages = append(a.messages, ev.Message)
	case *ToolExecutionStartEvent:
		if !slices.Contains(a.pending, ev.ToolCallID) {
			a.pending = append(a.pending, ev.ToolCallID)
		}
	case *ToolExecutionEndEvent:
		if i := slices.Index(a.pending, ev.ToolCallID); i >= 0 {
			a.pending = slices.Delete(a.pending, i, i+1)
		}
	case *TurnEndEvent:
		if ev.Message != nil && ev.Message.ErrorMessage != "" {
			a.errorText = ev.Message.ErrorMessage
		}
	case *AgentEndEvent:
		a.current = nil
	}
}

// callListener calls fn, turning a panic into an error.
func callListener(ctx context.Context, fn Listener, ev AgentEvent) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicError(r)
		}
	}()
	fn(ctx, ev)
	return nil
}

// failRun emits the minimal failure sequence for a run that ended with an
// error: an empty assistant message, then turn_end and agent_end. It
// returns the run's error.
func (a *Agent) failRun(ctx context.Context, err error) *RunError {
	a.mu.Lock()
	model := a.model
	a.mu.Unlock()
	reason := StopError
	if ctx.Err() != nil {
		reason = StopAborted
	}
	msg := &AssistantMessage{
		Content: []ContentBlock{TextBlock{Text: ""}}, API: model.API, Provider: model.Provider, Model: model.ID,
		StopReason: reason, ErrorMessage: err.Error(), Timestamp: nowMillis(),
	}
	for _, ev := range []AgentEvent{
		&MessageStartEvent{Message: msg}, &MessageEndEvent{Message: msg},
		&TurnEndEvent{Message: msg, ToolResults: []*ToolResultMessage{}}, &AgentEndEvent{Messages: []Message{msg}},
	} {
		_ = a.process(ctx, ev, true)
	}
	return newRunError(ctx, msg, err)
}

// finishRun delivers the events of the API's changes still queued, then
// clears the run state and releases waiters.
func (a *Agent) finishRun(r *activeRun) {
	a.mu.Lock()
	a.drainOutbox(r.ctx)
	a.streaming, a.pending = false, nil
	a.current = nil
	a.run = nil
	a.mu.Unlock()
	r.cancel()
	close(r.done)
}

// Abort cancels the active run, if any. It is cooperative: the stream
// function, tools and hooks see their ctx cancelled and wind down, and the
// run ends with an aborted message. The queues are kept.
func (a *Agent) Abort() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.run != nil {
		a.run.cancel()
	}
}

// WaitForIdle blocks until no run is active (its agent_end listeners
// included) and no transcript change is being delivered to the listeners
// outside a run, or ctx is done, whose error it then returns. After it
// returns nil, [Agent.Prompt] answers [ErrBusy] only if another goroutine
// started a run or changed the transcript in the meantime.
func (a *Agent) WaitForIdle(ctx context.Context) error {
	if ctx == nil {
		return ErrNilContext
	}
	for {
		a.mu.Lock()
		var busy <-chan struct{}
		switch {
		case a.run != nil:
			busy = a.run.done
		case a.delivering:
			busy = a.delivered
		}
		a.mu.Unlock()
		if busy == nil {
			return nil
		}
		select {
		case <-busy:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Reset clears the transcript down to its replayed system message (the
// prompt and tools baseline), the error, and both queues, and emits a
// [TranscriptSetEvent]. It fails with [ErrBusy] during a run.
func (a *Agent) Reset() error {
	a.mu.Lock()
	if a.run != nil {
		a.mu.Unlock()
		return ErrBusy
	}
	base := CurrentSystemMessage(a.messages)
	a.messages = nil
	if base != nil {
		a.messages = []Message{base}
	}
	a.streaming, a.pending, a.errorText = false, nil, ""
	a.current = nil
	a.steering.clear()
	a.followUp.clear()
	a.post(&TranscriptSetEvent{Messages: view(a.messages)})
	a.settle()
	return nil
}
