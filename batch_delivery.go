package agentcore

// The events of a batch's execution phase (tool_execution_update and
// tool_execution_end) come from the goroutines running its calls and from
// tools reporting updates. They are posted to one queue and delivered one at
// a time, in posting order, by whichever goroutine holds the delivery role.

// delivery is a posted event and what its delivery releases.
type delivery struct {
	ev     AgentEvent
	update *callRun // an update of this call
	end    bool     // an end event
}

// post queues d for delivery. A goroutine that may deliver (canDeliver)
// delivers the queue itself when nobody does; otherwise a helper is called.
func (b *toolBatch) post(d delivery, canDeliver bool) {
	b.mu.Lock()
	b.posted = append(b.posted, d)
	if b.delivering {
		b.mu.Unlock()
		return
	}
	b.delivering = true
	if !canDeliver {
		b.mu.Unlock()
		b.e.helpers.hand(helperJob{b: b, deliver: true})
		return
	}
	b.deliverLocked()
}

// deliverLocked delivers the queue until it is empty, then gives up the
// delivery role. It is called holding mu and the role, and unlocks mu.
// After the first sink error events are dropped, and the tools cancelled.
// What a delivery releases is released after the role is given up when it
// was the last one, so that a goroutine it wakes never finds the role still
// taken.
func (b *toolBatch) deliverLocked() {
	for {
		d := b.posted[b.head]
		b.posted[b.head] = delivery{}
		b.head++
		err := b.err
		b.mu.Unlock()
		if err == nil {
			err = b.e.emit(d.ev)
		}
		b.mu.Lock()
		if err != nil && b.err == nil {
			b.err = err
			b.e.cancelTools()
		}
		last := b.head == len(b.posted)
		if last {
			b.posted, b.head, b.delivering = b.posted[:0], 0, false
			b.mu.Unlock()
		}
		switch {
		case d.update != nil:
			d.update.delivered.Done()
		case d.end:
			b.ended.Done()
		}
		if last {
			return
		}
	}
}

// postUpdate is the updates callback of the batch's calls: the tool goes
// on while its update waits for delivery.
func (b *toolBatch) postUpdate(c *callRun, r ToolResult) {
	c.delivered.Add(1)
	b.post(delivery{ev: c.updateEvent(r), update: c}, false)
}

// failure is the batch's error.
func (b *toolBatch) failure() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}
