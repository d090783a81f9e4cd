package structured

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/partialjson"
)

// partials follows the final-answer tool's arguments (or a native answer's
// text) while they stream and
// hands the values they show to [Options].OnPartial. One is made per
// installation (an Agent, or a RunLoop run), whose events come one at a
// time; the mutex only guards against a program that shares it anyway.
type partials[T any] struct {
	a *Answer[T]

	mu    sync.Mutex
	calls map[int]*partialCall // by content index, for the message streaming
}

// partialCall is one streaming call of the final-answer tool.
type partialCall struct {
	p    partialjson.Parser
	last []byte // the JSON last delivered
}

func newPartials[T any](a *Answer[T]) *partials[T] {
	return &partials[T]{a: a}
}

// listen is the layer's listener.
func (ps *partials[T]) listen(ctx context.Context, ev agentcore.AgentEvent) {
	switch ev := ev.(type) {
	case *agentcore.MessageStartEvent:
		if _, ok := ev.Message.(*agentcore.AssistantMessage); ok {
			ps.mu.Lock()
			ps.calls = nil
			ps.mu.Unlock()
		}
	case *agentcore.MessageUpdateEvent:
		if v, ok := ps.update(ev); ok {
			ps.a.partial(ctx, v)
		}
	}
}

// update feeds an event of the final-answer tool's call, or of a native
// answer's text, to its parser and returns the value shown, when it
// changed.
func (ps *partials[T]) update(ev *agentcore.MessageUpdateEvent) (v T, changed bool) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	switch aev := ev.AssistantEvent.(type) {
	case *agentcore.ToolCallStartEvent:
		if ps.isAnswer(ev.Message, aev.ContentIndex) {
			if ps.calls == nil {
				ps.calls = map[int]*partialCall{}
			}
			ps.calls[aev.ContentIndex] = &partialCall{}
		}
	case *agentcore.TextStartEvent:
		if m := ev.Message; m != nil && ps.a.native(m.API, m.Provider, m.Model) {
			if ps.calls == nil {
				ps.calls = map[int]*partialCall{}
			}
			ps.calls[aev.ContentIndex] = &partialCall{}
		}
	case *agentcore.ToolCallDeltaEvent:
		return ps.feed(aev.ContentIndex, aev.Delta)
	case *agentcore.TextDeltaEvent:
		return ps.feed(aev.ContentIndex, aev.Delta)
	}
	return v, false
}

// feed appends delta to the streaming answer at content index i, when
// there is one, and returns the value shown, when it changed.
func (ps *partials[T]) feed(i int, delta string) (v T, changed bool) {
	c := ps.calls[i]
	if c == nil {
		return v, false
	}
	c.p.Append(delta)
	snap := c.p.Snapshot()
	if len(snap) == 0 || snap[0] != '{' || bytes.Equal(snap, c.last) {
		return v, false
	}
	if err := json.Unmarshal(snap, &v); err != nil {
		return v, false // a value of the wrong type so far: wait for more
	}
	c.last = snap
	return v, true
}

// isAnswer reports whether content block i of msg calls the final-answer
// tool.
func (ps *partials[T]) isAnswer(msg *agentcore.AssistantMessage, i int) bool {
	if msg == nil || i < 0 || i >= len(msg.Content) {
		return false
	}
	switch c := msg.Content[i].(type) {
	case agentcore.ToolCall:
		return c.Name == ps.a.name
	case *agentcore.ToolCall:
		return c != nil && c.Name == ps.a.name
	}
	return false
}
