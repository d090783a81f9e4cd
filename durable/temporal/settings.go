package temporal

import (
	"fmt"
	"slices"

	"github.com/pi-go/agentcore"
	"go.temporal.io/sdk/workflow"
)

// Settings are what a client may change of a session, as a user may
// change them of an [agentcore.Agent]: the model, the thinking level, the
// active tools by name, in order, the tool execution mode and the queue
// modes (see the package doc's Settings section). In a [State] their
// empty values are spelled out (off, parallel, one-at-a-time).
type Settings struct {
	// Model is the model of the next run ([Session.SetModel]).
	Model agentcore.Model `json:"model"`
	// ThinkingLevel is the thinking level of the next run
	// ([Session.SetThinkingLevel]).
	ThinkingLevel agentcore.ThinkingLevel `json:"thinkingLevel"`
	// Tools name the active tools of the next run, in order, among the
	// workers' [Options.Tools] ([Session.SetTools]).
	Tools []string `json:"tools"`
	// ToolExecution is the batch mode of the next run
	// ([Session.SetToolExecution]).
	ToolExecution agentcore.ToolExecutionMode `json:"toolExecution"`
	// SteeringMode and FollowUpMode are how many messages the next poll
	// of each queue takes ([Session.SetSteeringMode],
	// [Session.SetFollowUpMode]).
	SteeringMode agentcore.QueueMode `json:"steeringMode"`
	FollowUpMode agentcore.QueueMode `json:"followUpMode"`
}

// defaultSettings are the settings a new session starts with: those of o,
// with the empty values spelled out as the Agent reports them.
func defaultSettings(o *Options) Settings {
	s := Settings{
		Model: o.Model, ThinkingLevel: o.ThinkingLevel, Tools: o.ActiveTools,
		ToolExecution: o.ToolExecution, SteeringMode: o.SteeringMode, FollowUpMode: o.FollowUpMode,
	}
	active := o.Tools
	if o.ActiveTools != nil {
		active = o.toolsNamed(o.ActiveTools) // without names the workers lack
	}
	s.Tools = make([]string, len(active))
	for i, t := range active {
		s.Tools[i] = t.Name
	}
	return s.normalized()
}

// normalized is s with its own slices and the empty values spelled out.
func (s Settings) normalized() Settings {
	s.Tools = slices.Clone(s.Tools)
	if s.ThinkingLevel == "" {
		s.ThinkingLevel = agentcore.ThinkingOff
	}
	if s.ToolExecution == "" {
		s.ToolExecution = agentcore.ToolsParallel
	}
	if s.SteeringMode == "" {
		s.SteeringMode = agentcore.QueueModeOneAtATime
	}
	if s.FollowUpMode == "" {
		s.FollowUpMode = agentcore.QueueModeOneAtATime
	}
	return s
}

// settings returns the session's current settings: the stored ones, or
// the defaults of its Options when none were stored.
func (ss *session) settings() Settings {
	if ss.st.Settings != nil {
		return ss.st.Settings.normalized()
	}
	return defaultSettings(ss.opts)
}

// change applies f to a copy of the current settings and stores it.
func (ss *session) change(f func(*Settings)) {
	s := ss.settings()
	f(&s)
	ss.st.Settings = &s
}

// runSettings are the settings the active run started with, which it keeps
// as the Agent's run keeps its model, thinking level, tools and tool
// execution mode: the ones recorded in rec, or the defaults of opts for a
// run recorded before settings were.
func runSettings(rec *runRecord, opts *Options) Settings {
	if rec.Settings != nil {
		return rec.Settings.normalized()
	}
	return defaultSettings(opts)
}

// pinChange marks, in a history, a session whose runs record the settings
// they start with even when the session's were never changed, and whose
// initial transcript is recorded: a run then goes on with the same tools
// on a worker whose [Options] differ (see the package doc's Upgrading
// workers). Runs of histories recorded before record nil settings and
// use the defaults of the worker replaying them.
const pinChange = "pin-run-settings"

// startSettings is what a run starting now records: the session's current
// settings, or, in histories recorded before [pinChange], nil while the
// session's settings were never changed (the run then uses the defaults).
func (ss *session) startSettings(ctx workflow.Context) *Settings {
	if ss.st.Settings == nil && workflow.GetVersion(ctx, pinChange, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return nil
	}
	s := ss.settings()
	return &s
}

// startTime is what a run starting now records as its start: the
// workflow's time, or, in histories recorded before [pinChange], zero.
func startTime(ctx workflow.Context) int64 {
	if workflow.GetVersion(ctx, pinChange, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return 0
	}
	return millis(workflow.Now(ctx))
}

// seed sets a new session's transcript to initial, as recorded in the
// history by the first worker that ran it ([pinChange]): the system
// message a worker seeds depends on its Options.
func (ss *session) seed(ctx workflow.Context, initial Messages) error {
	if workflow.GetVersion(ctx, pinChange, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		ss.st.Transcript = initial
		return nil
	}
	return workflow.SideEffect(ctx, func(workflow.Context) any { return initial }).Get(&ss.st.Transcript)
}

// toolsNamed returns the worker's tools named by names, in that order; a name
// the worker lacks (its tools changed since the names were checked) is
// left out.
func (o *Options) toolsNamed(names []string) []agentcore.Tool {
	tools := make([]agentcore.Tool, 0, len(names))
	for _, name := range names {
		if i := slices.IndexFunc(o.Tools, func(t agentcore.Tool) bool { return t.Name == name }); i >= 0 {
			tools = append(tools, o.Tools[i])
		}
	}
	return tools
}

// checkTools refuses a selection of tools with a name the worker lacks or
// a name given twice.
func (o *Options) checkTools(names []string) error {
	for i, name := range names {
		if !slices.ContainsFunc(o.Tools, func(t agentcore.Tool) bool { return t.Name == name }) {
			return refuseWith(ErrUnknownTool, fmt.Sprintf("%q", name))
		}
		if slices.Contains(names[:i], name) {
			return refuseWith(ErrInvalidSetting, fmt.Sprintf("tool %q selected twice", name))
		}
	}
	return nil
}

// checkThinkingLevel refuses a level that is not one of pi-ai's.
func checkThinkingLevel(l agentcore.ThinkingLevel) error {
	switch l {
	case "", agentcore.ThinkingOff, agentcore.ThinkingMinimal, agentcore.ThinkingLow, agentcore.ThinkingMedium,
		agentcore.ThinkingHigh, agentcore.ThinkingXHigh, agentcore.ThinkingMax:
		return nil
	}
	return refuseWith(ErrInvalidSetting, fmt.Sprintf("thinking level %q", l))
}

// checkQueueMode refuses an unknown queue mode.
func checkQueueMode(m agentcore.QueueMode) error {
	switch m {
	case "", agentcore.QueueModeOneAtATime, agentcore.QueueModeAll:
		return nil
	}
	return refuseWith(ErrInvalidSetting, fmt.Sprintf("queue mode %q", m))
}

// checkToolExecution refuses an unknown tool execution mode.
func checkToolExecution(m agentcore.ToolExecutionMode) error {
	switch m {
	case "", agentcore.ToolsParallel, agentcore.ToolsSequential:
		return nil
	}
	return refuseWith(ErrInvalidSetting, fmt.Sprintf("tool execution mode %q", m))
}

// checkQueue refuses a queue that is not a combination of the two.
func checkQueue(q agentcore.Queue) error {
	if q&^agentcore.AllQueues != 0 {
		return refuseWith(ErrInvalidSetting, fmt.Sprintf("queue %d", q))
	}
	return nil
}
