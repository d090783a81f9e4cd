package agentcore

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/pi-go/agentcore/internal/limit"
)

// Layer adds behavior to an [Agent] (or to a [RunLoop] run): hooks that
// compose with the program's, a wrapped stream function, wrapped tools,
// listeners, and work around whole runs. Compaction, tracing, session
// recording and a program's own policies are layers; every surface that
// serves an Agent serves it with its layers. See the package
// documentation's Layers section.
type Layer interface {
	// Install adds the layer's behavior through s. It is called once per
	// Agent, by [New], in the order of [Options].Layers (once per run
	// under [RunLoop]), on the caller's goroutine; s is valid only during
	// the call.
	Install(s *Setup)
}

// LayerFunc adapts a function to [Layer], as http.HandlerFunc adapts one
// to http.Handler.
type LayerFunc func(s *Setup)

// Install calls f(s).
func (f LayerFunc) Install(s *Setup) { f(s) }

// Run is a run as the run wrappers of the layers see it ([Setup.WrapRun]):
// one call of [Agent.Prompt], [Agent.PromptMessages] or [Agent.Continue].
type Run struct {
	// Prompts are the messages the run adds before its first request: the
	// caller's prompt, or the queued messages Continue took. The slice is
	// the wrapper's to read; a wrapper that changes the prompts passes a
	// new slice on.
	Prompts []Message
	// From is the queue Prompts were taken from by Continue; zero for the
	// caller's own prompts. A run whose prompts come from the steering
	// queue skips its first steering poll.
	From Queue
	// Continue marks a run that adds no prompt and goes on from the
	// transcript, whose last message must not be an assistant message
	// (else the run fails with [ErrContinueFromAssistant]; a transcript of
	// only system messages with [ErrNoMessages]).
	Continue bool
}

// RunFunc executes a run on an Agent. The innermost one runs the loop once
// and returns as [Agent.Prompt] does: nil, a [*RunError], or an error that
// kept the run from starting.
type RunFunc func(ctx context.Context, run Run) error

// Setup is what a [Layer] installs through. Its methods record the layer's
// parts; the Agent composes them once every layer has installed. The order
// of the layers is the order of composition: the first layer is the
// outermost, so its stream function wrapper sees a request first, its
// listener is called first, its run wrapper starts first and ends last.
//
// How hooks compose is said with [Setup.AddHooks]. Which parts apply
// where:
//
//   - an [Agent] applies every part;
//   - [RunLoop] applies hooks, stream function and tool wrappers and
//     listeners (called before the event is sent on the run's channel);
//     [Setup.Agent] is nil and run wrappers do not apply;
//   - a surface that runs the loop elsewhere (a durable workflow) says in
//     its documentation which parts it applies.
type Setup struct {
	agent     *Agent
	hooks     []Hooks
	streamFns []func(StreamFn) StreamFn
	tools     []func(Tool) Tool
	listeners []Listener
	runs      []func(RunFunc) RunFunc
}

// Agent returns the Agent the layer is installed on, for hooks, listeners
// and run wrappers that read or change its state (State, SetMessages,
// ...). It is nil under [RunLoop] and on surfaces that have no Agent. The
// Agent must not be used during Install: it is not built yet.
func (s *Setup) Agent() *Agent { return s.agent }

// AddHooks adds the layer's hooks. Layers never replace each other's hooks
// or the program's ([Options].Hooks): every hook runs, the layers' in
// layer order before the program's, composed per hook as follows.
//
//   - ConvertToLLM and TransformContext are a pipeline: each gets the
//     previous one's output; the program's hook (or, for ConvertToLLM,
//     [DefaultConvertToLLM]) comes last.
//   - GetAPIKey: the first non-empty answer wins.
//   - PrepareRequest and PrepareNextTurn: each sees the context, model and
//     level as the previous one updated them; the updates merge (a later
//     field wins; PrepareNextTurn's Messages are appended in order).
//   - BeforeToolCall: in order until one blocks the call.
//   - AfterToolCall: each sees the result as the previous one overrode it;
//     the overrides merge field by field.
//   - FinishTurn: every hook runs; [TurnEnd] if any answers it, else
//     [TurnContinue] if any does, else [TurnDefault].
//
// An error from any of them is the composed hook's error: the hooks after
// it do not run.
func (s *Setup) AddHooks(h Hooks) { s.hooks = append(s.hooks, h) }

