package temporal

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/hold"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
)

// Client starts and addresses sessions of one workflow type on one task
// queue. It is safe for concurrent use.
type Client struct {
	c         client.Client
	name      string
	taskQueue string
}

// NewClient returns a client of the sessions named name ("" means
// [DefaultName]) served on taskQueue, over c, which the caller keeps
// owning.
func NewClient(c client.Client, name, taskQueue string) *Client {
	if name == "" {
		name = DefaultName
	}
	return &Client{c: c, name: name, taskQueue: taskQueue}
}

// Start starts the session id with an initial transcript (nil for none),
// or addresses the running one of that id; it is [Client.StartWith] with
// zero options.
func (c *Client) Start(ctx context.Context, id string, messages ...agentcore.Message) (*Session, error) {
	return c.StartWith(ctx, id, StartOptions{}, messages...)
}

// StartOptions are the workflow options of a new session
// ([Client.StartWith]); the zero value means the server's defaults.
type StartOptions struct {
	// WorkflowTaskTimeout bounds one workflow task: how soon a task lost
	// with its worker is retried (see the package doc's Recovery time);
	// zero means the server's default, 10 s.
	WorkflowTaskTimeout time.Duration
	// IDReusePolicy says whether the ID of a session whose workflow has
	// closed (cancelled, terminated) may start a new one; zero means the
	// server's default, allowed.
	IDReusePolicy enumspb.WorkflowIdReusePolicy
	// Memo is metadata kept with the session's workflow and shown by
	// Describe and the Web UI (a title, an owner); nil means none. It is
	// copied to each continue-as-new by the server.
	Memo map[string]any
	// SearchAttributes index the session for visibility queries (list the
	// sessions of a user, say); their keys must be registered on the
	// namespace.
	SearchAttributes temporal.SearchAttributes
}

// StartWith starts the session id as [Client.Start] does, with the
// workflow options o; o applies only when the session is new (an
// existing session keeps its own).
func (c *Client) StartWith(ctx context.Context, id string, o StartOptions, messages ...agentcore.Message) (*Session, error) {
	_, err := c.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: id, TaskQueue: c.taskQueue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowIDReusePolicy:    o.IDReusePolicy,
		WorkflowTaskTimeout:      o.WorkflowTaskTimeout,
		Memo:                     o.Memo,
		TypedSearchAttributes:    o.SearchAttributes,
	}, c.name, StartInput{Messages: messages})
	if err != nil {
		return nil, fmt.Errorf("agentcore/durable: start session %s: %w", id, err)
	}
	return c.Session(id), nil
}

// Session addresses the session id, wherever its workflow runs.
func (c *Client) Session(id string) *Session { return &Session{c: c.c, id: id} }

// Session addresses one session workflow from any process. Its methods
// are safe for concurrent use.
type Session struct {
	c  client.Client
	id string
}

// ID is the session's workflow ID.
func (s *Session) ID() string { return s.id }

func (s *Session) update(ctx context.Context, name string, result any, args ...any) error {
	h, err := s.c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID: s.id, UpdateName: name, Args: args, WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err == nil {
		err = h.Get(ctx, result)
	}
	if refused := refusal(err); refused != nil {
		return fmt.Errorf("agentcore/durable: session %s: %w", s.id, refused)
	}
	if err != nil {
		return fmt.Errorf("agentcore/durable: session %s: %s: %w", s.id, name, err)
	}
	return nil
}

// Start begins a run with prompt messages and returns its sequence number
// once the session accepted it, without waiting for the run. It fails,
// changing nothing, with an error wrapping [agentcore.ErrBusy] while a run
// is active, and with another error without prompts. It is a [Control]
// request sent by [Session.Send]: with no worker running, its error wraps
// [ErrRecorded].
func (s *Session) Start(ctx context.Context, prompts ...agentcore.Message) (int, error) {
	return s.send(ctx, Control{Key: NewKey(), Kind: ControlPrompt, Messages: Messages(prompts)})
}

