package agentcore

// partialsMode is what a run shows of the partial messages a stream yields.
type partialsMode uint8

const (
	// partialsCopied: message_start and message_update carry a copy of the
	// partial (the Agent's default); the stream's own event is passed on as
	// it is, its Partial valid during the event only.
	partialsCopied partialsMode = iota
	// partialsShared: they carry the stream's own message, valid during
	// the event only (Options.LivePartials).
	partialsShared
	// partialsCopiedEverywhere: the stream's event carries the copy too, for
	// events read on another goroutine (RunLoop).
	partialsCopiedEverywhere
)

// streamResponse makes one model request and emits the assistant message's
// events. The returned message is in the context and final.
func (e *engine) streamResponse() (*AssistantMessage, error) {
	messages := view(e.cur.Messages)
	var err error
	if h := e.cfg.TransformContext; h != nil {
		if messages, err = h(e.ctx, messages); err != nil {
			return nil, err
		}
	}
	var llm []Message
	switch {
	case e.cfg.ConvertToLLM != nil:
		if llm, err = e.cfg.ConvertToLLM(e.ctx, view(messages)); err != nil {
			return nil, err
		}
	case e.cfg.TransformContext != nil:
		llm, _ = DefaultConvertToLLM(e.ctx, messages)
	default:
		llm = e.llm.update(e.cur.Messages)
	}
	key := ""
	if h := e.cfg.GetAPIKey; h != nil {
		if key, err = h(e.ctx, e.cfg.Model.Provider); err != nil {
			return nil, err
		}
	}
	opts := e.cfg.StreamOptions
	if key != "" {
		opts.APIKey = key
	}
	opts.Reasoning = e.level.reasoning()
	model := e.cfg.Model
	stream := e.stream(e.ctx, model, Request{Messages: view(llm)}, opts)
	return e.readResponse(stream)
}

// responseReader is the state of one response being read from its stream:
// an engine's, reused from request to request, with its yield bound once.
type responseReader struct {
	e       *engine
	yield   func(AssistantEvent) bool
	partial *AssistantMessage // the partial in the context, nil before start
	copied  *AssistantMessage // the last copy made of a partial
	room    *MessageUpdate    // allocated with a copy, for an event's update; nil once used
	final   *AssistantMessage // set with err when the response is over
	err     error
	live    MessageUpdate // the update of every event, with live partials
}

// readResponse emits the events of stream and returns the final message,
// which is in the context.
func (e *engine) readResponse(stream AssistantStream) (*AssistantMessage, error) {
	r := &e.reader
	if r.yield == nil {
		r.e, r.yield = e, r.next
	}
	if stream != nil {
		stream(r.yield)
	}
	if r.final == nil && r.err == nil {
		// The stream ended without a final event: it broke its contract.
		final := e.emptyAssistant()
		if r.partial != nil {
			final = r.partial.Clone()
		}
		final.StopReason = StopError
		if e.ctx.Err() != nil {
			final.StopReason = StopAborted
		}
		final.ErrorMessage = ErrStreamIncomplete.Error()
		r.finish(final)
	}
	final, err := r.final, r.err
	// Ready for the next request. The live update keeps its last event: a
	// listener that kept one against the rules reads a stale event, not a
	// nil one.
	*r = responseReader{e: e, yield: r.yield, live: r.live}
	return final, err
}

// next takes one event of the stream; it returns false once the response
// is over.
func (r *responseReader) next(ev AssistantEvent) bool {
	e := r.e
	switch ev := ev.(type) {
	case StartEvent:
		if ev.Partial == nil {
			r.partial = e.emptyAssistant()
		} else {
			r.partial = r.share(ev.Partial, ev)
		}
		e.cur.Messages = appendMessage(e.cur.Messages, r.partial)
		r.fail(e.emit(MessageStartEvent{Message: r.partial}))
	case DoneEvent:
		r.finish(e.orEmpty(ev.Message))
	case ErrorEvent:
		r.finish(e.orEmpty(ev.Message))
	default:
		if r.partial == nil {
			return true
		}
		if p := ev.partial(); p != nil {
			// A partial shared as it is stays the same message: storing
			// it again would cost write barriers while a collection marks.
			if q := r.share(p, ev); q != r.partial {
				r.partial = q
				e.cur.Messages[len(e.cur.Messages)-1] = q
			}
			if e.partials == partialsCopiedEverywhere {
				ev = withPartial(ev, r.partial)
			}
		}
		r.fail(e.emit(MessageUpdateEvent{r.update(ev)}))
	}
	return r.final == nil && r.err == nil
}

// update returns the MessageUpdate of an event for ev: with live partials
// the reader's own, reused from event to event (the event is valid during
// the call only, as its partial is), otherwise a new one, allocated with
// the copy of the partial when it was just made.
func (r *responseReader) update(ev AssistantEvent) *MessageUpdate {
	if r.e.partials != partialsShared {
		u := r.room
		if u == nil {
			u = new(MessageUpdate)
		}
		r.room = nil
		u.Message, u.AssistantEvent = r.partial, ev
		return u
	}
	if r.live.Message != r.partial {
		r.live.Message = r.partial
	}
	r.live.AssistantEvent = ev
	return &r.live
}

// fail records err, the first error of the response; nil changes nothing
// (and, unlike storing it, costs no write barrier while a collection marks).
func (r *responseReader) fail(err error) {
	if err != nil && r.err == nil {
		r.err = err
	}
}

// share returns what the run shows of the producer's partial p, ev's: p
// itself, or a copy (the last one again when nothing changed).
func (r *responseReader) share(p *AssistantMessage, ev AssistantEvent) *AssistantMessage {
	if r.e.partials == partialsShared {
		return p
	}
	if r.copied == nil || grows(ev) || !r.copied.sameState(p) {
		r.copied, r.room = p.cloneWithRoom()
	}
	return r.copied
}

// grows reports whether ev is a delta that adds to its partial, which then
// changed without comparing it (a producer that lags behind its events
// gets a copy too many, not a wrong one).
func grows(ev AssistantEvent) bool {
	switch ev := ev.(type) {
	case TextDeltaEvent:
		return ev.Delta != ""
	case ThinkingDeltaEvent:
		return ev.Delta != ""
	case ToolCallDeltaEvent:
		return ev.Delta != ""
	}
	return false
}

// finish puts the final message in the context and emits its end.
func (r *responseReader) finish(final *AssistantMessage) {
	e := r.e
	final.ThinkingLevel = e.level
	r.final = final
	if r.partial != nil {
		e.cur.Messages[len(e.cur.Messages)-1] = final
	} else {
		e.cur.Messages = appendMessage(e.cur.Messages, final)
		if r.err = e.emit(MessageStartEvent{Message: final}); r.err != nil {
			return
		}
	}
	r.err = e.emit(MessageEndEvent{Message: final})
}

func (e *engine) orEmpty(m *AssistantMessage) *AssistantMessage {
	if m != nil {
		return m
	}
	m = e.emptyAssistant()
	m.StopReason = StopError
	m.ErrorMessage = "stream function sent a final event without a message"
	return m
}

// emptyAssistant is an assistant message with no content for the current model.
func (e *engine) emptyAssistant() *AssistantMessage {
	return &AssistantMessage{
		Content: []ContentBlock{}, API: e.cfg.Model.API, Provider: e.cfg.Model.Provider,
		Model: e.cfg.Model.ID, StopReason: StopStop, Timestamp: nowMillis(),
	}
}
