package temporal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/hold"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// holdChange marks, in a history, a session that held tool calls.
const holdChange = "hold-calls"

// decideDuringRunChange marks, in a history, a session that kept a decide
// request received during a run until the run ended, instead of refusing
// it as a decision on calls not held.
const decideDuringRunChange = "decide-during-run"

// QueryHeld is the name of the query answering what a session holds
// ([Session.Held]).
const QueryHeld = "held"

// Decisions are decisions on held calls as they cross Temporal, in a
// [Control] request: a JSON array of the decisions as
// [hold.UnmarshalDecision] reads them.
type Decisions []hold.Decision

// UnmarshalJSON reads a JSON array of decisions.
func (d *Decisions) UnmarshalJSON(data []byte) error {
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return fmt.Errorf("agentcore/durable: decisions: %w", err)
	}
	out := make(Decisions, len(raws))
	for i, raw := range raws {
		dec, err := hold.UnmarshalDecision(raw)
		if err != nil {
			return fmt.Errorf("agentcore/durable: decision %d: %w", i, err)
		}
		out[i] = dec
	}
	*d = out
	return nil
}

// Held returns what the session holds: the calls its last run held, each
// with its decision once made, until a run applies them. It is empty when
// nothing is held.
func (s *Session) Held(ctx context.Context) (hold.State, error) {
	v, err := s.c.QueryWorkflow(ctx, s.id, "", QueryHeld)
	if err != nil {
		return hold.State{}, fmt.Errorf("agentcore/durable: session %s: held: %w", s.id, err)
	}
	var st hold.State
	if err := v.Get(&st); err != nil {
		return hold.State{}, fmt.Errorf("agentcore/durable: session %s: held: %w", s.id, err)
	}
	return st, nil
}

// Decide records decisions on held calls, any subset of them, as
// [hold.Gate.Decide] does: all or none, refused with an error wrapping
// [hold.ErrNotHeld], [hold.ErrDecided] or [hold.ErrInvalidDecision]
// (edited arguments are validated against the tool's schema). It runs
// nothing: the session's next run ([Session.Continue], or a prompt)
// applies the decisions once every held call is decided. Sent while a
// run is active, it is applied when that run ends, and returns then: a
// run whose held calls it decides (with the other requests received
// meanwhile) goes on instead of ending held; one that did not hold the
// calls it names refuses it with [hold.ErrNotHeld] (see the package
// doc's Held calls). It is a [Control] request with a new key sent by
// [Session.Send]: recorded by the server even with no worker running
// ([ErrRecorded]).
func (s *Session) Decide(ctx context.Context, decisions ...hold.Decision) error {
	return s.Send(ctx, Control{Key: NewKey(), Kind: ControlDecide, Decisions: decisions})
}

// gate returns a Gate of the session type's holding options whose clock
// is now, holding st when not nil. OnEvent does not apply in a workflow.
func (o *Options) gate(now time.Time, st *hold.State) *hold.Gate {
	var ho hold.Options
	if o.Hold != nil {
		ho = *o.Hold
	}
	ho.OnEvent = nil
	ho.Now = func() time.Time { return now }
	g := hold.New(ho)
	if st != nil {
		_ = g.Restore(*st) // st came from a Gate's State
	}
	return g
}

// setHeld replaces what the session holds and wakes the deadline watcher.
func (ss *session) setHeld(h *hold.State) {
	if h != nil && len(h.Calls) == 0 {
		h = nil
	}
	ss.st.Held = h
	ss.heldGen++
}

// waiting refuses a run while held calls wait for a decision.
func (ss *session) waiting() error {
	if ss.st.Held == nil {
		return nil
	}
	if w := ss.st.Held.Undecided(); len(w) > 0 {
		return refuseWith(hold.ErrHeld, (&hold.HeldError{Calls: w}).Error())
	}
	return nil
}

// takeHeld moves what the session holds, all decided, into rec, the run
// starting: its first step applies the decisions.
func (ss *session) takeHeld(rec *runRecord) {
	if ss.st.Held != nil {
		rec.Held = ss.st.Held
		ss.setHeld(nil)
	}
}

// decide applies a decide request: the decisions, and any deadline
// passed, by the workflow's clock.
func (ss *session) decide(ctx workflow.Context, ds Decisions) error {
	if ss.opts.Hold == nil {
		return refuseWith(hold.ErrNotHeld, "the session type holds nothing")
	}
	if err := ss.room(2 * encodedSize(ds)); err != nil {
		return err
	}
	workflow.GetVersion(ctx, holdChange, workflow.DefaultVersion, 1)
	g := ss.opts.gate(workflow.Now(ctx), ss.st.Held)
	agentcore.NewStack([]agentcore.Layer{g}, agentcore.Hooks{}).Tools(ss.opts.Tools) // edited arguments are checked against them
	if err := g.Decide(ds...); err != nil {
		for _, sentinel := range []error{hold.ErrNotHeld, hold.ErrDecided, hold.ErrInvalidDecision} {
			if errors.Is(err, sentinel) {
				return temporal.NewApplicationError(err.Error(), refusalTypes[sentinel])
			}
		}
		return temporal.NewApplicationError(err.Error(), refusalTypes[hold.ErrInvalidDecision])
	}
	st := g.State()
	ss.setHeld(&st)
	return nil
}

// deferDecide keeps c, a decide request received while a run is active,
// in the run's record, to be applied when the run ends ([session.decideLate]);
// false when it is to be applied (or refused) now.
func (ss *session) deferDecide(ctx workflow.Context, c Control) bool {
	rec := ss.st.Run
	if rec == nil || ss.opts.Hold == nil || ss.room(2*encodedSize(c.Decisions)) != nil {
		return false
	}
	if workflow.GetVersion(ctx, decideDuringRunChange, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return false
	}
	rec.Decide = append(rec.Decide, c)
	return true
}