// StartContinue begins a run from the transcript without a new message,
// by [agentcore.Agent.Continue]'s rules, and returns its sequence number
// once the session accepted it, without waiting for the run. After an
// assistant message it takes a batch of queued steering messages (and
// skips the run's first steering poll), else a batch of follow-ups, as the
// run's prompts. It fails, changing nothing, with an error wrapping
// [agentcore.ErrBusy] while a run is active, [agentcore.ErrNoMessages]
// when the transcript holds only system messages, and
// [agentcore.ErrContinueFromAssistant] after an assistant message with
// both queues empty.
func (s *Session) StartContinue(ctx context.Context) (int, error) {
	return s.send(ctx, Control{Key: NewKey(), Kind: ControlContinue})
}

// Continue is [Session.StartContinue] waiting for the run's end, as
// [agentcore.Agent.Continue]; it returns like [Session.Prompt].
func (s *Session) Continue(ctx context.Context) error {
	seq, err := s.StartContinue(ctx)
	if err != nil {
		return err
	}
	return s.Wait(ctx, seq)
}

// Prompt runs a user message holding text and waits for the run's end,
// like [agentcore.Agent.Prompt]: nil when the run succeeded, a
// [*agentcore.RunError] when it failed or was aborted (errors.Is with
// [context.Canceled] for an abort), [agentcore.ErrBusy] when refused. The
// RunError's Message is the run's last message, and a provider's failure
// unwraps to its [*agentcore.ProviderError], as with the Agent.
func (s *Session) Prompt(ctx context.Context, text string) error {
	return s.PromptMessages(ctx, agentcore.UserText(text))
}

// PromptMessages is [Session.Prompt] with messages of any role.
func (s *Session) PromptMessages(ctx context.Context, prompts ...agentcore.Message) error {
	seq, err := s.Start(ctx, prompts...)
	if err != nil {
		return err
	}
	return s.Wait(ctx, seq)
}

// Wait waits for run seq to end and returns its outcome as
// [Session.Prompt] does. ctx bounds the wait only: the run goes on. It
// polls the session (see the package doc's Waiting section), so any
// number of clients may wait without delaying the session's updates.
// A run too old for the session to remember how it ended fails with an
// error wrapping [ErrForgotten], a number no run has (for 2 s) with
// [ErrUnknownRun].
func (s *Session) Wait(ctx context.Context, seq int) error {
	var res WaitResult
	var unknownSince time.Time
	err := s.poll(ctx, QueryRun, &res, func() bool {
		if !res.Unknown {
			return !res.Pending
		}
		// A run just started may not show in queries yet: the workflow
		// task that started it can be retried, and a query answered
		// meanwhile from the state before it.
		if unknownSince.IsZero() {
			unknownSince = time.Now()
		}
		return time.Since(unknownSince) > unknownGrace
	}, seq)
	switch {
	case err != nil:
		return err
	case res.Unknown:
		return fmt.Errorf("agentcore/durable: session %s: run %d: %w", s.id, seq, ErrUnknownRun)
	case res.Forgotten:
		return fmt.Errorf("agentcore/durable: session %s: run %d: %w", s.id, seq, ErrForgotten)
	}
	return res.err()
}

// err is the error of the run's outcome, as [Session.Prompt] returns it.
func (res WaitResult) err() error {
	if len(res.Held) > 0 {
		return &hold.HeldError{Calls: res.Held}
	}
	if res.ErrorMessage == "" && !res.Aborted {
		return nil
	}
	msg := res.Message
	if msg == nil {
		msg = &agentcore.AssistantMessage{StopReason: agentcore.StopError, ErrorMessage: res.ErrorMessage}
		if res.Aborted {
			msg.StopReason = agentcore.StopAborted
		}
	}
	cause := msg.Err
	switch {
	case res.Aborted:
		cause = context.Canceled
	case cause == nil:
		cause = tooLargeCause(res.ErrorMessage)
	}
	if cause == nil {
		cause = errors.New(res.ErrorMessage)
	}
	return &agentcore.RunError{Message: msg, Err: cause}
}

