package temporal

import (
	"slices"

	"github.com/pi-go/agentcore"
	"go.temporal.io/sdk/workflow"
)

// The names of the updates that change a session's settings, transcript
// and queues, as the [agentcore.Agent]'s setters do.
const (
	UpdateSetModel         = "setModel"
	UpdateSetThinkingLevel = "setThinkingLevel"
	UpdateSetTools         = "setTools"
	UpdateSetToolExecution = "setToolExecution"
	UpdateSetSteeringMode  = "setSteeringMode"
	UpdateSetFollowUpMode  = "setFollowUpMode"
	UpdateSetMessages      = "setMessages"
	UpdateAppendMessage    = "appendMessage"
	UpdateClearQueue       = "clearQueue"
)

// registerEdits installs the updates that change the settings, the
// transcript and the queues. Each is applied when the workflow receives
// it, during a run too, with the effect the Agent's setter has: the model,
// thinking level, tools and tool execution mode a run started with are
// kept to its end; queue modes and cleared queues apply from the next
// poll; a transcript replaced during a run gets the run's messages
// appended, the run working on the context it started with.
func (ss *session) registerEdits(ctx workflow.Context) error {
	st := &ss.st
	if err := setter(ctx, UpdateSetModel, nil, func(m agentcore.Model) {
		ss.change(func(s *Settings) { s.Model = m })
	}); err != nil {
		return err
	}
	if err := setter(ctx, UpdateSetThinkingLevel, checkThinkingLevel, func(l agentcore.ThinkingLevel) {
		ss.change(func(s *Settings) { s.ThinkingLevel = l })
	}); err != nil {
		return err
	}
	if err := setter(ctx, UpdateSetTools, ss.opts.checkTools, func(names []string) {
		ss.change(func(s *Settings) { s.Tools = slices.Clone(names) })
	}); err != nil {
		return err
	}
	if err := setter(ctx, UpdateSetToolExecution, checkToolExecution, func(m agentcore.ToolExecutionMode) {
		ss.change(func(s *Settings) { s.ToolExecution = m })
	}); err != nil {
		return err
	}
	if err := setter(ctx, UpdateSetSteeringMode, checkQueueMode, func(m agentcore.QueueMode) {
		ss.change(func(s *Settings) { s.SteeringMode = m })
	}); err != nil {
		return err
	}
	if err := setter(ctx, UpdateSetFollowUpMode, checkQueueMode, func(m agentcore.QueueMode) {
		ss.change(func(s *Settings) { s.FollowUpMode = m })
	}); err != nil {
		return err
	}
	replacing := func(msgs Messages) error {
		extra := encodedSize(msgs)
		if st.Run == nil {
			extra -= encodedSize(st.Transcript) // replaced, not kept for the run
		}
		return ss.room(extra)
	}
	if err := setter(ctx, UpdateSetMessages, replacing, func(msgs Messages) {
		if rec := st.Run; rec != nil && rec.Context == nil {
			// The run goes on from the context it started with.
			rec.Context = rec.context(st.Transcript)
		}
		st.replaceTranscript(slices.Clone(msgs))
	}); err != nil {
		return err
	}
	appending := func(msgs Messages) error { return ss.room(encodedSize(msgs)) }
	if err := setter(ctx, UpdateAppendMessage, appending, func(msgs Messages) {
		st.Transcript = append(st.Transcript, msgs...)
	}); err != nil {
		return err
	}
	return setter(ctx, UpdateClearQueue, checkQueue, func(q agentcore.Queue) {
		if q&agentcore.SteeringQueue != 0 {
			st.Steering = nil
		}
		if q&agentcore.FollowUpQueue != 0 {
			st.FollowUp = nil
		}
	})
}

// setter installs the update name, which applies its argument when check
// (nil for none) accepts it and answers nothing.
func setter[T any](ctx workflow.Context, name string, check func(T) error, apply func(T)) error {
	return workflow.SetUpdateHandlerWithOptions(ctx, name,
		func(ctx workflow.Context, v T) error {
			apply(v)
			return nil
		},
		workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, v T) error {
			if check == nil {
				return nil
			}
			return check(v)
		}})
}

// replaceTranscript replaces the transcript with msgs and moves the
// cursor origin past every cursor handed out for the old one, so that
// [Session.Messages] reports the replacement to subscribers.
func (s *sessionState) replaceTranscript(msgs Messages) {
	s.Origin += len(s.Transcript) + 1
	s.Transcript = msgs
}
