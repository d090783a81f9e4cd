package agui

import "encoding/json"

// Transcript returns a thread's transcript as AG-UI messages, the list a
// client should hold after the thread's last answer: the handler's
// mapping, with the same IDs. It is nil for a thread the handler does
// not hold.
func (h *Handler) Transcript(threadID string) []json.RawMessage {
	h.mu.Lock()
	t := h.threads[threadID]
	h.mu.Unlock()
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.snapshot(t.agent.Messages())
}
