package temporal

import (
	"slices"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/hold"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// The names of the session workflow's updates and queries. The wait and
// messages updates are those of earlier clients, which held them open;
// clients now poll the run and messages queries instead (see the package
// doc's Waiting section).
const (
	UpdatePrompt   = "prompt"
	UpdateContinue = "continue"
	UpdateSteer    = "steer"
	UpdateFollowUp = "followUp"
	UpdateAbort    = "abort"
	UpdateReset    = "reset"
	UpdateWait     = "wait"
	UpdateMessages = "messages"
	QueryState     = "state"
	QueryRun       = "run"
	QueryMessages  = "messagesFrom"
)

// StartInput is the session workflow's argument.
type StartInput struct {
	// Messages is the initial transcript of a new session.
	Messages Messages `json:"messages,omitempty"`
	// State is the state carried over by continue-as-new; clients leave it
	// nil.
	State *sessionState `json:"state,omitempty"`
}

// Sessions is a session workflow type with its activities, to register on
// workers. It holds the options every worker must share.
type Sessions struct {
	opts Options
	acts *activities
}

// New returns the session type configured by opts. opts is copied (its
// Tools and ActiveTools slices too).
func New(opts Options) *Sessions {
	opts.Tools = slices.Clone(opts.Tools)
	opts.ActiveTools = slices.Clone(opts.ActiveTools)
	s := &Sessions{opts: withCompaction(withLayers(opts))}
	s.acts = &activities{opts: &s.opts}
	return s
}

// Name is the workflow type's name.
func (s *Sessions) Name() string { return s.opts.name() }

// Register registers the workflow and its activities on r, a worker.
func (s *Sessions) Register(r worker.Registry) {
	s.RegisterWorkflow(r)
	r.RegisterActivityWithOptions(s.acts.model, activity.RegisterOptions{Name: s.Name() + ".model"})
	r.RegisterActivityWithOptions(s.acts.tool, activity.RegisterOptions{Name: s.Name() + ".tool"})
}

// RegisterWorkflow registers the workflow alone, on a worker or on a
// [worker.WorkflowReplayer] checking recorded histories.
func (s *Sessions) RegisterWorkflow(r worker.WorkflowRegistry) {
	r.RegisterWorkflowWithOptions(s.Workflow, workflow.RegisterOptions{Name: s.Name()})
}

// session is one workflow execution's state and handlers.
type session struct {
	opts *Options
	st   sessionState
	// sizes caches the encoded sizes of the state's messages and tool
	// outcomes ([session.stateSize]); it is not state.
	sizes map[any]int
	// cancelWork cancels the activities of the active run; nil when none
	// is running.
	cancelWork workflow.CancelFunc
	// closing is set before continue-as-new: waiting handlers return.
	closing bool
	// heldGen counts the changes of what the session holds, for the
	// deadline watcher; it is not state.
	heldGen int
}

// Workflow is the session workflow. It runs until cancelled, continuing as
// new when its history grows long while idle.
func (s *Sessions) Workflow(ctx workflow.Context, in StartInput) error {
	ss := &session{opts: &s.opts}
	if in.State != nil {
		ss.st = *in.State
	} else if err := ss.seed(ctx, s.initialTranscript(ctx, in.Messages)); err != nil {
		return err
	}
	if err := ss.register(ctx); err != nil {
		return err
	}
	for {
		if err := workflow.Await(ctx, func() bool { return ss.st.Run != nil || ss.shouldContinue(ctx) }); err != nil {
			return err
		}
		if !ss.shouldContinue(ctx) {
			if err := ss.drive(ctx); err != nil {
				return err
			}
			ss.compact(ctx)
			continue
		}
		// Idle, or between two steps of a run: the run's record goes
		// with the state, and the new execution goes on with it.
		ss.closing = true
		if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
			return err
		}
		ss.drainControl(ctx)
		ss.st.Continued++
		st := ss.st
		return workflow.NewContinueAsNewError(ctx, s.Name(), StartInput{State: &st})
	}
}

// initialTranscript seeds the system message as [agentcore.New] does.
func (s *Sessions) initialTranscript(ctx workflow.Context, msgs Messages) Messages {
	msgs = slices.Clone(msgs)
	if len(msgs) > 0 && msgs[0].Role() == "system" {
		return msgs
	}
	tools := s.opts.toolsNamed(defaultSettings(&s.opts).Tools)
	decls := make([]agentcore.ToolDeclaration, len(tools))
	for i, t := range tools {
		decls[i] = t.Declaration()
	}
	first := agentcore.InitialSystemMessage(s.opts.SystemPrompt, decls)
	if first == nil {
		return msgs
	}
	first.Timestamp = millis(workflow.Now(ctx))
	return append(Messages{first}, msgs...)
}

func (ss *session) shouldContinue(ctx workflow.Context) bool {
	info := workflow.GetInfo(ctx)
	return info.GetCurrentHistoryLength() >= ss.opts.maxHistory() || info.GetContinueAsNewSuggested()
}

// busy refuses a call while a run is active.
func (ss *session) busy() error {
	if ss.st.Run != nil {
		return refuse(agentcore.ErrBusy)
	}
	return nil
}