// Steer queues a message for the active run, taken after the current
// turn's tool calls, as [agentcore.Agent.Steer]. A run that fails after
// taking it and before delivering it puts it back in the queue. It is a
// [Control] request with a new key, sent by [Session.Send]: recorded by
// the server even with no worker running, and its error says whether it
// was ([ErrRecorded]).
func (s *Session) Steer(ctx context.Context, msgs ...agentcore.Message) error {
	return s.Send(ctx, Control{Key: NewKey(), Kind: ControlSteer, Messages: Messages(msgs)})
}

// FollowUp queues a message taken when the run would otherwise stop, as
// [agentcore.Agent.FollowUp]. As with [Session.Steer], a run that fails
// before delivering it puts it back in the queue, and it is a [Control]
// request sent by [Session.Send].
func (s *Session) FollowUp(ctx context.Context, msgs ...agentcore.Message) error {
	return s.Send(ctx, Control{Key: NewKey(), Kind: ControlFollowUp, Messages: Messages(msgs)})
}

// Abort cancels the active run's model request and tool calls, if any; the
// run ends with an aborted message once they have returned (see the
// package doc's Aborts). The queues are kept. An idle session is left
// unchanged, as by [agentcore.Agent.Abort]. Like [Session.Steer], it is a
// [Control] request sent by [Session.Send].
func (s *Session) Abort(ctx context.Context) error {
	return s.Send(ctx, Control{Key: NewKey(), Kind: ControlAbort})
}

// Reset clears the transcript down to its system message, the error and
// both queues; it fails with [agentcore.ErrBusy] during a run.
func (s *Session) Reset(ctx context.Context) error { return s.update(ctx, UpdateReset, nil) }

// SetModel sets the model of the session's future runs, as
// [agentcore.Agent.SetModel]: a run in progress keeps the model it started
// with (a failed run's closing message names the current one, as the
// Agent's does).
func (s *Session) SetModel(ctx context.Context, m agentcore.Model) error {
	return s.update(ctx, UpdateSetModel, nil, m)
}

// SetThinkingLevel sets the thinking level of future runs; empty means
// off, as [agentcore.Agent.SetThinkingLevel]. A level that is not one of
// agentcore's is refused with an error wrapping [ErrInvalidSetting].
func (s *Session) SetThinkingLevel(ctx context.Context, l agentcore.ThinkingLevel) error {
	return s.update(ctx, UpdateSetThinkingLevel, nil, l)
}

// SetTools selects the session's active tools by name, in order, among
// the workers' [Options.Tools] (tools are code: a session can only choose
// among those its workers register). As with [agentcore.Agent.SetTools], a
// run in progress keeps its tools, and the difference is declared to the
// model before the next request of a later run. A name the workers lack
// is refused with an error wrapping [ErrUnknownTool], a name given twice
// with [ErrInvalidSetting]; the selection is then unchanged. No names
// deselect every tool.
func (s *Session) SetTools(ctx context.Context, names ...string) error {
	if names == nil {
		names = []string{}
	}
	return s.update(ctx, UpdateSetTools, nil, names)
}

// SetToolExecution sets the batch mode of future runs, as
// [agentcore.Agent.SetToolExecution]; empty means parallel. An unknown mode
// is refused with an error wrapping [ErrInvalidSetting].
func (s *Session) SetToolExecution(ctx context.Context, m agentcore.ToolExecutionMode) error {
	return s.update(ctx, UpdateSetToolExecution, nil, m)
}

