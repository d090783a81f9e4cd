// Package hold holds tool calls for a person's decision: the agent wants to
// run deploy, a person must say yes, and the person may answer in an hour,
// from another machine, after the program restarted. A [Gate] is an
// [agentcore.Layer]; the agentcore loop is unchanged, and an Agent whose
// Gate holds nothing behaves exactly as one without it.
//
//	gate := hold.New(hold.Options{
//		Policy: hold.Always(hold.Request{Title: "Deploy?"}, "deploy"),
//	})
//	agent := agentcore.New(agentcore.Options{..., Layers: []agentcore.Layer{gate}})
//
//	err := agent.Prompt(ctx, "ship it")
//	if errors.Is(err, hold.ErrHeld) {
//		// ask a person; gate.State() lists the calls (persist it with the transcript)
//		err = gate.Decide(hold.Approve{ID: id})
//		err = agent.Continue(ctx) // runs deploy, then asks the model again
//	}
//
// # Holding
//
// The [Policy] (see [Always], [When], [First]) runs in the Gate's
// BeforeToolCall hook, after the call's arguments were validated. A call
// it holds does not run: its result is a placeholder error the model can
// read ([DefaultPlaceholder]), so the transcript is valid for every
// provider whether or not the call is ever decided. The other calls of the
// batch run as usual. The Gate's FinishTurn hook ends the run after that
// turn; queued steering and follow-up messages stay queued.
//
// The run's outcome is its own: Prompt or Continue returns a [*HeldError]
// (errors.Is(err, [ErrHeld])) listing the waiting calls. It is not a
// failed run: no error message in the transcript or the Agent's state,
// nothing lost; what a layer's run wrapper inside the Gate's made of the
// pause (a structured answer missing) gives way to it, whatever the order
// of the Layers. A program unaware of holding sees a non-nil error rather
// than a run that silently stopped halfway. The Gate's hooks compose with
// the other layers' in layer order: BeforeToolCall hooks of layers before
// the Gate run before its policy, those after it (and the program's own)
// do not run for a held call.
//
// # Deciding and resuming
//
// [Gate.Decide] takes decisions on any subset of the held calls, from any
// goroutine, without running anything: [Approve] (the tool runs, with
// edited arguments if given, validated like the model's), [Deny] (an
// error result with the person's reason), [Answer] (the caller supplies
// the result: a tool the front-end runs). A decision on a call not held,
// a second decision on a call, or a bad one is an error that changes
// nothing. Once every held call is decided, the Agent's next Continue (or
// Prompt) replaces the placeholders with the calls' results (approved calls
// run first, one at a time) and goes on: the model sees the results, and
// steering queued meanwhile is taken at the run's start. A Prompt or
// Continue while calls still wait is refused with a [*HeldError] and
// changes nothing. Decisions made while the holding run is still going
// (from a [HeldEvent], say) let that same run continue.
//
// An approved call runs through [agentcore.RunToolCall] with
// [agentcore.Agent.ToolCallOptions]: the Agent's tools as its layers wrap
// them, and every layer's and the program's BeforeToolCall and
// AfterToolCall hooks, as for any call (a later layer may still block it;
// the Gate's own lets it through).
//
// # Restarts and deadlines
//
// Everything held is plain data: [Gate.State] returns a [State] that
// round-trips as JSON; store it with the transcript (agentcore messages
// marshal as JSON too). A new process builds its Agent from the stored
// transcript, a new Gate, and calls [Gate.Restore] before deciding and
// continuing; a state that does not match the transcript is refused
// ([ErrInvalidState]), by Restore or by the next run's start, rather than
// dropped. A Reset, or the program's edit of a transcript that removes
// the placeholders the Gate held itself, discards what is held
// ([DiscardedEvent]).
//
// A held call may have a deadline ([Request].Deadline, or
// [Options].Timeout): once it passes, [Options].OnDeadline's decision (a
// denial by default) applies. Deadlines are applied by [Gate.Wait] (which
// blocks until nothing waits), by Decide, and by the next run; a deadline
// that passed while no process ran applies when one looks.
//
// # Events
//
// [Options].OnEvent tells a UI what happens: [HeldEvent] when a call is
// held, [DecidedEvent] when it is decided (by a person or its deadline),
// [ResolvedEvent] when its result is known, [DiscardedEvent] when held
// calls were dropped. The Agent's own listeners see the transcript change
// as it happens: the placeholder as the held call's result (message_end),
// then, when the resumed run starts, each real result in its place
// ([agentcore.MessageReplaceEvent], before agent_start), so a recorder of
// the Agent's events (package session, the agui handler, a trace) holds
// the transcript the Agent holds.
//
// # Without an Agent
//
// Under [agentcore.RunLoop] the Gate holds calls and ends the run the same
// way (run wrappers do not apply there); the caller decides and then
// applies the decisions to its transcript with [Gate.Resolve] before
// continuing with [agentcore.RunLoopContinue]. A surface that runs the loop
// elsewhere (a durable workflow) keeps [State] in its own storage the same
// way.
package hold