// continuable refuses a continue by [agentcore.Agent.Continue]'s rules:
// while a run is active, with no message but system messages, and after
// an assistant message with both queues empty.
func (ss *session) continuable() error {
	if err := ss.busy(); err != nil {
		return err
	}
	if err := ss.waiting(); err != nil {
		return err
	}
	msgs := ss.st.Transcript
	if !slices.ContainsFunc(msgs, func(m agentcore.Message) bool { return m.Role() != "system" }) {
		return refuse(agentcore.ErrNoMessages)
	}
	if _, ok := msgs[len(msgs)-1].(*agentcore.AssistantMessage); ok && len(ss.st.Steering) == 0 && len(ss.st.FollowUp) == 0 {
		return refuse(agentcore.ErrContinueFromAssistant)
	}
	return nil
}

// promptable refuses a prompt without messages, during a run, or too
// large to keep.
func (ss *session) promptable(prompts Messages) error {
	if len(prompts) == 0 {
		return temporal.NewApplicationError("agentcore/durable: prompt without messages", "NoPrompt")
	}
	if err := ss.busy(); err != nil {
		return err
	}
	if err := ss.waiting(); err != nil {
		return err
	}
	return ss.room(2 * encodedSize(prompts))
}

// prompt starts a run with prompts, which [session.promptable] accepted,
// and returns its number.
func (ss *session) prompt(ctx workflow.Context, prompts Messages) (int, error) {
	st := &ss.st
	st.Runs++
	st.Run = &runRecord{Seq: st.Runs, Base: len(st.Transcript), Prompts: slices.Clone(prompts), Tools: map[string]toolOutcome{},
		Settings: ss.startSettings(ctx), Started: startTime(ctx)}
	ss.takeHeld(st.Run)
	st.ErrorMessage = ""
	return st.Runs, nil
}

// cont starts a run from the transcript, which [session.continuable]
// accepted, and returns its number.
func (ss *session) cont(ctx workflow.Context) (int, error) {
	st := &ss.st
	rec := &runRecord{Seq: st.Runs + 1, Base: len(st.Transcript), Tools: map[string]toolOutcome{}, Settings: ss.startSettings(ctx),
		Started: startTime(ctx)}
	set := ss.settings()
	if _, ok := st.Transcript[len(st.Transcript)-1].(*agentcore.AssistantMessage); !ok {
		rec.Continue = true
	} else if steer := drain(&st.Steering, set.SteeringMode); len(steer) > 0 {
		rec.Prompts, rec.SkipSteering = steer, true
	} else {
		rec.Prompts = drain(&st.FollowUp, set.FollowUpMode)
	}
	st.Runs++
	st.Run = rec
	ss.takeHeld(rec)
	st.ErrorMessage = ""
	return st.Runs, nil
}

// register installs the updates and the query.
func (ss *session) register(ctx workflow.Context) error {
	st := &ss.st
	if err := workflow.SetUpdateHandlerWithOptions(ctx, UpdatePrompt, ss.prompt,
		workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, prompts Messages) error { return ss.promptable(prompts) }}); err != nil {
		return err
	}
	if err := workflow.SetUpdateHandlerWithOptions(ctx, UpdateContinue, ss.cont,
		workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context) error { return ss.continuable() }}); err != nil {
		return err
	}
	for _, q := range []struct {
		name  string
		queue *Messages
	}{{UpdateSteer, &st.Steering}, {UpdateFollowUp, &st.FollowUp}} {
		if err := workflow.SetUpdateHandlerWithOptions(ctx, q.name, func(ctx workflow.Context, msgs Messages) error {
			*q.queue = append(*q.queue, msgs...)
			return nil
		}, workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, msgs Messages) error {
			return ss.room(2 * encodedSize(msgs))
		}}); err != nil {
			return err
		}
	}
	if err := workflow.SetUpdateHandler(ctx, UpdateAbort, func(ctx workflow.Context) error {
		ss.abort()
		return nil
	}); err != nil {
		return err
	}
	if err := workflow.SetUpdateHandlerWithOptions(ctx, UpdateReset, func(ctx workflow.Context) error {
		var kept Messages
		if base := agentcore.CurrentSystemMessage(st.Transcript); base != nil {
			kept = Messages{base}
		}
		st.replaceTranscript(kept)
		st.Steering, st.FollowUp, st.ErrorMessage = nil, nil, ""
		if st.Held != nil {
			ss.setHeld(nil)
		}
		return nil
	}, workflow.UpdateHandlerOptions{Validator: func(workflow.Context) error { return ss.busy() }}); err != nil {
		return err
	}
	if err := ss.registerEdits(ctx); err != nil {
		return err
	}
	if err := ss.registerWaits(ctx); err != nil {
		return err
	}
	if err := ss.registerControl(ctx); err != nil {
		return err
	}
	ss.watchDeadlines(ctx)
	if err := workflow.SetQueryHandler(ctx, QueryHeld, func() (hold.State, error) {
		if st.Held == nil {
			return hold.State{}, nil
		}
		return *st.Held, nil
	}); err != nil {
		return err
	}
	return workflow.SetQueryHandler(ctx, QueryState, func() (State, error) {
		info := workflow.GetInfo(ctx)
		return st.snapshot(ss.settings(), info.GetCurrentHistoryLength(), info.GetCurrentHistorySize()), nil
	})
}
