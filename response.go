package agentcore

import (
	"fmt"
	"slices"
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

// responseReader is the state of one response being read from its stream.
type responseReader struct {
	e       *engine
	partial *AssistantMessage // the snapshot in the context, nil before start
	final   *AssistantMessage // set with err when the response is over
	err     error
}

// readResponse emits the events of stream and returns the final message,
// which is in the context.
func (e *engine) readResponse(stream AssistantStream) (*AssistantMessage, error) {
	r := &responseReader{e: e}
	if stream != nil {
		stream(r.next)
	}
	if r.final == nil && r.err == nil {
		// The stream ended without a final event: it broke its contract.
		r.finish(r.failed(ErrStreamIncomplete))
	}
	return r.final, r.err
}

// failed is the final message of a response the loop ends itself: the
// partial so far, with stopReason error (aborted when the run was) and
// err.
func (r *responseReader) failed(err error) *AssistantMessage {
	final := failedMessage(r.partial, r.e.cfg.Model, err)
	if r.e.ctx.Err() != nil {
		final.StopReason = StopAborted
	}
	return final
}

// MaxResponseBlocks is the most content blocks a response may have. Each
// streamed event hands listeners a snapshot of the message that nobody
// changes, which costs a copy of the block list; past this many blocks a
// response is ended as an error, so that a runaway or hostile provider
// cannot make a run's cost grow with the square of its reply. No model
// answers with anywhere near this many blocks.
const MaxResponseBlocks = 1024

// ErrTooManyBlocks is the error of a response ended past MaxResponseBlocks
// content blocks; a run's [RunError] unwraps to it.
var ErrTooManyBlocks = fmt.Errorf("agentcore: the response has more than %d content blocks", MaxResponseBlocks)

// next takes one event of the stream; it returns false once the response
// is over, so a stream that goes on after its final event is not heard.
//
// Listeners get snapshots: every event whose partial is the producer's
// working message carries a copy of it instead, which nobody changes.
func (r *responseReader) next(ev AssistantEvent) bool {
	if r.final != nil || r.err != nil {
		return false
	}
	if isNilEvent(ev) {
		return true // a stream's nil event, ignored as StreamWriter.Push ignores it
	}
	e := r.e
	switch ev := ev.(type) {
	case *StartEvent:
		partial := emptyAssistant(e.cfg.Model)
		if ev.Partial != nil {
			partial = snapshot(ev.Partial)
		}
		r.partial = partial
		e.cur.Messages = append(e.cur.Messages, r.partial)
		r.err = e.emit(&MessageStartEvent{Message: r.partial})
	case *DoneEvent:
		r.finish(e.orEmpty(ev.Message))
	case *ErrorEvent:
		r.finish(e.orEmpty(ev.Message))
	default:
		if r.partial == nil {
			return true
		}
		if p := ev.partial(); p != nil {
			if len(p.Content) > MaxResponseBlocks {
				r.finish(r.failed(ErrTooManyBlocks))
				return false
			}
			r.partial = snapshot(p)
			e.cur.Messages[len(e.cur.Messages)-1] = r.partial
		}
		ev.setPartial(r.partial) // the event is the consumer's: see AssistantEvent
		r.err = e.emit(&MessageUpdateEvent{Message: r.partial, AssistantEvent: ev})
	}
	return r.final == nil && r.err == nil
}

// snapshot returns a copy of a producer's working message that nobody
// changes: the message and its block list are copied, the blocks (values,
// see [AssistantStream]) are shared.
func snapshot(p *AssistantMessage) *AssistantMessage {
	s := *p
	s.Content = slices.Clip(slices.Clone(p.Content))
	return &s
}

// finish puts the final message in the context and emits its end.
func (r *responseReader) finish(final *AssistantMessage) {
	e := r.e
	final.ThinkingLevel = e.level
	r.final = final
	if r.partial != nil {
		e.cur.Messages[len(e.cur.Messages)-1] = final
	} else {
		e.cur.Messages = append(e.cur.Messages, final)
		if r.err = e.emit(&MessageStartEvent{Message: final}); r.err != nil {
			return
		}
	}
	r.err = e.emit(&MessageEndEvent{Message: final})
}

func (e *engine) orEmpty(m *AssistantMessage) *AssistantMessage {
	if m != nil {
		return m
	}
	m = emptyAssistant(e.cfg.Model)
	m.StopReason = StopError
	m.ErrorMessage = "stream function sent a final event without a message"
	return m
}

// llmView is the default ConvertToLLM kept up to date incrementally: the
// context only grows between requests (its last element may be replaced by
// a final assistant message, which is standard like the partial it
// replaces), so each request converts only the messages added since the
// last one, and a transcript of standard messages is used as it is.
type llmView struct {
	upTo     int
	filtered []Message // nil while every message so far was standard
}

func (v *llmView) update(msgs []Message) []Message {
	if v.upTo > len(msgs) {
		*v = llmView{}
	}
	for i := v.upTo; i < len(msgs); i++ {
		standard := IsStandard(msgs[i])
		switch {
		case v.filtered == nil && standard:
		case v.filtered == nil:
			v.filtered = append(make([]Message, 0, len(msgs)), msgs[:i]...)
		case standard:
			v.filtered = append(v.filtered, msgs[i])
		}
	}
	v.upTo = len(msgs)
	if v.filtered == nil {
		return msgs
	}
	return v.filtered
}
