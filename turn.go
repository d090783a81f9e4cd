package agentcore

import "slices"

// turnResult is how one turn of a run ended.
type turnResult struct {
	// context is what FinishTurn saw, for the next PrepareNextTurn.
	context TurnContext
	// moreToolCalls is true when the model called tools and no result
	// terminated the batch: the model is asked again.
	moreToolCalls bool
	// decision is FinishTurn's answer.
	decision TurnDecision
	// ended is true when the run is over (agent_end was emitted).
	ended bool
}

// run is the reference's runLoop: turns follow one another while the model
// calls tools or messages are pending; when the run would end, follow-ups
// start more turns, and so does a FinishTurn that answered TurnContinue.
func (e *engine) run() error {
	e.pollSteering()
	var prev *TurnContext
	for {
		t, err := e.turn(prev)
		if err != nil || t.ended {
			return err
		}
		prev = &t.context
		if t.moreToolCalls || len(e.pending) > 0 {
			continue
		}
		if e.pollFollowUps() || t.decision == TurnContinue {
			continue
		}
		return e.emit(e.endEvent())
	}
}

// turn is one turn: after the first, the preparation of the next turn;
// then the pending messages, one request, its tool calls and FinishTurn.
func (e *engine) turn(prev *TurnContext) (turnResult, error) {
	var prepared []Message
	if prev != nil {
		var err error
		if prepared, err = e.startNextTurn(*prev); err != nil {
			return turnResult{}, err
		}
	}
	if err := e.deliverPending(prepared); err != nil {
		return turnResult{}, err
	}
	if err := e.prepareRequest(); err != nil {
		return turnResult{}, err
	}
	msg, err := e.streamResponse()
	if err != nil {
		return turnResult{}, err
	}
	e.last = msg
	e.newMessages = append(e.newMessages, msg)
	if msg.StopReason.Failed() {
		return turnResult{ended: true}, e.endFailedTurn(msg)
	}
	results, more, err := e.runToolCalls(msg)
	if err != nil {
		return turnResult{}, err
	}
	return e.finishTurn(msg, results, more)
}

// startNextTurn runs PrepareNextTurn, polls steering again when nothing is
// pending, and emits turn_start. It returns the messages the hook added.
func (e *engine) startNextTurn(prev TurnContext) ([]Message, error) {
	var prepared []Message
	if h := e.cfg.PrepareNextTurn; h != nil {
		upd, err := h(e.ctx, prev)
		if err != nil {
			return nil, err
		}
		if upd != nil {
			if err := e.apply(upd.Context, upd.Model, upd.ThinkingLevel); err != nil {
				return nil, err
			}
			prepared = upd.Messages
		}
	}
	if len(e.pending) == 0 {
		e.pollSteering()
	}
	return prepared, e.emit(&TurnStartEvent{})
}

// deliverPending emits the messages PrepareNextTurn added, then the pending
// ones, with the tool declarations they need, and adds them to the context.
func (e *engine) deliverPending(prepared []Message) error {
	batch := e.pending
	if len(prepared) > 0 {
		batch = append(slices.Clip(prepared), e.pending...)
	}
	batch, err := valueMessages("pending message", batch)
	if err != nil {
		return err
	}
	out, inserted := e.declareToolChanges(batch)
	for i, m := range out {
		if err := e.deliver(m, i, inserted, len(prepared)); err != nil {
			return err
		}
		e.cur.Messages = append(e.cur.Messages, m)
		e.newMessages = append(e.newMessages, m)
	}
	e.pending = nil
	e.hold(nil, 0)
	return nil
}

// prepareRequest runs PrepareRequest and applies its update.
func (e *engine) prepareRequest() error {
	h := e.cfg.PrepareRequest
	if h == nil {
		return nil
	}
	upd, err := h(e.ctx, RequestContext{Context: e.agentContext(), Model: e.cfg.Model, ThinkingLevel: e.level})
	if err != nil || upd == nil {
		return err
	}
	return e.apply(upd.Context, upd.Model, upd.ThinkingLevel)
}

// apply adopts what a hook's update replaces; nil and empty keep the
// current value. A replaced context is the engine's own from then on: it
// is clipped, so the loop's appends copy it, and its pointer blocks are
// made values.
func (e *engine) apply(c *AgentContext, m *Model, l ThinkingLevel) error {
	if c != nil {
		msgs, err := valueContext("context message", c.Messages)
		if err != nil {
			return err
		}
		e.cur = AgentContext{Messages: slices.Clip(msgs), Tools: slices.Clip(c.Tools)}
		e.tools.reset()
		e.llm = llmView{}
	}
	if m != nil {
		e.cfg.Model = *m
	}
	if l != "" {
		e.level = l
	}
	return nil
}

// endFailedTurn ends the run after a failed or aborted response: FinishTurn
// runs but its decision is ignored.
func (e *engine) endFailedTurn(msg *AssistantMessage) error {
	if h := e.cfg.FinishTurn; h != nil {
		if _, err := h(e.ctx, e.turnContext(msg, nil)); err != nil {
			return err
		}
	}
	return e.emitAll(&TurnEndEvent{Message: msg, ToolResults: []*ToolResultMessage{}}, e.endEvent())
}

// runToolCalls executes the message's tool calls, or fails them all when
// the response was cut short, and adds their results to the context. more
// is true when the model is to be asked again.
func (e *engine) runToolCalls(msg *AssistantMessage) (results []*ToolResultMessage, more bool, err error) {
	if !msg.hasToolCalls() {
		return []*ToolResultMessage{}, false, nil
	}
	var b toolBatchResult
	if msg.StopReason == StopLength {
		b, err = e.failTruncated(msg)
	} else {
		b, err = e.executeToolCalls(msg)
	}
	if err != nil {
		return nil, false, err
	}
	for _, r := range b.messages {
		e.cur.Messages = append(e.cur.Messages, r)
		e.newMessages = append(e.newMessages, r)
	}
	return b.messages, !b.terminate, nil
}

// finishTurn runs FinishTurn and emits turn_end; it ends the run when the
// hook said so, else it polls steering for the next turn.
func (e *engine) finishTurn(msg *AssistantMessage, results []*ToolResultMessage, more bool) (turnResult, error) {
	t := turnResult{context: e.turnContext(msg, view(results)), moreToolCalls: more}
	if h := e.cfg.FinishTurn; h != nil {
		var err error
		if t.decision, err = h(e.ctx, t.context); err != nil {
			return t, err
		}
	}
	if err := e.emit(&TurnEndEvent{Message: msg, ToolResults: results}); err != nil {
		return t, err
	}
	if t.decision == TurnEnd {
		t.ended = true
		return t, e.emit(e.endEvent())
	}
	e.pollSteering()
	return t, nil
}

// pollSteering takes the steering messages the next turn delivers.
func (e *engine) pollSteering() {
	e.pending = e.steering()
	e.hold(e.pending, SteeringQueue)
}

// pollFollowUps takes the follow-up messages when the run would end; it
// reports whether there were any.
func (e *engine) pollFollowUps() bool {
	follow := e.followUps()
	if len(follow) == 0 {
		return false
	}
	e.pending = follow
	e.hold(follow, FollowUpQueue)
	return true
}
