package compaction

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/pi-go/agentcore"
)

// Errors of [Compactor.Compact].
var (
	// ErrNotInstalled is returned by Compact when the Compactor is
	// installed on no Agent (only under RunLoop, or not at all).
	ErrNotInstalled = errors.New("compaction: Compact needs the Compactor installed on one Agent (agentcore.Options.Layers)")
	// ErrSharedCompactor is returned by Compact when the Compactor is
	// installed on more than one Agent: which transcript to compact is
	// ambiguous. Give each Agent its own Compactor.
	ErrSharedCompactor = errors.New("compaction: Compact on a Compactor installed on more than one Agent; give each Agent its own")
	// ErrTranscriptChanged is returned by Compact when the transcript was
	// edited (SetMessages) while the summary was written: the edit is
	// kept and the compaction dropped.
	ErrTranscriptChanged = errors.New("compaction: the transcript changed during the compaction; the edit was kept")
)

// Compactor is the compaction layer: installed on an Agent
// ([agentcore.Options].Layers), it keeps the transcript within the model's
// window the way pi's coding agent does.
//
//   - Its ConvertToLLM hook maps summaries to user messages
//     ([ConvertMessages]) before the later layers' and the program's hook.
//   - Its PrepareNextTurn hook compacts the run's working context between
//     turns, after the tool results are appended, when it is above the
//     threshold (also under RunLoop, which has no Agent; there the window
//     comes from the model of the run's requests).
//   - Its run wrapper (Agent only) compacts before a prompt when the
//     transcript with the prompt is above the threshold, compacts after a
//     run above it, and recovers a run that overflowed the window once,
//     by compacting and continuing.
//
// An automatic compaction whose transcript is above the threshold although
// its recent part is within KeepRecentTokens keeps only the last message,
// with its tool results; a manual one fails with [ErrNothingToCompact]
// there, as pi's does. When the kept part is still above the threshold
// (one call and its large results on a small window), its largest tool
// results are cut, with a notice the model reads ([Preparation.FitKept]).
//
// The transcript after a compaction is the head (the replayed system
// message), the [Summary], and the kept messages, which later runs extend;
// the messages summarized leave it (a listener of every message_end has
// seen them). A compaction never overwrites an edit: when the transcript
// was changed (SetMessages) while the summary was written, the edit is
// kept. Reset answers [agentcore.ErrBusy] during a compaction that runs
// inside a run, as during the run; [agentcore.Agent.Abort] cancels it.
type Compactor struct {
	opts Options

	// op is held by the run wrapper and by Compact.
	op sync.Mutex

	mu       sync.Mutex
	sessions []*session
}

// New returns a Compactor configured by opts (nil-safe: the zero Options
// compact automatically with the defaults).
func New(opts Options) *Compactor { return &Compactor{opts: opts} }

// Options returns the options c was made with, for a surface that
// compacts its own way (the durable session compacts between runs with
// their settings).
func (c *Compactor) Options() Options { return c.opts }

// Install installs the compaction on s (see [Compactor]). It is called by
// agentcore.New and RunLoop.
func (c *Compactor) Install(s *agentcore.Setup) {
	ss := &session{c: c, agent: s.Agent()}
	s.AddHooks(agentcore.Hooks{
		ConvertToLLM: func(_ context.Context, m []agentcore.Message) ([]agentcore.Message, error) {
			return ConvertMessages(m), nil
		},
		PrepareNextTurn: ss.prepareNextTurn,
	})
	s.WrapStreamFn(ss.wrapStreamFn)
	if ss.agent == nil {
		return
	}
	c.mu.Lock()
	c.sessions = append(c.sessions, ss)
	c.mu.Unlock()
	s.Subscribe(ss.listen)
	s.WrapRun(ss.wrapRun)
}

