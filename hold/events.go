package hold

import "github.com/pi-go/agentcore"

// Event is what [Options].OnEvent is told: [*HeldEvent], [*DecidedEvent],
// [*ResolvedEvent] and [*DiscardedEvent]. The set is closed.
type Event interface {
	holdEvent()
}

// HeldEvent is sent for each call a turn held, in call order, once the
// turn's results are in (its placeholder is the call's result) and before
// turn_end: on the run's goroutine, from the Gate's FinishTurn hook.
type HeldEvent struct {
	Call Call
}

// DecidedEvent is sent for each decision [Gate.Decide] took, on its
// caller's goroutine after the decisions were recorded, and for each
// default a deadline applied (Call.ByDeadline), on the goroutine that found
// the deadline passed.
type DecidedEvent struct {
	// Call is the call with its Decision.
	Call Call
}

// ResolvedEvent is sent for each decided call once its result is known,
// before the resumed run's first request, on that run's goroutine. On an
// Agent the Gate then replaces the call's placeholder with Result through
// [agentcore.Agent.ReplaceMessage], so the Agent's listeners get an
// [agentcore.MessageReplaceEvent] for it, before the run's agent_start: a
// program that records the transcript from the Agent's events needs
// nothing from this event.
type ResolvedEvent struct {
	// Call is the call with its Decision.
	Call Call
	// Result is the tool-result message now in the transcript.
	Result *agentcore.ToolResultMessage
}

// DiscardedEvent is sent when the Gate drops held calls whose placeholders
// are no longer in the Agent's transcript (after Reset, or SetMessages of
// another transcript), on the goroutine of the run that found them gone.
type DiscardedEvent struct {
	Calls []Call
}

func (*HeldEvent) holdEvent()      {}
func (*DecidedEvent) holdEvent()   {}
func (*ResolvedEvent) holdEvent()  {}
func (*DiscardedEvent) holdEvent() {}
