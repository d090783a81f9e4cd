package compaction

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/pi-go/agentcore"
)

// Options configure the compaction of an [Agent]. The zero value compacts
// automatically with the defaults of [Settings.ForWindow], summarizing
// with the agent's own model and stream function.
type Options struct {
	// Settings are the token budgets; zero fields scale with the model's
	// window.
	Settings
	// ContextWindow, when above 0, is the window compaction works with in
	// place of the model's ContextWindow. A model whose ContextWindow is 0
	// (unknown: any local model from providers.LookupModel) with no
	// ContextWindow here never compacts by itself; only Compact does.
	ContextWindow int
	// Manual turns automatic compaction and overflow recovery off (pi's
	// "enabled": false): only [Agent.Compact] compacts.
	Manual bool
	// Model, when not nil, writes the summaries; nil means the agent's
	// model at the time. The agent's model's window decides when to
	// compact either way.
	Model *agentcore.Model
	// StreamFn calls the summary model; nil means the agent's
	// (agentcore.Options.StreamFn). The agent's stream options are passed
	// (see [SummaryRequest.StreamOptions]), the key from its GetAPIKey
	// hook when it has one.
	StreamFn agentcore.StreamFn
	// Files says which tool calls touch which files, for the file lists
	// carried from summary to summary; nil means [DefaultFiles].
	Files FilesFunc
	// OnEvent, when not nil, is called before and after each compaction
	// (see [Event]), on the goroutine that compacts: the caller's for a
	// compaction before or after a run, or by [Agent.Compact], the run's
	// for one between turns. ctx is that call's or run's. It is awaited;
	// the events are the listener's to keep. It must not call the
	// Agent's Prompt, Continue or Compact, which would answer
	// [agentcore.ErrBusy].
	OnEvent Listener
}

// Agent is an [agentcore.Agent] that compacts its transcript the way pi's
// coding agent does: before a prompt when the context is above the
// threshold, between the turns of a run (in PrepareNextTurn, after the
// tool results are appended), and after a run, where a context overflow
// or an early length stop is recovered by one compact-and-retry. Its
// methods are the embedded Agent's, with Prompt, PromptMessages and
// Continue doing that around the run and Compact added; call those of
// this type, not the embedded ones, which do not compact.
//
// An automatic compaction whose transcript is above the threshold although
// its recent part is within KeepRecentTokens (on a small window, the
// summary and the fixed prompt can take most of it) keeps only the last
// message, with its tool results; a manual one fails with
// [ErrNothingToCompact] there, as pi's does.
//
// The transcript after a compaction is the head (the replayed system
// message), the [Summary], and the kept messages, which later runs extend;
// the messages summarized leave it (the layer that stores the session
// keeps them: the listener of every message_end has seen them).
type Agent struct {
	*agentcore.Agent

	opts     Options
	hooks    agentcore.Hooks
	streamFn agentcore.StreamFn

	// op is held by Prompt, PromptMessages, Continue and Compact.
	op sync.Mutex

	mu sync.Mutex
	// warnedFixed is the fixed part last reported by a FixedPartEvent.
	warnedFixed int
}

// NewAgent returns an Agent configured by agentOpts, whose ConvertToLLM
// and PrepareNextTurn hooks are wrapped: ConvertToLLM maps summaries to
// user messages ([ConvertMessages]) before the caller's hook (or the
// default) sees them, and PrepareNextTurn compacts first, then calls the
// caller's hook with the compacted context.
func NewAgent(agentOpts agentcore.Options, opts Options) *Agent {
	a := &Agent{opts: opts, hooks: agentOpts.Hooks, streamFn: agentOpts.StreamFn}
	agentOpts.ConvertToLLM = a.convertToLLM
	agentOpts.PrepareNextTurn = a.prepareNextTurn
	a.Agent = agentcore.New(agentOpts)
	return a
}

// Prompt is [agentcore.Agent.Prompt] with compaction before and after the
// run (see [Agent]).
func (a *Agent) Prompt(ctx context.Context, text string, images ...agentcore.ImageBlock) error {
	prompt := []agentcore.Message{agentcore.UserText(text)}
	return a.run(ctx, prompt, func(ctx context.Context) error { return a.Agent.Prompt(ctx, text, images...) })
}

// PromptMessages is [agentcore.Agent.PromptMessages] with compaction
// before and after the run.
func (a *Agent) PromptMessages(ctx context.Context, messages ...agentcore.Message) error {
	return a.run(ctx, withoutNil(messages), func(ctx context.Context) error { return a.Agent.PromptMessages(ctx, messages...) })
}

