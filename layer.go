package agentcore

import (
	"context"
	"slices"
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
// answer fails the run's start as an invalid tool.
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

// stack is the composition of an Agent's or a run's layers.
type stack struct {
	hooks     Hooks
	streamFns []func(StreamFn) StreamFn
	tools     []func(Tool) Tool
	listeners []Listener
	runs      []func(RunFunc) RunFunc
}

// install installs layers on agent (nil under RunLoop) over the program's
// hooks and returns their composition. A nil layer is skipped.
func install(agent *Agent, layers []Layer, program Hooks) stack {
	if len(layers) == 0 {
		return stack{hooks: program}
	}
	s := &Setup{agent: agent}
	for _, l := range layers {
		if l != nil {
			l.Install(s)
		}
	}
	return stack{
		hooks:     chainHooks(append(s.hooks, program)),
		streamFns: slices.Clip(s.streamFns),
		tools:     slices.Clip(s.tools),
		listeners: slices.Clip(s.listeners),
		runs:      slices.Clip(s.runs),
	}
}

// streamFn returns fn wrapped by the layers, the first outermost.
func (st *stack) streamFn(fn StreamFn) StreamFn {
	for _, w := range slices.Backward(st.streamFns) {
		if next := w(fn); next != nil {
			fn = next
		}
	}
	return fn
}

// wrapTools returns tools wrapped by the layers, the first outermost;
// without tool wrappers it returns tools itself.
func (st *stack) wrapTools(tools []Tool) []Tool {
	if len(st.tools) == 0 {
		return tools
	}
	out := make([]Tool, len(tools))
	for i, t := range tools {
		for _, w := range slices.Backward(st.tools) {
			t = w(t)
		}
		out[i] = t
	}
	return out
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