// Compact compacts the transcript of the Agent the Compactor is installed
// on now, summarizing with instructions (optional: what the summary
// should focus on), and returns the outcome. It fails with
// [agentcore.ErrBusy] while a run is active, with [ErrNothingToCompact]
// when there is nothing to summarize, with [ErrNotInstalled] or
// [ErrSharedCompactor] when it is not installed on exactly one Agent, with
// [ErrTranscriptChanged] when the transcript was edited meanwhile, and
// with the summary's error otherwise; on failure the transcript is
// unchanged. ctx is the caller's: [agentcore.Agent.Abort] does not end it.
func (c *Compactor) Compact(ctx context.Context, instructions string) (*Result, error) {
	if ctx == nil {
		return nil, agentcore.ErrNilContext
	}
	c.mu.Lock()
	sessions := c.sessions
	c.mu.Unlock()
	switch len(sessions) {
	case 0:
		return nil, ErrNotInstalled
	case 1:
	default:
		return nil, ErrSharedCompactor
	}
	ss := sessions[0]
	if !c.op.TryLock() {
		return nil, agentcore.ErrBusy
	}
	defer c.op.Unlock()
	if ss.agent.IsStreaming() {
		return nil, agentcore.ErrBusy
	}
	st := ss.agent.State()
	out, res, err := ss.compact(ctx, ReasonManual, st.Messages, st.Model, instructions, false)
	if err != nil {
		return nil, err
	}
	if !ss.replace(st.Messages, out) {
		return nil, ErrTranscriptChanged
	}
	return res, nil
}

// session is a Compactor's install on one Agent (or one RunLoop run).
type session struct {
	c     *Compactor
	agent *agentcore.Agent // nil under RunLoop

	mu sync.Mutex
	// next is the stream function of the runs, below this layer.
	next agentcore.StreamFn
	// model and opts are those of the last request of a run.
	model    *agentcore.Model
	opts     *agentcore.StreamOptions
	last     *agentcore.AssistantMessage // the last assistant message_end
	fixedWas int                         // the fixed part last warned of
}

// wrapStreamFn learns the runs' stream function and, from each request,
// the model and stream options.
func (ss *session) wrapStreamFn(next agentcore.StreamFn) agentcore.StreamFn {
	ss.mu.Lock()
	ss.next = next
	ss.mu.Unlock()
	return func(ctx context.Context, model agentcore.Model, req agentcore.Request, opts agentcore.StreamOptions) agentcore.AssistantStream {
		ss.mu.Lock()
		ss.model, ss.opts = &model, &opts
		ss.mu.Unlock()
		return next(ctx, model, req, opts)
	}
}

// listen records the last assistant message of the Agent's runs.
func (ss *session) listen(_ context.Context, ev agentcore.AgentEvent) {
	if end, ok := ev.(*agentcore.MessageEndEvent); ok {
		if m, ok := end.Message.(*agentcore.AssistantMessage); ok {
			ss.mu.Lock()
			ss.last = m
			ss.mu.Unlock()
		}
	}
}

