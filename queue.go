package agentcore

import "slices"

// messageQueue is a steering or follow-up queue. The Agent's mutex guards it.
type messageQueue struct {
	mode  QueueMode
	items []Message
}

// peek returns what the next drain would take, without taking it.
func (q *messageQueue) peek() []Message {
	if len(q.items) == 0 {
		return nil
	}
	if q.mode == QueueAll {
		return slices.Clone(q.items)
	}
	return []Message{q.items[0]}
}

// drain takes the oldest message, or all of them in [QueueAll] mode.
func (q *messageQueue) drain() []Message {
	taken := q.peek()
	q.items = slices.Delete(q.items, 0, len(taken))
	if len(q.items) == 0 {
		q.items = nil
	}
	return taken
}

func (q *messageQueue) push(m Message) { q.items = append(q.items, m) }
func (q *messageQueue) clear()         { q.items = nil }
