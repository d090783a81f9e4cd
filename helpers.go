package agentcore

import "sync"

// helperPool keeps the goroutines that help run a run's batches, so that a
// batch neither starts goroutines nor grows their stacks again. Helpers are
// started on demand and joined by stop, when the run ends.
type helperPool struct {
	handoff chan helperJob
	wg      sync.WaitGroup
}

// helperJob asks a helper to claim calls of b or, with deliver, to deliver
// its queue (the delivery role is already the helper's).
type helperJob struct {
	b       *toolBatch
	deliver bool
}

// hand gives j to an idle helper, or to a new one. It is called from the
// goroutines running a batch and from tools reporting updates, never after
// the batch ended.
func (p *helperPool) hand(j helperJob) {
	select {
	case p.handoff <- j:
	default:
		p.wg.Add(1)
		go p.help(j)
	}
}

func (p *helperPool) help(j helperJob) {
	defer p.wg.Done()
	for ok := true; ok; j, ok = <-p.handoff {
		if j.deliver {
			j.b.mu.Lock()
			j.b.deliverLocked()
		} else {
			j.b.work(true)
		}
	}
}

// stop ends the helpers and waits for them.
func (p *helperPool) stop() {
	if p.handoff != nil {
		close(p.handoff)
		p.wg.Wait()
		p.handoff = nil
	}
}
