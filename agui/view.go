package agui

import (
	"encoding/json"
	"reflect"
	"slices"
)

// shown is a message as an AG-UI client holds it: built from the events
// the handler writes, the way @ag-ui/client builds it, or decoded from a
// message JSON.
type shown struct {
	outMessage

	text    []byte // the content streamed so far, when streamed is set
	streamd bool
}

// content is the message's content as JSON, "" standing for none.
func (m *shown) content() any {
	raw := m.Content
	if m.streamd {
		raw = stringJSON(string(m.text))
	}
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return ""
	}
	return v
}

// same reports whether the client shows a as b.
func same(a, b *shown) bool {
	return a.ID == b.ID && a.Role == b.Role && a.ToolCallID == b.ToolCallID && a.Error == b.Error &&
		a.EncryptedValue == b.EncryptedValue && slices.Equal(a.ToolCalls, b.ToolCalls) &&
		reflect.DeepEqual(a.content(), b.content())
}

// view is the client's message list as the handler's events leave it.
// AG-UI clients append a message an event names that they lack, put a
// tool result after the results of its call's message, and apply a
// MESSAGES_SNAPSHOT by replacing the messages it names in place, dropping
// the others (reasoning messages stay when it names none) and appending
// the new ones in its order: so a message that belongs before messages
// the client holds reaches its place only through two snapshots, the
// part both agree on, then the whole list.
type view struct {
	msgs []*shown
}

// newView is the view of a client that sent msgs (activity messages,
// which transcripts do not hold, left out).
func newView(msgs []wireMessage) *view {
	v := &view{}
	for _, m := range msgs {
		if m.Role == roleActivity {
			continue
		}
		s := &shown{}
		if json.Unmarshal(m.raw, s) == nil {
			v.msgs = append(v.msgs, s)
		}
	}
	return v
}

// find returns the message of the ID, or nil.
func (v *view) find(id string) *shown {
	for _, m := range slices.Backward(v.msgs) {
		if m.ID == id {
			return m
		}
	}
	return nil
}

// open returns the message of the ID, appending it when the client lacks
// it.
func (v *view) open(id, role string) *shown {
	if m := v.find(id); m != nil {
		return m
	}
	m := &shown{outMessage: outMessage{ID: id, Role: role}}
	v.msgs = append(v.msgs, m)
	return m
}

// apply changes the view as the client applies ev.
func (v *view) apply(ev any) {
	switch ev := ev.(type) {
	case messageStart:
		m := v.open(ev.MessageID, ev.Role)
		m.streamd = true
	case messageContent:
		if m := v.find(ev.MessageID); m != nil {
			m.streamd = true
			m.text = append(m.text, ev.Delta...)
		}
	case encryptedValue:
		if ev.Subtype == "message" {
			if m := v.find(ev.EntityID); m != nil {
				m.EncryptedValue = ev.EncryptedValue
			}
		}
	case toolCallStart:
		m := v.open(ev.ParentMessageID, roleAssistant)
		m.ToolCalls = append(m.ToolCalls, outToolCall{ID: ev.ToolCallID, Type: "function", Function: outFunction{Name: ev.ToolCallName}})
	case toolCallArgs:
		for _, m := range slices.Backward(v.msgs) {
			if i := slices.IndexFunc(m.ToolCalls, func(c outToolCall) bool { return c.ID == ev.ToolCallID }); i >= 0 {
				m.ToolCalls[i].Function.Arguments += ev.Delta
				break
			}
		}
	case toolCallResult:
		v.result(&shown{outMessage: outMessage{ID: ev.MessageID, Role: roleTool, ToolCallID: ev.ToolCallID, Content: ev.Content}})
	case messagesSnapshot:
		v.snapshot(ev.Messages)
	}
}

// result places a tool result after the results of its call's message.
func (v *view) result(r *shown) {
	at := slices.IndexFunc(v.msgs, func(m *shown) bool {
		return m.Role == roleAssistant && slices.ContainsFunc(m.ToolCalls, func(c outToolCall) bool { return c.ID == r.ToolCallID })
	})
	if at < 0 {
		v.msgs = append(v.msgs, r)
		return
	}
	at++
	for at < len(v.msgs) && v.msgs[at].Role == roleTool {
		at++
	}
	v.msgs = slices.Insert(v.msgs, at, r)
}

// snapshot applies a MESSAGES_SNAPSHOT of msgs.
func (v *view) snapshot(msgs []json.RawMessage) {
	named := map[string]*shown{}
	var order []*shown
	reasoning := false
	for _, raw := range msgs {
		s := &shown{}
		_ = json.Unmarshal(raw, s)
		named[s.ID] = s
		order = append(order, s)
		reasoning = reasoning || s.Role == roleReasoning
	}
	kept := v.msgs[:0]
	held := map[string]bool{}
	for _, m := range v.msgs {
		if s := named[m.ID]; s != nil {
			kept = append(kept, s)
			held[m.ID] = true
		} else if m.Role == roleReasoning && !reasoning {
			kept = append(kept, m)
		}
	}
	for _, s := range order {
		if !held[s.ID] {
			kept = append(kept, s)
		}
	}
	v.msgs = kept
}

// matches reports whether the view shows want.
func (v *view) matches(want []json.RawMessage) bool {
	if len(v.msgs) != len(want) {
		return false
	}
	for i, raw := range want {
		s := &shown{}
		if json.Unmarshal(raw, s) != nil || !same(v.msgs[i], s) {
			return false
		}
	}
	return true
}

// agreed is how many of want's first messages the view shows as the
// first of its own.
func (v *view) agreed(want []json.RawMessage) int {
	n := 0
	for n < len(want) && n < len(v.msgs) {
		s := &shown{}
		if json.Unmarshal(want[n], s) != nil || !same(v.msgs[n], s) {
			break
		}
		n++
	}
	return n
}
