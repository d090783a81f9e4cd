package session

import "github.com/pi-go/agentcore"

// endedEntry is the entry that records a message an Agent ended: a
// [CustomMessageEntry] for pi's custom messages (role "custom", a
// [*CustomMessage] or one kept as an [*agentcore.CustomMessage], such as
// a layer's message to the model), as pi's agent session records them, a
// [MessageEntry] for the others.
func endedEntry(m agentcore.Message) Entry {
	if c, ok := asRecorded(m).(*CustomMessage); ok {
		return &CustomMessageEntry{CustomType: c.CustomType, Content: c.Content, Display: c.Display, Details: c.Details}
	}
	return &MessageEntry{Message: m}
}

// asRecorded is m as the session's context holds it once recorded: pi's
// custom message kept as an [*agentcore.CustomMessage] (a layer's
// message to the model) is the [*CustomMessage] its entry gives back.
func asRecorded(m agentcore.Message) agentcore.Message {
	if cm, ok := m.(*agentcore.CustomMessage); ok && cm.RoleName == RoleCustom {
		if decoded, err := contextRegistry.UnmarshalMessage(cm.Raw); err == nil {
			return decoded
		}
	}
	return m
}
