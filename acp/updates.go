package acp

import (
	"context"

	"github.com/pi-go/agentcore"
)

// onEvent streams the Agent's run to the client as session/update
// notifications. It runs on the run's goroutine (an Agent's listeners are
// awaited), so the updates go out in the run's order. Events it does not
// know are ignored.
func (s *sess) onEvent(_ context.Context, ev agentcore.AgentEvent) {
	switch ev := ev.(type) {
	case *agentcore.MessageUpdateEvent:
		switch a := ev.AssistantEvent.(type) {
		case *agentcore.TextDeltaEvent:
			s.chunk("agent_message_chunk", contentBlock{Type: "text", Text: a.Delta})
		case *agentcore.ThinkingDeltaEvent:
			s.chunk("agent_thought_chunk", contentBlock{Type: "text", Text: a.Delta})
		}
	case *agentcore.MessageEndEvent:
		if m, ok := ev.Message.(*agentcore.AssistantMessage); ok {
			s.usage(m)
		}
	case *agentcore.ToolExecutionStartEvent:
		s.tools.start(ev.ToolCallID, ev.ToolName, ev.Args)
	case *agentcore.ToolExecutionUpdateEvent:
		s.tools.progress(ev.ToolCallID, ev.PartialResult)
	case *agentcore.ToolExecutionEndEvent:
		if s.gate.Holds(ev.ToolCallID) {
			// Held for permission: the call stays pending until decided.
			return
		}
		s.tools.finish(ev.ToolCallID, ev.Result, ev.IsError)
	}
}

func (s *sess) chunk(kind string, b contentBlock) {
	if b.Type == "text" && b.Text == "" {
		return
	}
	s.c.update(s.id, contentChunk{SessionUpdate: kind, Content: b})
}

// usage tells the client how full the context is after a response, and
// what the session's responses cost, when the model's window is known.
func (s *sess) usage(m *agentcore.AssistantMessage) {
	st := s.agent.State()
	if st.Model.ContextWindow <= 0 || m.StopReason.Failed() {
		return
	}
	u := m.Usage
	used := u.Input + u.Output + u.CacheRead + u.CacheWrite
	var total float64
	for _, msg := range st.Messages {
		if a, ok := msg.(*agentcore.AssistantMessage); ok {
			total += a.Usage.Cost.Total
		}
	}
	up := usageUpdate{SessionUpdate: "usage_update", Used: used, Size: int64(st.Model.ContextWindow)}
	if total > 0 {
		up.Cost = &cost{Amount: total, Currency: "USD"}
	}
	s.c.update(s.id, up)
}

// replay sends a loaded session's conversation: the user's messages, the
// agent's text and thoughts, and its tool calls with their results.
func (s *sess) replay(msgs []agentcore.Message) {
	for _, m := range msgs {
		switch m := m.(type) {
		case *agentcore.UserMessage:
			for _, b := range m.Content.Blocks {
				if cb, ok := contentOf(b); ok {
					s.chunk("user_message_chunk", cb)
				}
			}
		case *agentcore.AssistantMessage:
			for _, b := range m.Content {
				switch b := b.(type) {
				case agentcore.TextBlock:
					s.chunk("agent_message_chunk", contentBlock{Type: "text", Text: b.Text})
				case agentcore.ThinkingBlock:
					if !b.Redacted {
						s.chunk("agent_thought_chunk", contentBlock{Type: "text", Text: b.Thinking})
					}
				case agentcore.ToolCall:
					s.tools.start(b.ID, b.Name, b.Arguments)
				}
			}
		case *agentcore.ToolResultMessage:
			s.tools.finish(m.ToolCallID, agentcore.ToolResult{Content: m.Content, Details: m.Details}, m.IsError)
		}
	}
}
