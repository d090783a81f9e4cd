package agentcore

import "slices"

// The Agent's two message queues: steering ([Agent.Steer]), delivered after
// the current turn's tool calls, and follow-ups ([Agent.FollowUp]),
// delivered when a run would end. Each has a [QueueMode]; a run that fails
// after taking messages and before delivering them puts them back
// (requeue).

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
	if q.mode == QueueModeAll {
		return slices.Clone(q.items)
	}
	return []Message{q.items[0]}
}

// drain takes the oldest message, or all of them in [QueueModeAll] mode.
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

// QueueMode says how many queued messages a drain point takes. The zero
// value means [QueueModeOneAtATime].
type QueueMode string

// The queue modes, named QueueMode... to tell them from the [Queue]
// values ([AllQueues] is both queues, not a mode).
const (
	// QueueModeOneAtATime takes only the oldest queued message at each
	// drain point.
	QueueModeOneAtATime QueueMode = "one-at-a-time"
	// QueueModeAll takes every queued message at once.
	QueueModeAll QueueMode = "all"
)

// orOneAtATime returns m, or [QueueModeOneAtATime] when m is empty.
func orOneAtATime(m QueueMode) QueueMode {
	if m == "" {
		return QueueModeOneAtATime
	}
	return m
}

// Steer queues m for injection after the current turn's tool calls, before
// the next request. It never interrupts work in progress; use
// [Agent.Abort] to stop. A nil m is ignored. A run that fails after taking
// m and before delivering it (its message_end) puts it back in the queue.
func (a *Agent) Steer(m Message) { a.enqueue(&a.steering, m) }

// FollowUp queues m to be processed when the run would otherwise end. A
// nil m is ignored. As with [Agent.Steer], a run that fails before
// delivering m puts it back in the queue.
func (a *Agent) FollowUp(m Message) { a.enqueue(&a.followUp, m) }

// enqueue appends m to q, one of the Agent's queues; a nil m is ignored.
func (a *Agent) enqueue(q *messageQueue, m Message) {
	if isNilMessage(m) {
		return
	}
	a.mu.Lock()
	q.push(m)
	a.mu.Unlock()
}

// SteeringMode returns how many steering messages a drain point takes.
func (a *Agent) SteeringMode() QueueMode {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.steering.mode
}

// FollowUpMode returns how many follow-up messages a drain point takes.
func (a *Agent) FollowUpMode() QueueMode {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.followUp.mode
}

// SetSteeringMode sets how many steering messages a drain point takes.
func (a *Agent) SetSteeringMode(m QueueMode) {
	a.mu.Lock()
	a.steering.mode = orOneAtATime(m)
	a.mu.Unlock()
}

// SetFollowUpMode sets how many follow-up messages a drain point takes.
func (a *Agent) SetFollowUpMode(m QueueMode) {
	a.mu.Lock()
	a.followUp.mode = orOneAtATime(m)
	a.mu.Unlock()
}

// Queue names the Agent's message queues, for [Agent.ClearQueue].
type Queue uint8

// The queues.
const (
	// SteeringQueue holds the messages of [Agent.Steer].
	SteeringQueue Queue = 1 << iota
	// FollowUpQueue holds the messages of [Agent.FollowUp].
	FollowUpQueue
	// AllQueues is both.
	AllQueues = SteeringQueue | FollowUpQueue
)

// ClearQueue drops the messages queued in q: [SteeringQueue],
// [FollowUpQueue] or [AllQueues].
func (a *Agent) ClearQueue(q Queue) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if q&SteeringQueue != 0 {
		a.steering.clear()
	}
	if q&FollowUpQueue != 0 {
		a.followUp.clear()
	}
}

// HasQueued reports whether either queue holds a message.
func (a *Agent) HasQueued() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.steering.items) > 0 || len(a.followUp.items) > 0
}

// PeekQueued returns what the next drain point would take, without taking
// it: steering first, else follow-ups, by each queue's mode.
func (a *Agent) PeekQueued() []Message {
	a.mu.Lock()
	defer a.mu.Unlock()
	if s := a.steering.peek(); len(s) > 0 {
		return s
	}
	return a.followUp.peek()
}

// requeue puts msgs, which a failed run took from queue q and did not
// deliver, back at the front of q, oldest first, as if never taken.
func (a *Agent) requeue(msgs []Message, q Queue) {
	msgs = withoutNil(msgs)
	if len(msgs) == 0 {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	target := &a.steering
	if q == FollowUpQueue {
		target = &a.followUp
	}
	target.items = append(msgs, target.items...)
}
