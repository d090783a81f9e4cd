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

	var partial, copied *AssistantMessage
	// share returns what the run shows of the producer's partial p: p
	// itself, or a copy (the last one again when nothing changed).
	share := func(p *AssistantMessage) *AssistantMessage {
		if e.partials == partialsShared {
			return p
		}
		if copied == nil || !copied.sameState(p) {
			copied = p.Clone()
		}
		return copied
	}
	finish := func(final *AssistantMessage) (*AssistantMessage, error) {
		final.ThinkingLevel = e.level
		if partial != nil {
			e.cur.Messages[len(e.cur.Messages)-1] = final
		} else {
			e.cur.Messages = append(e.cur.Messages, final)
			if err := e.emit(MessageStartEvent{Message: final}); err != nil {
				return nil, err
			}
		}
		return final, e.emit(MessageEndEvent{Message: final})
	}
	if stream != nil {
		for ev := range stream {
			switch ev := ev.(type) {
			case StartEvent:
				if ev.Partial == nil {
					partial = e.emptyAssistant()
				} else {
					partial = share(ev.Partial)
				}
				e.cur.Messages = append(e.cur.Messages, partial)
				if err := e.emit(MessageStartEvent{Message: partial}); err != nil {
					return nil, err
				}
			case DoneEvent:
				return finish(e.orEmpty(ev.Message))
			case ErrorEvent:
				return finish(e.orEmpty(ev.Message))
			default:
				if partial == nil {
					continue
				}
				if p := ev.partial(); p != nil {
					partial = share(p)
					e.cur.Messages[len(e.cur.Messages)-1] = partial
					if e.partials == partialsCopiedEverywhere {
						ev = withPartial(ev, partial)
					}
				}
				if err := e.emit(MessageUpdateEvent{Message: partial, AssistantEvent: ev}); err != nil {
					return nil, err
				}
			}
		}
	}
	// A stream that ended without a final event broke its contract.
	final := e.emptyAssistant()
	if partial != nil {
		final = partial.Clone()
	}
	final.StopReason = StopError
	if e.ctx.Err() != nil {
		final.StopReason = StopAborted
	}
	final.ErrorMessage = ErrStreamIncomplete.Error()
	return finish(final)
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
