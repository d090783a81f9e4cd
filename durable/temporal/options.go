package temporal

import (
	"context"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/compaction"
	"github.com/pi-go/agentcore/hold"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// DefaultName is the workflow type of sessions when [Options.Name] is empty.
const DefaultName = "agentcore.Session"

// Options configure the session workflow and its activities on a worker
// ([New]). Every worker that serves a session's task queue must be given
// the same options: the workflow's decisions depend on them.
type Options struct {
	// Name is the workflow type; empty means [DefaultName]. The model and
	// tool activities are registered as Name+".model" and Name+".tool".
	Name string

	// Hooks are the loop's policy points, as for [agentcore.Options]. They
	// run inside the workflow, during each replay of the run's loop (see
	// the package doc): they must be deterministic functions of their
	// arguments and must not block or perform I/O; they may run more than
	// once for the same turn. GetAPIKey is the exception: it runs in the
	// model activity, on the worker, so that keys never enter the history.
	agentcore.Hooks

	// SystemPrompt seeds the leading system message of a new session whose
	// initial transcript does not start with one, with the declarations of
	// its active tools, as [agentcore.New] does.
	SystemPrompt string
	// Model and ThinkingLevel are those of a new session's runs, until a
	// client changes them ([Session.SetModel], [Session.SetThinkingLevel]).
	Model         agentcore.Model
	ThinkingLevel agentcore.ThinkingLevel
	// Tools are the tools the workers can execute; a session uses those
	// it selects by name (ActiveTools, [Session.SetTools]). Their Execute
	// runs in the tool activity; the rest of a call (validation,
	// BeforeToolCall, AfterToolCall) runs in the workflow. Replay is
	// applied to a call whose activity attempt was lost with its worker.
	Tools []agentcore.Tool
	// ActiveTools names the tools of Tools active in a new session, in
	// order; nil means all of them, an empty slice none, and a name not in
	// Tools is ignored. A session changes its selection with
	// [Session.SetTools]; a selected name the workers stop registering is
	// left out of the runs that follow.
	ActiveTools []string
	// StreamFn calls the model, in the model activity; it is required (a
	// request without one fails without retrying).
	StreamFn agentcore.StreamFn
	// StreamOptions are passed to every request, in the model activity
	// (they never enter the history: keys and request hooks stay on the
	// worker); Reasoning is set per request from the thinking level.
	StreamOptions agentcore.StreamOptions
	// OnStream, when not nil, receives the live events of the model
	// requests this worker makes: every event the stream function yields,
	// in order, the final done or error event included. It is called in
	// the model activity, on the goroutine reading the stream, before the
	// next event is read: it must return quickly (a slow OnStream slows
	// the request), so hand events on to a buffer, as [Live.Publish] does.
	// ctx is the activity's; ev and the event in it are the callee's to
	// keep. A panic in OnStream is recovered and the event dropped.
	//
	// Live events are best-effort. They are not in the workflow history;
	// they are lost with their worker; a retried attempt streams the
	// request again from its start ([StreamEvent].Attempt); an attempt
	// cut short by an abort or a lost worker may have streamed events of
	// a message that is never committed. The committed transcript
	// ([Session.Messages]) stays the source of truth. Nil publishes
	// nothing.
	OnStream func(ctx context.Context, ev StreamEvent)

	// ToolExecution, SteeringMode and FollowUpMode are as for
	// [agentcore.Options]: those of a new session, until a client changes
	// them.
	ToolExecution agentcore.ToolExecutionMode
	SteeringMode  agentcore.QueueMode
	FollowUpMode  agentcore.QueueMode

	// ModelActivity and ToolActivity are the activity options of model
	// requests and tool calls. Zero timeouts mean 10 minutes from start to
	// close and a 30 s heartbeat timeout (how soon a lost worker's call is
	// retried elsewhere: see the package doc's Recovery); a nil
	// RetryPolicy retries without limit. WaitForCancellation is always
	// set: an abort waits for the cancelled activity to end, so that the
	// transcript says what the call did.
	ModelActivity workflow.ActivityOptions
	ToolActivity  workflow.ActivityOptions

	// MaxHistoryLength is the history length, in events, past which an idle
	// session continues as new; zero means 10,000. The server's own
	// suggestion to continue as new is followed too.
	MaxHistoryLength int

	// PayloadLimit bounds, in encoded bytes, the session's state (carried
	// by continue-as-new), a model request's input and an activity's
	// result, so that none crosses the server's limits (see the package
	// doc's Limits): zero means [DefaultPayloadLimit]; [NoPayloadLimit]
	// turns the checks off, for workers and clients that keep large
	// payloads out of the history with a [ClaimCheck].
	PayloadLimit int

	// Compaction, when not nil, compacts a session's transcript after
	// each run, as a [compaction.Compactor] does after an Agent's run,
	// with these budgets (zero fields scale with the session's model,
	// [compaction.Settings.ForWindow]); nil never compacts, unless Layers
	// holds a Compactor. A session that compacts shows summaries to the
	// model as user messages ([compaction.ConvertMessages], applied before
	// ConvertToLLM). See the package doc's Compaction.
	Compaction *compaction.Settings

	// Layers are the layers of the sessions' Agent, as for
	// [agentcore.Options].Layers, applied where each part runs (see the
	// package doc's Layers): their hooks compose with Hooks in the
	// workflow, their stream function wrappers wrap StreamFn in the model
	// activity, their tool wrappers wrap Tools in the tool activity. Their
	// listeners and run wrappers do not apply: a workflow has no Agent and
	// no events. A [*compaction.Compactor] among them is not installed: the
	// session compacts between runs with its settings instead (when
	// Compaction is nil and the Compactor is not Manual); nor is a
	// [*hold.Gate]: its options are Hold's when Hold is nil.
	Layers []agentcore.Layer

	// Hold, when not nil, holds tool calls for a person's decision as a
	// [hold.Gate] with these options does on an Agent (see the package
	// doc's Held calls); nil holds none, unless Layers holds a Gate. Its
	// Policy and OnDeadline run in the workflow and must be deterministic
	// as hooks are; OnEvent and Now do not apply (the workflow's clock
	// is the Gate's).
	Hold *hold.Options

	// layerErr is the error of a layer that failed to install or to wrap
	// (agentcore.ErrInvalidLayer): every model request fails with it.
	layerErr error
}

func (o *Options) name() string {
	if o.Name == "" {
		return DefaultName
	}
	return o.Name
}

func (o *Options) maxHistory() int {
	if o.MaxHistoryLength <= 0 {
		return 10_000
	}
	return o.MaxHistoryLength
}

// HeartbeatThrottle is the interval at which a running request or tool
// call sends its heartbeats to the server (a third of its heartbeat
// timeout when that is shorter): an abort reaches the activity's ctx
// within about that time, whatever the worker's options, since the
// answer to a heartbeat is how the server tells an activity it was
// cancelled. [WorkerOptions] sets it as the worker's throttle too.
const HeartbeatThrottle = 300 * time.Millisecond

// WorkerOptions returns o with a zero MaxHeartbeatThrottleInterval set to
// [HeartbeatThrottle]. A worker serving sessions no longer needs it: the
// activities send their heartbeats through the worker's client, past the
// SDK's throttle (by default 80% of the heartbeat timeout, 24 s), and an
// abort reaches a running tool as soon with the SDK's default options.
// The throttle still applies where the SDK sends the heartbeats itself
// (an activity test environment, which has no client).
func WorkerOptions(o worker.Options) worker.Options {
	if o.MaxHeartbeatThrottleInterval == 0 {
		o.MaxHeartbeatThrottleInterval = HeartbeatThrottle
	}
	return o
}

// activityOptions fills the defaults of ao.
func activityOptions(ao workflow.ActivityOptions) workflow.ActivityOptions {
	if ao.StartToCloseTimeout == 0 && ao.ScheduleToCloseTimeout == 0 {
		ao.StartToCloseTimeout = 10 * time.Minute
	}
	if ao.HeartbeatTimeout == 0 {
		ao.HeartbeatTimeout = 30 * time.Second
	}
	if ao.RetryPolicy == nil {
		ao.RetryPolicy = &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute}
	}
	return ao
}
