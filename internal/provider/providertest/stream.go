package providertest

import "github.com/pi-go/agentcore"

// HiRequest is the one-message transcript the reference was run with.
func HiRequest() agentcore.Request {
	return agentcore.Request{Messages: []agentcore.Message{&agentcore.UserMessage{Content: agentcore.Text("Hi"), Timestamp: 1}}}
}

// Collect ranges over s, calling each (when not nil) after every event (it
// may cancel the stream's context), and returns copies of the events and
// the final message, nil when the stream had no final event.
func Collect(s agentcore.AssistantStream, each func(agentcore.AssistantEvent)) ([]agentcore.AssistantEvent, *agentcore.AssistantMessage) {
	var events []agentcore.AssistantEvent
	var final *agentcore.AssistantMessage
	for ev := range s {
		events = append(events, agentcore.CloneEvent(ev))
		switch ev := ev.(type) {
		case *agentcore.DoneEvent:
			final = ev.Message
		case *agentcore.ErrorEvent:
			final = ev.Message
		}
		if each != nil {
			each(ev)
		}
	}
	return events, final
}