// deferred reports whether the decide request of key waits for the run's
// end.
func (ss *session) deferred(key string) bool {
	return ss.st.Run != nil && slices.ContainsFunc(ss.st.Run.Decide, func(c Control) bool { return c.Key == key })
}

// decideLate applies, in the order received, the decide requests rec, the
// run ending, kept, and records their keys. It reports whether the run
// goes on: it held calls, ended without failing or being aborted, and
// those requests decided every one of them, as a Gate's run on an Agent
// goes on when its held calls were decided before it returned.
func (ss *session) decideLate(ctx workflow.Context, rec *runRecord, failed bool) bool {
	if len(rec.Decide) == 0 {
		return false
	}
	for _, c := range rec.Decide {
		ss.applied(appliedKey{Key: c.Key}, ss.decide(ctx, c.Decisions))
	}
	return !failed && !rec.Aborted && ss.st.Held != nil && len(ss.st.Held.Undecided()) == 0
}

// goOn replaces rec, the run that held calls now all decided, with its
// continuation under the same number: it applies the decisions and goes
// on from the transcript, and its end is the run's.
func (ss *session) goOn(ctx workflow.Context, rec *runRecord) {
	next := &runRecord{Seq: rec.Seq, Base: len(ss.st.Transcript), Continue: true, Tools: map[string]toolOutcome{},
		Settings: ss.startSettings(ctx), Started: startTime(ctx)}
	ss.st.Run = next
	ss.takeHeld(next)
}

// watchDeadlines starts the workflow goroutine that applies the default
// decision of a held call at its deadline, a workflow timer.
func (ss *session) watchDeadlines(ctx workflow.Context) {
	workflow.Go(ctx, func(ctx workflow.Context) {
		for {
			gen := ss.heldGen
			changed := func() bool { return ss.heldGen != gen }
			next := ss.nextDeadline()
			if next.IsZero() {
				if err := workflow.Await(ctx, changed); err != nil {
					return
				}
				continue
			}
			if d := next.Sub(workflow.Now(ctx)); d > 0 {
				moved, err := workflow.AwaitWithTimeout(ctx, d, changed)
				if err != nil {
					return
				}
				if moved {
					continue
				}
			}
			g := ss.opts.gate(workflow.Now(ctx), ss.st.Held)
			_ = g.Decide() // applies the deadlines passed
			st := g.State()
			ss.setHeld(&st)
		}
	})
}

// nextDeadline is the earliest deadline of a held call still waiting;
// zero for none.
func (ss *session) nextDeadline() time.Time {
	var next time.Time
	if ss.st.Held == nil || ss.opts.Hold == nil {
		return next
	}
	for _, c := range ss.st.Held.Undecided() {
		if !c.Deadline.IsZero() && (next.IsZero() || c.Deadline.Before(next)) {
			next = c.Deadline
		}
	}
	return next
}

// heldKey is the key of an approved held call's outcome in a run's
// record.
func heldKey(callID string) string { return "held/" + callID }

// resolve is the first step of a run that applies decisions: it replaces
// the placeholders of the held calls in the transcript with their
// results ([hold.Gate.Resolve]), an approved call's outcome obtained by
// the tool activity and passed through the session's BeforeToolCall and
// AfterToolCall hooks (in the workflow): the calls whose outcomes are not recorded yet are
// returned as needs. A transcript that lost the placeholders (an edit)
// discards what was held.
func (ss *session) resolve(ctx workflow.Context) []need {
	rec := ss.st.Run
	var needs []need
	tools := make([]agentcore.Tool, len(ss.opts.Tools))
	for i, t := range ss.opts.Tools {
		name := t.Name
		t.Execute = func(_ context.Context, id string, args json.RawMessage, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			if o, ok := rec.Tools[heldKey(id)]; ok {
				return o.result()
			}
			needs = append(needs, need{request: -1, key: heldKey(id), tool: &toolInput{Name: name, CallID: id, Args: slices.Clone(args)}})
			return agentcore.TextResult(textPending), nil
		}
		tools[i] = t
	}
	g := ss.opts.gate(workflow.Now(ctx), rec.Held)
	// The session's hooks apply to an approved call as to any call, the
	// Gate's own first (it lets the call through); AfterToolCall only to
	// a recorded outcome, not to the placeholder of one still needed.
	h := agentcore.NewStack([]agentcore.Layer{g}, ss.opts.Hooks).Hooks()
	opts := agentcore.RunToolCallOptions{Tools: tools, BeforeToolCall: h.BeforeToolCall}
	if after := h.AfterToolCall; after != nil {
		opts.AfterToolCall = func(ctx context.Context, c agentcore.AfterToolCallContext) (*agentcore.AfterToolCallResult, error) {
			if _, ok := rec.Tools[heldKey(c.ToolCall.ID)]; !ok {
				return nil, nil
			}
			return after(ctx, c)
		}
	}
	out, err := g.Resolve(context.Background(), ss.st.Transcript, opts)
	if len(needs) > 0 {
		return needs
	}
	rec.Held = nil
	if err != nil {
		return nil
	}
	for i, m := range out {
		if r, ok := m.(*agentcore.ToolResultMessage); ok && m != ss.st.Transcript[i] {
			r.DurationMs = nil
			if o, ok := rec.Tools[heldKey(r.ToolCallID)]; ok {
				rec.stampOutcome(r, o)
			}
		}
	}
	ss.st.replaceTranscript(out)
	return nil
}