// Continue is [agentcore.Agent.Continue] with compaction before and after
// the run.
func (a *Agent) Continue(ctx context.Context) error {
	return a.run(ctx, nil, a.Agent.Continue)
}

// Compact compacts the transcript now, summarizing with instructions
// (optional: what the summary should focus on), and returns the outcome.
// It fails with [agentcore.ErrBusy] while a run is active, with
// [ErrNothingToCompact] when there is nothing to summarize, and with the
// summary's error otherwise; on failure the transcript is unchanged.
func (a *Agent) Compact(ctx context.Context, instructions string) (*Result, error) {
	if ctx == nil {
		return nil, agentcore.ErrNilContext
	}
	if !a.op.TryLock() {
		return nil, agentcore.ErrBusy
	}
	defer a.op.Unlock()
	if a.IsStreaming() {
		return nil, agentcore.ErrBusy
	}
	st := a.State()
	out, res, err := a.compact(ctx, ReasonManual, st.Messages, st.Model, instructions, false)
	if err != nil {
		return nil, err
	}
	a.SetMessages(out)
	return res, nil
}

// run starts a run with start after the pre-prompt check, then recovers
// an overflow or compacts above the threshold. prompts are the messages
// the run will add first, counted by the check.
func (a *Agent) run(ctx context.Context, prompts []agentcore.Message, start func(context.Context) error) error {
	if ctx == nil {
		return agentcore.ErrNilContext
	}
	if !a.op.TryLock() {
		return agentcore.ErrBusy
	}
	defer a.op.Unlock()
	if a.IsStreaming() {
		return agentcore.ErrBusy
	}
	if !a.opts.Manual {
		st := a.State()
		a.compactAbove(ctx, st.Messages, prompts, st.Model)
	}
	retried := false
	for {
		last, err := a.runCapturing(ctx, start)
		if a.opts.Manual || last == nil || ctx.Err() != nil || last.StopReason == agentcore.StopAborted {
			return err // an abort is the user's: nothing to compact or retry
		}
		st := a.State()
		model := a.window(st.Model)
		if !isContextOverflow(last, model.ContextWindow) && !a.clampedLength(ctx, st.Messages, last, model) {
			a.compactAbove(ctx, st.Messages, nil, st.Model)
			return err
		}
		if last.StopReason == agentcore.StopStop {
			// A complete answer above the window: compact, nothing to retry.
			if out, _, cerr := a.compact(ctx, ReasonOverflow, st.Messages, st.Model, "", false); cerr == nil {
				a.SetMessages(out)
			}
			return err
		}
		if retried {
			return errors.Join(ErrRecoveryFailed, err)
		}
		retried = true
		out, _, cerr := a.compact(ctx, ReasonOverflow, withoutAttempt(st.Messages, last), st.Model, "", true)
		if cerr != nil {
			return errors.Join(fmt.Errorf("%w: %w", ErrRecoveryFailed, cerr), err)
		}
		a.SetMessages(out)
		start = a.Agent.Continue
	}
}

// clampedLength reports whether last, the answer ending messages, stopped
// at its length limit because the provider fit its max tokens into a
// full window: pi-ai's isRecoverableLength (the output is below the max
// tokens asked for: the stream options', else the model's), and the
// request was clamped below that by the providers' rule. A length stop at
// a limit the caller set, or with a window that left room, is an
// ordinary answer.
func (a *Agent) clampedLength(ctx context.Context, messages []agentcore.Message, last *agentcore.AssistantMessage, model agentcore.Model) bool {
	desired := a.StreamOptions().MaxTokens
	if desired <= 0 {
		desired = model.MaxTokens
	}
	if !isRecoverableLength(last, desired) {
		return false
	}
	request := withoutAttempt(messages, last)
	return clampMaxTokens(model, a.llmView(ctx, request), desired) < desired
}

// runCapturing runs start and returns the last assistant message the run
// ended, or nil.
func (a *Agent) runCapturing(ctx context.Context, start func(context.Context) error) (*agentcore.AssistantMessage, error) {
	var last *agentcore.AssistantMessage
	unsubscribe := a.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		if end, ok := ev.(*agentcore.MessageEndEvent); ok {
			if m, ok := end.Message.(*agentcore.AssistantMessage); ok {
				last = m
			}
		}
	})
	err := start(ctx)
	unsubscribe()
	return last, err
}