// SetSteeringMode sets how many steering messages a drain point takes,
// from the next one on (during a run too), as
// [agentcore.Agent.SetSteeringMode]; empty means one at a time. An unknown
// mode is refused with an error wrapping [ErrInvalidSetting].
func (s *Session) SetSteeringMode(ctx context.Context, m agentcore.QueueMode) error {
	return s.update(ctx, UpdateSetSteeringMode, nil, m)
}

// SetFollowUpMode is [Session.SetSteeringMode] for the follow-up queue.
func (s *Session) SetFollowUpMode(ctx context.Context, m agentcore.QueueMode) error {
	return s.update(ctx, UpdateSetFollowUpMode, nil, m)
}

// SetMessages replaces the transcript with msgs, without their nil
// messages, as [agentcore.Agent.SetMessages]: a run in progress goes on
// from the context it started with and appends its messages to the new
// transcript. Subscribers of [Session.Messages] are told of the
// replacement (reset). The slice is not kept.
func (s *Session) SetMessages(ctx context.Context, msgs []agentcore.Message) error {
	kept := make(Messages, 0, len(msgs))
	for _, m := range msgs {
		if !isNil(m) {
			kept = append(kept, m)
		}
	}
	return s.update(ctx, UpdateSetMessages, nil, kept)
}

// AppendMessage appends m to the transcript, during a run too, as
// [agentcore.Agent.AppendMessage]; a nil m is ignored.
func (s *Session) AppendMessage(ctx context.Context, m agentcore.Message) error {
	if isNil(m) {
		return nil
	}
	return s.update(ctx, UpdateAppendMessage, nil, Messages{m})
}

// ClearQueue drops the messages queued in q, as
// [agentcore.Agent.ClearQueue]; polls made after it find the queue empty.
// A q with other bits than [agentcore.AllQueues]' is refused with an
// error wrapping [ErrInvalidSetting].
func (s *Session) ClearQueue(ctx context.Context, q agentcore.Queue) error {
	return s.update(ctx, UpdateClearQueue, nil, q)
}

// isNil reports whether m is nil or a nil pointer.
func isNil(m agentcore.Message) bool {
	if m == nil {
		return true
	}
	v := reflect.ValueOf(m)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// State returns a snapshot of the session.
func (s *Session) State(ctx context.Context) (State, error) {
	v, err := s.c.QueryWorkflow(ctx, s.id, "", QueryState)
	if err != nil {
		return State{}, fmt.Errorf("agentcore/durable: session %s: state: %w", s.id, err)
	}
	var st State
	if err := v.Get(&st); err != nil {
		return State{}, fmt.Errorf("agentcore/durable: session %s: state: %w", s.id, err)
	}
	return st, nil
}

// Messages returns the durable transcript's messages from cursor from on
// (0 is the transcript's start), waiting until there is at least one or no
// run is active, and the cursor that follows them. A subscriber that
// passes back the cursor it was given sees every message exactly once,
// whichever worker ran it; reset is set when the transcript was reset or
// replaced ([Session.Reset], [Session.SetMessages]) after the cursor was
// given: the messages then start at the transcript's start. A long tail
// comes in parts of about 512 KB: ask again from next. Like
// [Session.Wait], it polls the session.
func (s *Session) Messages(ctx context.Context, from int) (msgs []agentcore.Message, next int, reset bool, err error) {
	var res MessagesResult
	if err := s.poll(ctx, QueryMessages, &res, func() bool { return len(res.Messages) > 0 || !res.Running || res.Reset }, from); err != nil {
		return nil, from, false, err
	}
	return res.Messages, res.Next, res.Reset, nil
}

// History returns the history of the session's current workflow run, for
// worker.WorkflowReplayer tests and to measure its cost.
func (c *Client) History(ctx context.Context, id string) (*historypb.History, error) {
	it := c.c.GetWorkflowHistory(ctx, id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	h := &historypb.History{}
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return nil, fmt.Errorf("agentcore/durable: session %s: history: %w", id, err)
		}
		h.Events = append(h.Events, ev)
	}
	return h, nil
}