// currentModel is the Agent's model, or under RunLoop the model of the
// run's last request; false when none is known.
func (ss *session) currentModel() (agentcore.Model, bool) {
	if ss.agent != nil {
		return ss.agent.State().Model, true
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.model == nil {
		return agentcore.Model{}, false
	}
	return *ss.model, true
}

// wrapRun is the run wrapper: the check before a prompt, then the run,
// then the recovery of an overflow or the check after it.
func (ss *session) wrapRun(next agentcore.RunFunc) agentcore.RunFunc {
	return func(ctx context.Context, run agentcore.Run) error {
		c := ss.c
		if !c.op.TryLock() {
			return agentcore.ErrBusy
		}
		defer c.op.Unlock()
		if !c.opts.Manual {
			st := ss.agent.State()
			ss.compactAbove(ctx, st.Messages, run.Prompts, st.Model)
		}
		// An Abort during that compaction cancelled ctx: the run below
		// ends at once as an aborted run.
		return ss.runRecovering(ctx, run, next)
	}
}

// runRecovering runs run, then recovers an overflow or compacts above the
// threshold.
func (ss *session) runRecovering(ctx context.Context, run agentcore.Run, next agentcore.RunFunc) error {
	retried := false
	for {
		ss.mu.Lock()
		ss.last = nil
		ss.mu.Unlock()
		err := next(ctx, run)
		ss.mu.Lock()
		last := ss.last
		ss.mu.Unlock()
		if ss.c.opts.Manual || last == nil || ctx.Err() != nil || last.StopReason == agentcore.StopAborted {
			return err // an abort is the user's: nothing to compact or retry
		}
		st := ss.agent.State()
		model := ss.window(st.Model)
		if !isContextOverflow(last, model.ContextWindow) && !ss.clampedLength(ctx, st.Messages, last, model) {
			ss.compactAbove(ctx, st.Messages, nil, st.Model)
			return err
		}
		if last.StopReason == agentcore.StopStop {
			// A complete answer above the window: compact, nothing to retry.
			if out, _, cerr := ss.compact(ctx, ReasonOverflow, st.Messages, st.Model, "", false); cerr == nil {
				ss.replace(st.Messages, out)
			}
			return err
		}
		if retried {
			return errors.Join(ErrRecoveryFailed, err)
		}
		retried = true
		out, _, cerr := ss.compact(ctx, ReasonOverflow, withoutAttempt(st.Messages, last), st.Model, "", true)
		if cerr != nil {
			return errors.Join(fmt.Errorf("%w: %w", ErrRecoveryFailed, cerr), err)
		}
		if !ss.replace(st.Messages, out) {
			return err // the transcript was edited meanwhile: the edit wins
		}
		run = agentcore.Run{Continue: true}
	}
}

// replace sets the Agent's transcript to out if it is still was, and
// reports whether it did: an edit made meanwhile wins.
func (ss *session) replace(was, out []agentcore.Message) bool {
	if !slices.Equal(ss.agent.Messages(), was) {
		return false
	}
	ss.agent.SetMessages(out)
	return true
}

// clampedLength reports whether last, the answer ending messages, stopped
// at its length limit because the provider fit its max tokens into a
// full window: pi-ai's isRecoverableLength (the output is below the max
// tokens asked for: the stream options', else the model's), and the
// request was clamped below that by the providers' rule. A length stop at
// a limit the caller set, or with a window that left room, is an
// ordinary answer.
func (ss *session) clampedLength(ctx context.Context, messages []agentcore.Message, last *agentcore.AssistantMessage, model agentcore.Model) bool {
	desired := ss.agent.StreamOptions().MaxTokens
	if desired <= 0 {
		desired = model.MaxTokens
	}
	if !isRecoverableLength(last, desired) {
		return false
	}
	return clampMaxTokens(model, ss.llmView(ctx, withoutAttempt(messages, last)), desired) < desired
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

// compactAbove compacts the Agent's transcript messages when, with
// prompts added, it is above the threshold of model. A failure leaves it
// as it was; the events say why.
func (ss *session) compactAbove(ctx context.Context, messages, prompts []agentcore.Message, model agentcore.Model) {
	if !ss.above(ctx, append(slices.Clip(messages), prompts...), model) {
		return
	}
	if out, _, err := ss.compact(ctx, ReasonThreshold, messages, model, "", false); err == nil {
		ss.replace(messages, out)
	}
}

// prepareNextTurn is the layer's PrepareNextTurn hook: it compacts the
// run's context when it is above the threshold.
func (ss *session) prepareNextTurn(ctx context.Context, turn agentcore.TurnContext) (*agentcore.TurnUpdate, error) {
	model, ok := ss.currentModel()
	if ss.c.opts.Manual || !ok || !ss.above(ctx, turn.Context.Messages, model) {
		return nil, nil
	}
	var was []agentcore.Message
	if ss.agent != nil {
		was = ss.agent.Messages()
	}
	out, _, err := ss.compact(ctx, ReasonThreshold, turn.Context.Messages, model, "", false)
	if err != nil {
		return nil, nil // the events say why; the run goes on
	}
	if ss.agent != nil && !ss.replace(was, out) {
		return nil, nil // the transcript was edited meanwhile: the edit wins
	}
	return &agentcore.TurnUpdate{Context: &agentcore.AgentContext{Messages: out, Tools: turn.Context.Tools}}, nil
}
