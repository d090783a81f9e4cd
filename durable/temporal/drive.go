package temporal

import (
	"context"
	"errors"
	"slices"

	"github.com/pi-go/agentcore"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// drive runs the active run to its end, or until the history is long
// enough to continue as new: replay the loop, commit what is final, run the
// activities it needs, record their outcomes, repeat.
func (ss *session) drive(ctx workflow.Context) error {
	for ss.st.Run != nil && !ss.shouldContinue(ctx) {
		if ss.st.Run.Held != nil {
			if needs := ss.resolve(ctx); len(needs) > 0 {
				if err := ss.obtain(ctx, needs); err != nil {
					return err
				}
			}
			continue
		}
		x := &replay{opts: ss.opts, st: &ss.st, rec: ss.st.Run, now: millis(workflow.Now(ctx)),
			set: runSettings(ss.st.Run, ss.opts), queue: ss.settings()}
		res := x.run()
		ss.commit(x, res)
		if len(res.needs) == 0 {
			if ss.finish(ctx, res) {
				continue
			}
			return nil
		}
		if err := ss.obtain(ctx, res.needs); err != nil {
			return err
		}
	}
	return nil
}

// commit appends the replay's final messages not yet in the transcript.
// Messages the loop made itself get the workflow's timestamps, and tool
// results the recorded duration, so that a later replay of the workflow
// gives the same transcript.
func (ss *session) commit(x *replay, res replayResult) {
	rec := ss.st.Run
	known := rec.clientSystemMessages(nil)
	request := -1
	for i, m := range res.messages[:res.commit] {
		if a, ok := m.(*agentcore.AssistantMessage); ok {
			if k, ok := x.handed[a]; ok {
				request = k
			}
		}
		if i < rec.Committed {
			continue
		}
		switch m := m.(type) {
		case *agentcore.ToolResultMessage:
			m.Timestamp, m.DurationMs = x.now, nil
			rec.stamp(request, m)
		case *agentcore.SystemMessage:
			if !known[m] {
				m.Timestamp = rec.declared(x.now)
			}
		}
		ss.st.Transcript = append(ss.st.Transcript, m)
	}
	rec.Committed = max(rec.Committed, res.commit)
}

// clientSystemMessages are the system messages of context and of the
// run's prompts and polls, which came from clients and keep their
// timestamps: any other system message in the run is the loop's own
// declaration of a tool change.
func (rec *runRecord) clientSystemMessages(context []agentcore.Message) map[*agentcore.SystemMessage]bool {
	known := map[*agentcore.SystemMessage]bool{}
	for _, batch := range slices.Concat([]Messages{rec.Prompts, context}, rec.Steering, rec.FollowUps) {
		for _, m := range batch {
			if sys, ok := m.(*agentcore.SystemMessage); ok {
				known[sys] = true
			}
		}
	}
	return known
}

// declared is the timestamp of the loop's declarations of tool changes in
// the run: its recorded start, or, in runs recorded before it was
// ([pinChange]), now.
func (rec *runRecord) declared(now int64) int64 {
	if rec.Started != 0 {
		return rec.Started
	}
	return now
}

// stamp gives m, a tool result of request, the time its outcome was
// recorded and the duration the tool measured, as in the committed
// transcript; it leaves a result whose outcome is not recorded unchanged.
func (rec *runRecord) stamp(request int, m *agentcore.ToolResultMessage) {
	if o, ok := rec.Tools[callKey(request, m.ToolCallID)]; ok {
		rec.stampOutcome(m, o)
	}
}

// stampOutcome gives m the time outcome o was recorded and the duration
// the tool measured.
func (rec *runRecord) stampOutcome(m *agentcore.ToolResultMessage, o toolOutcome) {
	m.Timestamp, m.DurationMs = o.Timestamp, nil
	if !o.Output.Unknown && !o.Aborted {
		d := o.Output.DurationMs
		m.DurationMs = &d
	}
}

// result is the recorded outcome as the tool's Execute returned it.
func (o toolOutcome) result() (agentcore.ToolResult, error) {
	if o.Output.Err != "" {
		return agentcore.ToolResult{}, errors.New(o.Output.Err)
	}
	r := o.Output.Result
	r.IsError = o.Output.IsError
	return r, nil
}

// finish ends the run: a run ended by a failing hook gets the Agent's
// failure message, and a failed run puts back the queued messages it took
// and did not deliver, as the Agent's does. It reports whether the run
// goes on instead: its held calls were all decided by the decide requests
// received while it ran (see [session.decideLate]).
func (ss *session) finish(ctx workflow.Context, res replayResult) bool {
	rec := ss.st.Run
	var result WaitResult
	var runErr *agentcore.RunError
	switch {
	case res.err == nil:
	case errors.As(res.err, &runErr) && runErr.Message != nil:
		// The run's last response failed; it is in the transcript.
		result.ErrorMessage = runErr.Message.ErrorMessage
		result.Aborted = runErr.Message.StopReason == agentcore.StopAborted
		result.Message = runErr.Message
	default:
		// A hook failed: the loop returned its error.
		reason := agentcore.StopError
		if rec.Aborted {
			reason = agentcore.StopAborted
		}
		m := ss.settings().Model // the Agent's failure message names the current model
		msg := &agentcore.AssistantMessage{
			Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: ""}}, API: m.API, Provider: m.Provider, Model: m.ID,
			StopReason: reason, ErrorMessage: res.err.Error(), Timestamp: millis(workflow.Now(ctx)),
		}
		ss.st.Transcript = append(ss.st.Transcript, msg)
		result.ErrorMessage, result.Aborted, result.Message = msg.ErrorMessage, rec.Aborted, msg
	}
	if res.err != nil {
		ss.requeue(ctx, res.held, res.heldFrom)
	}
	if len(res.holds.Calls) > 0 && workflow.GetVersion(ctx, holdChange, workflow.DefaultVersion, 1) != workflow.DefaultVersion {
		ss.setHeld(&res.holds)
	}
	if ss.decideLate(ctx, rec, res.err != nil) {
		ss.goOn(ctx, rec)
		return true
	}
	if ss.st.Held != nil {
		result.Held = ss.st.Held.Undecided()
	}
	ss.st.ErrorMessage = result.ErrorMessage
	if ss.st.Results == nil {
		ss.st.Results = map[int]WaitResult{}
	}
	ss.st.Results[rec.Seq] = result
	delete(ss.st.Results, rec.Seq-keptResults)
	ss.st.Finished = rec.Seq
	ss.st.Run = nil
	return false
}