// withoutAttempt returns messages without the failed attempt, the last
// occurrence of failed, and what follows it (its calls' results).
func withoutAttempt(messages []agentcore.Message, failed *agentcore.AssistantMessage) []agentcore.Message {
	for i := len(messages) - 1; i >= 0; i-- {
		if m, ok := messages[i].(*agentcore.AssistantMessage); ok && m == failed {
			return slices.Clip(messages[:i])
		}
	}
	return messages
}

// compactAbove compacts the transcript messages when, with prompts
// added, it is above the threshold of model. A failure leaves it as it
// was; the events say why.
func (a *Agent) compactAbove(ctx context.Context, messages, prompts []agentcore.Message, model agentcore.Model) {
	if !a.above(ctx, append(slices.Clip(messages), prompts...), model) {
		return
	}
	if out, _, err := a.compact(ctx, ReasonThreshold, messages, model, "", false); err == nil {
		a.SetMessages(out)
	}
}

// above reports whether messages are above model's threshold and worth
// compacting: a fixed part above the threshold by itself is reported
// with a FixedPartEvent instead.
func (a *Agent) above(ctx context.Context, messages []agentcore.Message, model agentcore.Model) bool {
	model = a.window(model)
	llm := a.llmView(ctx, messages)
	if !ShouldCompact(EstimateContextTokens(llm), model.ContextWindow, a.opts.Settings) {
		return false
	}
	fixed := fixedTokens(llm)
	threshold := model.ContextWindow - a.opts.Settings.ForWindow(model.ContextWindow).ReserveTokens
	if fixed < threshold {
		return true
	}
	a.mu.Lock()
	warned := a.warnedFixed == fixed
	a.warnedFixed = fixed
	a.mu.Unlock()
	if !warned {
		a.emit(ctx, &FixedPartEvent{FixedTokens: fixed, Threshold: threshold})
	}
	return false
}

// window is model with the window of Options.ContextWindow, when set.
func (a *Agent) window(model agentcore.Model) agentcore.Model {
	if a.opts.ContextWindow > 0 {
		model.ContextWindow = a.opts.ContextWindow
	}
	return model
}

// prepareNextTurn is the Agent's PrepareNextTurn hook: it compacts the
// run's context when it is above the threshold, then calls the caller's
// hook.
func (a *Agent) prepareNextTurn(ctx context.Context, turn agentcore.TurnContext) (*agentcore.TurnUpdate, error) {
	var update *agentcore.TurnUpdate
	if !a.opts.Manual {
		model := a.State().Model
		if a.above(ctx, turn.Context.Messages, model) {
			if out, _, err := a.compact(ctx, ReasonThreshold, turn.Context.Messages, model, "", false); err == nil {
				a.SetMessages(out)
				turn.Context.Messages = slices.Clip(out)
				update = &agentcore.TurnUpdate{Context: &agentcore.AgentContext{Messages: turn.Context.Messages, Tools: turn.Context.Tools}}
			}
		}
	}
	if a.hooks.PrepareNextTurn == nil {
		return update, nil
	}
	theirs, err := a.hooks.PrepareNextTurn(ctx, turn)
	if err != nil || theirs == nil {
		return update, err
	}
	if theirs.Context == nil && update != nil {
		merged := *theirs
		merged.Context = update.Context
		return &merged, nil
	}
	return theirs, nil
}

