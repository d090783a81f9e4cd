package hold

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/limit"
)

// Decide records decisions on held calls, any subset of them, from any
// goroutine, while the Agent runs or not. It does not run anything: the
// next run of the Agent ([agentcore.Agent.Continue], or a Prompt) applies
// them once every held call is decided, or a RunLoop caller does with
// [Gate.Resolve]. A decision decided during the run that held its call
// lets that run go on.
//
// Decide takes all the decisions or none: a nil decision, one naming a
// call the Gate does not hold ([ErrNotHeld]), a second decision on a call
// ([ErrDecided], by this Decide, an earlier one or a deadline), an Approve
// whose edited arguments the tool refuses (its preparation and schema
// validation) or an Answer with a nil content block ([ErrInvalidDecision])
// make it return every such problem, joined, and change nothing. Deadlines
// passed are applied first. The decisions are copied.
func (g *Gate) Decide(decisions ...Decision) error {
	expired := g.expire(g.now())
	defer g.emit(expired...)
	// Check the decisions' own content first, without the lock: checking
	// edited arguments may read the Agent's tools.
	var errs []error
	for i, d := range decisions {
		if d == nil {
			errs = append(errs, fmt.Errorf("%w: decisions[%d] is nil", ErrInvalidDecision, i))
			continue
		}
		if err := g.checkContent(d); err != nil {
			errs = append(errs, err)
		}
	}
	g.mu.Lock()
	seen := map[string]bool{}
	for _, d := range decisions {
		if d == nil {
			continue
		}
		id := d.callID()
		i := g.find(id)
		switch {
		case i < 0:
			errs = append(errs, fmt.Errorf("%w: %s", ErrNotHeld, limit.Quote(id)))
		case seen[id] || g.state.Calls[i].Decision != nil:
			errs = append(errs, fmt.Errorf("%w: %s", ErrDecided, limit.Quote(id)))
		}
		seen[id] = true
	}
	if len(errs) > 0 {
		g.mu.Unlock()
		return errors.Join(errs...)
	}
	decided := make([]Event, 0, len(decisions))
	for _, d := range decisions {
		c := &g.state.Calls[g.find(d.callID())]
		c.Decision = cloneDecision(d)
		decided = append(decided, &DecidedEvent{Call: c.clone()})
	}
	if len(decisions) > 0 {
		g.signal()
	}
	g.mu.Unlock()
	g.emit(decided...)
	return nil
}

// find returns the index of the held call id, or -1, holding mu.
func (g *Gate) find(id string) int {
	return slices.IndexFunc(g.state.Calls, func(c Call) bool { return c.ID == id })
}

// checkContent reports what makes d unusable whatever the state: edited
// arguments the tool refuses, a result with nil blocks.
func (g *Gate) checkContent(d Decision) error {
	switch d := d.(type) {
	case Approve:
		if d.Arguments == nil {
			return nil
		}
		g.mu.Lock()
		i := g.find(d.ID)
		var name string
		if i >= 0 {
			name = g.state.Calls[i].Tool
		}
		g.mu.Unlock()
		if i < 0 {
			return nil // reported as not held
		}
		if err := checkArguments(g.tool(name), d.ID, name, d.Arguments); err != nil {
			return fmt.Errorf("%w: %s: %w", ErrInvalidDecision, limit.Quote(d.ID), err)
		}
	case Answer:
		if _, err := agentcore.ValueBlocks(d.Result.Content); err != nil {
			return fmt.Errorf("%w: %s: %w", ErrInvalidDecision, limit.Quote(d.ID), err)
		}
	}
	return nil
}

// tool returns the tool named name as the last run wrapped it, else as
// the Agent has it; ok is false when neither knows it. It must not be
// called holding mu (it may read the Agent).
func (g *Gate) tool(name string) *agentcore.Tool {
	g.mu.Lock()
	t, ok := g.tools[name]
	agent := g.agent
	g.mu.Unlock()
	if ok {
		return &t
	}
	if agent != nil {
		for _, t := range agent.State().Tools {
			if t.Name == name {
				return &t
			}
		}
	}
	return nil
}