// WrapStreamFn wraps the stream function of every request: w gets the next
// function (the later layers' wrappers, then the program's stream function
// or the default) and returns the one to call. It is applied when a run
// starts; a nil w, or a nil answer, leaves the function unwrapped.
func (s *Setup) WrapStreamFn(w func(next StreamFn) StreamFn) {
	if w != nil {
		s.streamFns = append(s.streamFns, w)
	}
}

// WrapTool wraps every tool of every run, those given later to
// [Agent.SetTools] included: w gets a tool (as the later layers wrapped
// it) and returns the one to run. The wrapper must keep the tool's name,
// description and parameters (they are its declaration to the model);
// it usually wraps Execute. A nil w is ignored; a nil Execute in its
// answer, for a tool that had one, fails the run's start with an error
// wrapping [ErrInvalidTool].
func (s *Setup) WrapTool(w func(t Tool) Tool) {
	if w != nil {
		s.tools = append(s.tools, w)
	}
}

// Subscribe adds a listener for the events of every run, called before
// the listeners of later layers and before those the program adds with
// [Agent.Subscribe], under the same contract ([Listener]). A nil l is
// ignored.
func (s *Setup) Subscribe(l Listener) {
	if l != nil {
		s.listeners = append(s.listeners, l)
	}
}

// WrapRun wraps each run of an Agent: w gets the next [RunFunc] (the later
// layers' wrappers, then the loop) and returns one that runs in its place,
// for work before and after a run (compaction before a prompt) or around
// several (a retry: calling next again with [Run].Continue set continues
// the transcript). The wrapper runs on the goroutine of Prompt or
// Continue, with the run's ctx, while the Agent is busy: Prompt, Continue
// and Reset answer [ErrBusy], and Abort cancels ctx. Its error is what
// Prompt or Continue returns. A nil w, or a nil answer, adds nothing;
// under [RunLoop] run wrappers do not apply.
func (s *Setup) WrapRun(w func(next RunFunc) RunFunc) {
	if w != nil {
		s.runs = append(s.runs, w)
	}
}

// ErrInvalidLayer is wrapped by the error of a layer that panicked: in
// Install (reported by the Agent's Prompt and Continue, by RunLoop, and
// by [Stack.Err]), in a stream function or tool wrapper (reported by the
// run that applied it) or in a run wrapper, while it is built or while it
// runs (reported by Prompt or Continue).
var ErrInvalidLayer = errors.New("agentcore: invalid layer")

// stack is the composition of an Agent's or a run's layers.
type stack struct {
	hooks     Hooks
	streamFns []func(StreamFn) StreamFn
	tools     []func(Tool) Tool
	listeners []Listener
	runs      []func(RunFunc) RunFunc
	// err reports the layers whose Install panicked; they are left out.
	err error
}

// install installs layers on agent (nil under RunLoop) over the program's
// hooks and returns their composition. A nil layer (a nil pointer too) is
// skipped; one whose Install panics is left out, whatever it installed,
// and reported in the stack's err.
func install(agent *Agent, layers []Layer, program Hooks) stack {
	if len(layers) == 0 {
		return stack{hooks: program}
	}
	s := &Setup{agent: agent}
	var errs []error
	for i, l := range layers {
		if isNil(l) {
			continue
		}
		one := &Setup{agent: agent}
		if err := guard(func() error { l.Install(one); return nil }); err != nil {
			errs = append(errs, fmt.Errorf("%w: Layers[%d] (%T): Install: %v", ErrInvalidLayer, i, l, err))
			continue
		}
		s.hooks = append(s.hooks, one.hooks...)
		s.streamFns = append(s.streamFns, one.streamFns...)
		s.tools = append(s.tools, one.tools...)
		s.listeners = append(s.listeners, one.listeners...)
		s.runs = append(s.runs, one.runs...)
	}
	return stack{
		hooks:     chainHooks(append(s.hooks, program)),
		streamFns: slices.Clip(s.streamFns),
		tools:     slices.Clip(s.tools),
		listeners: slices.Clip(s.listeners),
		runs:      slices.Clip(s.runs),
		err:       errors.Join(errs...),
	}
}