// compact compacts messages for reason, announcing it to OnEvent, and
// returns the compacted transcript. A transcript with nothing to
// summarize fails with ErrNothingToCompact and no events.
func (a *Agent) compact(ctx context.Context, reason Reason, messages []agentcore.Message, model agentcore.Model, instructions string, willRetry bool) ([]agentcore.Message, *Result, error) {
	model = a.window(model)
	s := a.opts.Settings.ForWindow(model.ContextWindow)
	prep := PrepareOptions{KeepRecentTokens: s.KeepRecentTokens, Files: a.opts.Files, ConvertToLLM: a.convertToLLM}
	p, err := PrepareWith(ctx, messages, prep)
	if errors.Is(err, ErrNothingToCompact) && reason != ReasonManual {
		// Above the threshold with the whole recent part within the kept
		// budget (a summary and fixed prompt that take most of a small
		// window): keep only the last message and its tool results.
		prep.KeepRecentTokens = 0
		p, err = PrepareWith(ctx, messages, prep)
	}
	threshold := model.ContextWindow - s.ReserveTokens
	if errors.Is(err, ErrNothingToCompact) && reason != ReasonManual && model.ContextWindow > 0 {
		// Nothing to summarize (one call and its results since the last
		// summary): cut the large results instead.
		return a.fitOnly(ctx, reason, messages, threshold, willRetry)
	}
	if err != nil {
		return nil, nil, err
	}
	a.emit(ctx, &StartEvent{Reason: reason, TokensBefore: p.TokensBefore, WillRetry: willRetry})
	req := a.summaryRequest(ctx, model, s, instructions)
	summary, err := Summarize(ctx, p, req)
	if err != nil {
		a.emit(ctx, &EndEvent{Reason: reason, Err: err})
		return nil, nil, err
	}
	cut := 0
	if model.ContextWindow > 0 {
		room := threshold - EstimateContextTokens([]agentcore.Message{summary.UserMessage()})
		if p.Head != nil {
			room -= estimateMessage(p.Head)
		}
		cut = p.FitKept(max(room, 0))
	}
	out := p.Messages(summary)
	res := &Result{
		Summary: summary, TokensBefore: p.TokensBefore, TokensAfter: EstimateContextTokens(a.llmView(ctx, out)),
		Summarized: len(p.History) + len(p.TurnPrefix), Kept: len(p.Kept), Split: p.Split(), ToolResultsCut: cut,
	}
	a.emit(ctx, &EndEvent{Reason: reason, Result: res, WillRetry: willRetry})
	return out, res, nil
}

// fitOnly cuts the large tool results of messages so that they fit
// threshold, when no summary can help.
func (a *Agent) fitOnly(ctx context.Context, reason Reason, messages []agentcore.Message, threshold int, willRetry bool) ([]agentcore.Message, *Result, error) {
	llm := a.llmView(ctx, messages)
	before := EstimateContextTokens(llm)
	out, cut := fitResults(messages, threshold, tokenScale(llm))
	if cut == 0 {
		return nil, nil, ErrNothingToCompact
	}
	a.emit(ctx, &StartEvent{Reason: reason, TokensBefore: before, WillRetry: willRetry})
	res := &Result{TokensBefore: before, TokensAfter: EstimateContextTokens(a.llmView(ctx, out)), Kept: len(out), ToolResultsCut: cut}
	a.emit(ctx, &EndEvent{Reason: reason, Result: res, WillRetry: willRetry})
	return out, res, nil
}

// summaryRequest configures the summary calls of a compaction with the
// agent's model.
func (a *Agent) summaryRequest(ctx context.Context, model agentcore.Model, s Settings, instructions string) SummaryRequest {
	req := SummaryRequest{
		Model: model, StreamFn: a.opts.StreamFn, StreamOptions: a.StreamOptions(),
		Settings: s, Instructions: instructions, ConvertToLLM: a.convertToLLM,
	}
	if a.opts.Model != nil {
		req.Model = *a.opts.Model
		if req.Model.ContextWindow <= 0 {
			req.Model.ContextWindow = model.ContextWindow
		}
	}
	if req.StreamFn == nil {
		req.StreamFn = a.streamFn
	}
	if a.hooks.GetAPIKey != nil {
		if key, err := a.hooks.GetAPIKey(ctx, req.Model.Provider); err == nil && key != "" {
			req.StreamOptions.APIKey = key
		}
	}
	return req
}

// convertToLLM is the Agent's ConvertToLLM hook.
func (a *Agent) convertToLLM(ctx context.Context, messages []agentcore.Message) ([]agentcore.Message, error) {
	messages = ConvertMessages(messages)
	if a.hooks.ConvertToLLM != nil {
		return a.hooks.ConvertToLLM(ctx, messages)
	}
	return agentcore.DefaultConvertToLLM(ctx, messages)
}

// llmView is messages as the model would see them, for the estimate.
func (a *Agent) llmView(ctx context.Context, messages []agentcore.Message) []agentcore.Message {
	llm, err := a.convertToLLM(ctx, messages)
	if err != nil {
		return ConvertMessages(messages)
	}
	return llm
}

func (a *Agent) emit(ctx context.Context, ev Event) {
	if a.opts.OnEvent != nil {
		a.opts.OnEvent(ctx, ev)
	}
}

// withoutNil returns a copy of messages without nil ones.
func withoutNil(messages []agentcore.Message) []agentcore.Message {
	return slices.DeleteFunc(slices.Clone(messages), func(m agentcore.Message) bool { return m == nil })
}