// requeueChange marks, in a history, a run that put back undelivered
// messages: histories recorded before sessions did so replay as recorded
// (the messages were lost).
const requeueChange = "requeue-undelivered"

// requeue puts msgs, which a failed run took from queue q and did not
// deliver, back at the front of q, oldest first, as if never taken.
func (ss *session) requeue(ctx workflow.Context, msgs Messages, q agentcore.Queue) {
	if len(msgs) == 0 || workflow.GetVersion(ctx, requeueChange, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return
	}
	target := &ss.st.Steering
	if q == agentcore.FollowUpQueue {
		target = &ss.st.FollowUp
	}
	*target = append(slices.Clone(msgs), *target...)
}

// waitCancelChange marks, in a history, a session whose aborts wait for
// the cancelled activities to end, so that a call that finished despite
// the abort is recorded with its result: histories recorded before
// recorded the abort as soon as it was requested.
const waitCancelChange = "wait-for-cancellation"

// obtain runs the needed activities concurrently and records their
// outcomes. An abort cancels them and waits for them to end: a request
// cancelled is recorded as aborted; a call whose tool ran is recorded
// with what the tool returned (the activity reports it as its result), as
// by the Agent, and a call cancelled before its tool ran as "Operation
// aborted".
func (ss *session) obtain(ctx workflow.Context, needs []need) error {
	rec := ss.st.Run
	work, cancel := workflow.WithCancel(ctx)
	defer cancel()
	ss.cancelWork = cancel
	defer func() { ss.cancelWork = nil }()
	if rec.Aborted {
		cancel()
	}
	name := ss.opts.name()
	mao, tao := activityOptions(ss.opts.ModelActivity), activityOptions(ss.opts.ToolActivity)
	if workflow.GetVersion(ctx, waitCancelChange, workflow.DefaultVersion, 1) != workflow.DefaultVersion {
		mao.WaitForCancellation, tao.WaitForCancellation = true, true
	}
	mctx := workflow.WithActivityOptions(work, mao)
	tctx := workflow.WithActivityOptions(work, tao)
	limit := ss.opts.payloadLimit()
	futures := make([]workflow.Future, len(needs))
	for i, n := range needs {
		switch {
		case n.model == nil:
			futures[i] = workflow.ExecuteActivity(tctx, name+".tool", *n.tool)
		case limit == 0 || encodedSize(n.model) <= limit:
			futures[i] = workflow.ExecuteActivity(mctx, name+".model", *n.model)
		}
	}
	for i, n := range needs {
		if n.model != nil {
			now := millis(workflow.Now(ctx))
			if futures[i] == nil {
				// Past the limit: the request is not made.
				rec.Responses = append(rec.Responses, failedResponse(n.model.Model, tooLargeContext(encodedSize(n.model), limit), now))
				continue
			}
			var out response
			err := futures[i].Get(ctx, &out)
			msg := out.Message
			now = millis(workflow.Now(ctx))
			switch {
			case isCancel(err):
				msg = abortedResponse(n.model.Model, now)
			case err != nil:
				msg = failedResponse(n.model.Model, err.Error(), now)
			case msg == nil:
				msg = failedResponse(n.model.Model, agentcore.ErrStreamIncomplete.Error(), now)
			case !ss.fits(encodedSize(out)):
				msg = failedResponse(n.model.Model, tooLargeResponse(encodedSize(out), limit), now)
			}
			rec.Responses = append(rec.Responses, msg)
			continue
		}
		var out toolOutput
		err := futures[i].Get(ctx, &out)
		o := toolOutcome{Output: out, Timestamp: millis(workflow.Now(ctx))}
		switch {
		case isCancel(err):
			o = toolOutcome{Output: toolOutput{Result: agentcore.TextResult("Operation aborted"), IsError: true}, Timestamp: o.Timestamp, Aborted: true}
		case err != nil:
			o.Output = toolOutput{Err: err.Error()}
		case !ss.fits(encodedSize(out)):
			o.Output = tooLargeOutput(encodedSize(out), limit)
			o.Output.DurationMs = out.DurationMs
		}
		rec.Tools[n.key] = o
	}
	return ctx.Err()
}

// isCancel reports whether an activity's error is its cancellation.
func isCancel(err error) bool {
	return err != nil && (temporal.IsCanceledError(err) || errors.Is(err, context.Canceled))
}

// failedResponse is the answer of a request whose activity failed for good.
func failedResponse(model agentcore.Model, text string, now int64) *agentcore.AssistantMessage {
	msg := abortedResponse(model, now)
	msg.StopReason, msg.ErrorMessage = agentcore.StopError, text
	return msg
}