// isNil reports whether l is nil, or a nil pointer, map, func or slice
// in an interface.
func isNil(l Layer) bool {
	if l == nil {
		return true
	}
	switch v := reflect.ValueOf(l); v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Func, reflect.Slice, reflect.Interface:
		return v.IsNil()
	}
	return false
}

// streamFn returns fn wrapped by the layers, the first outermost; a
// wrapper that panics is an error wrapping [ErrInvalidLayer].
func (st *stack) streamFn(fn StreamFn) (StreamFn, error) {
	err := guard(func() error {
		for _, w := range slices.Backward(st.streamFns) {
			if next := w(fn); next != nil {
				fn = next
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%w: stream function wrapper: %v", ErrInvalidLayer, err)
	}
	return fn, nil
}

// wrapTools returns tools wrapped by the layers, the first outermost;
// without tool wrappers it returns tools itself. A wrapper that panics is
// an error wrapping [ErrInvalidLayer].
func (st *stack) wrapTools(tools []Tool) ([]Tool, error) {
	if len(st.tools) == 0 {
		return tools, nil
	}
	out := make([]Tool, len(tools))
	var dropped error
	err := guard(func() error {
		for i, t := range tools {
			for _, w := range slices.Backward(st.tools) {
				had := t.Execute != nil
				t = w(t)
				if had && t.Execute == nil && dropped == nil {
					dropped = fmt.Errorf("%w %s: a tool wrapper returned it without Execute", ErrInvalidTool, limit.Quote(t.Name))
				}
			}
			out[i] = t
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%w: tool wrapper: %v", ErrInvalidLayer, err)
	}
	if dropped != nil {
		return nil, dropped
	}
	return out, nil
}

// run returns inner wrapped by the layers' run wrappers, the first
// outermost.
func (st *stack) run(inner RunFunc) RunFunc {
	for _, w := range slices.Backward(st.runs) {
		if next := w(inner); next != nil {
			inner = next
		}
	}
	return inner
}

// Stack is layers composed for a surface that runs the loop its own way
// and applies each part where that part runs: the hooks where the loop
// runs, the stream function wrappers where requests are made, the tool
// wrappers where tools execute (the durable session applies them in a
// workflow and in its activities). The layers are installed once, with no
// Agent ([Setup.Agent] is nil). Listeners and run wrappers are the
// surface's to apply or leave, as its documentation says. An Agent and
// RunLoop compose their layers themselves. A Stack is immutable and safe
// for concurrent use.
type Stack struct {
	st stack
}

// NewStack installs layers over the program's hooks and returns their
// composition. A nil layer is skipped; one whose Install panics is left
// out and reported by [Stack.Err].
func NewStack(layers []Layer, hooks Hooks) *Stack {
	return &Stack{st: install(nil, layers, hooks)}
}

// Hooks returns the layers' hooks composed with the program's, by the
// rules of [Setup.AddHooks].
func (s *Stack) Hooks() Hooks { return s.st.hooks }

// Err reports the layers whose Install panicked (wrapping
// [ErrInvalidLayer]); they are left out of the Stack. Nil means none did.
func (s *Stack) Err() error { return s.st.err }

// StreamFn returns fn wrapped by the layers, the first outermost; a nil
// fn is returned as is. When a wrapper panics, the error wraps
// [ErrInvalidLayer] and fn is not returned.
func (s *Stack) StreamFn(fn StreamFn) (StreamFn, error) {
	if fn == nil {
		return nil, nil
	}
	return s.st.streamFn(fn)
}

// Tools returns a copy of tools wrapped by the layers, the first
// outermost. When a wrapper panics, the error wraps [ErrInvalidLayer].
func (s *Stack) Tools(tools []Tool) ([]Tool, error) {
	out, err := s.st.wrapTools(tools)
	return slices.Clone(out), err
}

// Listeners returns the layers' listeners, in layer order.
func (s *Stack) Listeners() []Listener { return slices.Clone(s.st.listeners) }

// WrapsRuns reports whether a layer added a run wrapper, which only an
// Agent applies.
func (s *Stack) WrapsRuns() bool { return len(s.st.runs) > 0 }