// checkArguments runs edited arguments through the call pipeline of tool
// (nil when unknown: then only their shape is checked) with an Execute
// that does nothing, so that they are prepared and validated exactly as a
// call's.
func checkArguments(tool *agentcore.Tool, id, name string, args json.RawMessage) error {
	if !json.Valid(args) || !bytes.HasPrefix(bytes.TrimSpace(args), []byte("{")) {
		return errors.New("the arguments are not a JSON object")
	}
	if tool == nil {
		return nil
	}
	t := *tool
	t.Execute = func(context.Context, string, json.RawMessage, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.ToolResult{}, nil
	}
	out := agentcore.RunToolCall(context.Background(), agentcore.ToolCall{ID: id, Name: name, Arguments: args}, agentcore.RunToolCallOptions{Tools: []agentcore.Tool{t}})
	if out.IsError {
		return errors.New(out.Result.Text())
	}
	return nil
}

// cloneDecision returns a copy of d the Gate owns.
func cloneDecision(d Decision) Decision {
	switch d := d.(type) {
	case Approve:
		d.Arguments = slices.Clone(d.Arguments)
		return d
	case Answer:
		d.Result.Content = slices.Clone(d.Result.Content)
		return d
	}
	return d
}

// expire applies the default decision to the calls past their deadline at
// now and returns their events, for the caller to emit.
func (g *Gate) expire(now time.Time) []Event {
	g.mu.Lock()
	var due []Call
	for _, c := range g.state.Calls {
		if c.expired(now) {
			due = append(due, c.clone())
		}
	}
	g.mu.Unlock()
	if len(due) == 0 {
		return nil
	}
	// OnDeadline runs without the lock; a decision taken meanwhile wins.
	decisions := make([]Decision, len(due))
	for i, c := range due {
		var d Decision
		if g.opts.OnDeadline != nil {
			d = g.opts.OnDeadline(c)
		}
		if d == nil || d.callID() != c.ID {
			d = Deny{ID: c.ID, Reason: textExpired}
		}
		decisions[i] = cloneDecision(d)
	}
	var evs []Event
	g.mu.Lock()
	defer g.mu.Unlock()
	for i, c := range due {
		if j := g.find(c.ID); j >= 0 && g.state.Calls[j].Decision == nil {
			held := &g.state.Calls[j]
			held.Decision, held.ByDeadline = decisions[i], true
			evs = append(evs, &DecidedEvent{Call: held.clone()})
		}
	}
	if len(evs) > 0 {
		g.signal()
	}
	return evs
}

// Wait blocks until no held call waits for a decision, applying the
// default decision of each deadline as it passes, and returns nil; or
// until ctx is done, returning its error. With nothing held it returns
// nil at once. It starts no goroutine; a program that holds calls for a
// process's lifetime runs it, then Continue.
func (g *Gate) Wait(ctx context.Context) error {
	for {
		g.emit(g.expire(g.now())...)
		g.mu.Lock()
		var next time.Time
		waiting := false
		for _, c := range g.state.Calls {
			if c.Decision != nil {
				continue
			}
			waiting = true
			if !c.Deadline.IsZero() && (next.IsZero() || c.Deadline.Before(next)) {
				next = c.Deadline
			}
		}
		changed := g.changed
		g.mu.Unlock()
		if !waiting {
			return nil
		}
		var deadline <-chan time.Time
		stop := func() bool { return false }
		if !next.IsZero() {
			t := time.NewTimer(time.Until(next))
			deadline, stop = t.C, t.Stop
		}
		select {
		case <-changed:
		case <-deadline:
		case <-ctx.Done():
			stop()
			return ctx.Err()
		}
		stop()
	}
}
