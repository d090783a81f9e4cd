package temporal

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/hold"
)

// textPending is the placeholder answer of a request or call whose outcome
// is not recorded yet; the part of a replay after it is discarded.
const textPending = "agentcore/durable: outcome pending"

// textRequestAborted is the error text of a model request cut short by an
// abort, as pi-ai words it.
const textRequestAborted = "Request was aborted"

// need is an outcome a replay asked for and the record lacks: a model
// request or a tool call, to run as an activity.
type need struct {
	// request is the model request's index, -1 for a tool call.
	request int
	model   *modelInput
	// key identifies the tool call ([callKey]).
	key  string
	tool *toolInput
}

// callKey identifies a tool call in a run: the index of the request that
// issued it and its ID (models reuse IDs across responses).
func callKey(request int, callID string) string {
	return strconv.Itoa(request) + "/" + callID
}

// replayResult is the outcome of one replay of the run's loop.
type replayResult struct {
	// messages are the run's messages as the loop produced them.
	messages []agentcore.Message
	// commit is how many of them are final.
	commit int
	// needs are the outcomes to obtain before the next replay; none means
	// the run is over.
	needs []need
	// err is the run's error, when over.
	err error
	// held are the messages the loop's latest poll took from queue
	// heldFrom and did not deliver: those a failed run puts back.
	held     Messages
	heldFrom agentcore.Queue
	// holds are the tool calls the run's last turn held for a decision
	// ([Options].Hold), when the run is over.
	holds hold.State
}

// replay is one execution of the active run's loop, from its start, with
// the outcomes recorded so far standing in for the model and the tools. The
// loop runs until it needs an outcome that is not recorded; from then on
// every hook is skipped and every answer is a placeholder, so that the loop
// winds down to agent_end without acting, and what it did after the first
// need is discarded.
//
// The loop runs on goroutines of its own, which have ended when run
// returns; the workflow goroutine blocks meanwhile. Nothing in a replay
// waits for anything but the loop itself, so it takes microseconds per
// turn.
type replay struct {
	opts *Options
	st   *sessionState
	rec  *runRecord
	now  int64 // the workflow's time, for outcomes recorded during the replay
	// set are the run's settings; queue are the session's current ones,
	// whose queue modes a poll made for the first time uses.
	set, queue Settings

	cancel context.CancelFunc // cancels the loop's ctx: the run was aborted
	// context is the transcript the run started from.
	context Messages

	pending atomic.Bool // a need was found
	mu      sync.Mutex  // guards needs and preflighted
	needs   []need
	// preflighted are the calls whose BeforeToolCall ran before the first
	// need, with their order: only those may become needs, and needs are
	// listed in that order (the calls of a parallel batch find they are
	// needs on goroutines of their own, in any order, but the workflow
	// must schedule their activities in the same order on every replay).
	preflighted map[string]int

	// The fields below are used on the loop's goroutine only (tool
	// goroutines read current, set before they start).
	requests    int
	current     int // the index of the latest request
	handed      map[*agentcore.AssistantMessage]int
	steerPolls  int
	followPolls int
	skipped     bool // the first steering poll of a SkipSteering run
	// held are the messages the latest poll took, from heldFrom, until
	// the loop delivers them, as the engine holds them for an Agent.
	held     Messages
	heldFrom agentcore.Queue
	// gate holds tool calls, with [Options].Hold; nil without.
	gate *hold.Gate
}

// run replays the loop.
func (x *replay) run() replayResult {
	x.preflighted = map[string]int{}
	x.handed = map[*agentcore.AssistantMessage]int{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	x.cancel = cancel
	x.context = x.rec.context(x.st.Transcript)
	actx := agentcore.AgentContext{Messages: slices.Clone(x.context), Tools: x.tools()}
	var lr *agentcore.LoopRun
	var err error
	if x.rec.Continue {
		lr, err = agentcore.RunLoopContinue(ctx, actx, x.config())
	} else {
		lr, err = agentcore.RunLoop(ctx, x.rec.Prompts, actx, x.config())
	}
	if err != nil {
		return replayResult{err: err}
	}
	msgs, err := lr.Wait()
	slices.SortStableFunc(x.needs, func(a, b need) int { return x.preflighted[a.key] - x.preflighted[b.key] })
	res := replayResult{messages: msgs, needs: x.needs, err: err, held: x.held, heldFrom: x.heldFrom}
	if x.gate != nil && len(x.needs) == 0 {
		res.holds = x.gate.State()
	}
	res.commit = len(msgs)
	switch {
	case len(x.needs) == 0:
	case x.needs[0].request >= 0:
		res.commit = len(msgs) - 1 // the placeholder response
	default:
		res.commit = slices.IndexFunc(msgs, func(m agentcore.Message) bool {
			a, ok := m.(*agentcore.AssistantMessage)
			if !ok {
				return false
			}
			k, ok := x.handed[a]
			return ok && k == x.current
		}) + 1
	}
	return res
}

// config is the loop's configuration: the session's options with every
// hook wrapped, the recorded stream, and the recorded queue polls.
func (x *replay) config() agentcore.LoopConfig {
	o := x.opts
	so := o.StreamOptions
	so.APIKey = ""
	h := o.Hooks
	h.GetAPIKey = nil
	if o.Hold != nil {
		// A Gate of its own per replay, on the workflow's clock: what it
		// holds is the run's last turn's, read once the run is over.
		x.gate = o.gate(time.UnixMilli(x.now), nil)
		h = agentcore.NewStack([]agentcore.Layer{x.gate}, h).Hooks()
	}
	if f := h.ConvertToLLM; f != nil {
		h.ConvertToLLM = func(ctx context.Context, m []agentcore.Message) ([]agentcore.Message, error) {
			if x.pending.Load() {
				return agentcore.DefaultConvertToLLM(ctx, m)
			}
			return f(ctx, m)
		}
	}
	transform := h.TransformContext
	h.TransformContext = func(ctx context.Context, m []agentcore.Message) ([]agentcore.Message, error) {
		if x.pending.Load() {
			return m, nil
		}
		// The loop stamped its declarations of tool changes by the
		// worker's clock: hooks and requests see the recorded time, as
		// the transcript will.
		if x.rec.Started != 0 {
			known := x.rec.clientSystemMessages(x.context)
			for _, msg := range m {
				if sys, ok := msg.(*agentcore.SystemMessage); ok && !known[sys] {
					sys.Timestamp = x.rec.Started
				}
			}
		}
		if transform == nil {
			return m, nil
		}
		return transform(ctx, m)
	}
	prepare := h.PrepareRequest
	h.PrepareRequest = func(ctx context.Context, r agentcore.RequestContext) (*agentcore.RequestUpdate, error) {
		// The loop calls PrepareRequest right after delivering the
		// pending messages: nothing taken is held any more.
		x.held, x.heldFrom = nil, 0
		if x.pending.Load() || prepare == nil {
			return nil, nil
		}
		return prepare(ctx, r)
	}
	if f := h.PrepareNextTurn; f != nil {
		h.PrepareNextTurn = func(ctx context.Context, t agentcore.TurnContext) (*agentcore.TurnUpdate, error) {
			if x.pending.Load() {
				return nil, nil
			}
			return f(ctx, t)
		}
	}
	finish := h.FinishTurn
	h.FinishTurn = func(ctx context.Context, t agentcore.TurnContext) (agentcore.TurnDecision, error) {
		if x.pending.Load() {
			return agentcore.TurnEnd, nil
		}
		if x.rec.Aborted && x.current+1 >= len(x.rec.Responses) {
			x.cancel() // the next request would be the aborted one
		}
		// The loop timed the calls by the worker's clock: hooks and later
		// requests see the recorded times, as the transcript will.
		for _, r := range t.ToolResults {
			x.rec.stamp(x.current, r)
		}
		if finish == nil {
			return agentcore.TurnDefault, nil
		}
		return finish(ctx, t)
	}
	before := h.BeforeToolCall
	h.BeforeToolCall = func(ctx context.Context, c agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
		if x.pending.Load() {
			return nil, nil
		}
		key := callKey(x.current, c.ToolCall.ID)
		if _, done := x.rec.Tools[key]; !done && x.rec.Aborted {
			x.cancel() // the loop answers the call "Operation aborted"
			return nil, nil
		}
		x.mu.Lock()
		x.preflighted[key] = len(x.preflighted)
		x.mu.Unlock()
		if before == nil {
			return nil, nil
		}
		return before(ctx, c)
	}
	if after := h.AfterToolCall; after != nil {
		h.AfterToolCall = func(ctx context.Context, c agentcore.AfterToolCallContext) (*agentcore.AfterToolCallResult, error) {
			if _, done := x.rec.Tools[callKey(x.current, c.ToolCall.ID)]; !done {
				return nil, nil // a placeholder
			}
			return after(ctx, c)
		}
	}
	return agentcore.LoopConfig{
		Hooks: h, Model: x.set.Model, ThinkingLevel: x.set.ThinkingLevel, StreamFn: x.stream,
		StreamOptions: so, ToolExecution: x.set.ToolExecution,
		GetSteeringMessages: func(context.Context) []agentcore.Message {
			if x.rec.SkipSteering && !x.skipped {
				x.skipped = true // the run's prompts are that poll's answer
				x.held = nil
				return nil
			}
			return x.hold(agentcore.SteeringQueue, x.poll(&x.steerPolls, &x.rec.Steering, &x.st.Steering, x.queue.SteeringMode))
		},
		GetFollowUpMessages: func(context.Context) []agentcore.Message {
			return x.hold(agentcore.FollowUpQueue, x.poll(&x.followPolls, &x.rec.FollowUps, &x.st.FollowUp, x.queue.FollowUpMode))
		},
	}
}

// hold records taken, a poll's answer from queue q, as held until the
// loop delivers it, and returns it. A run's prompts,
// even those a continue took from a queue, are never held: the loop
// delivers them before it can fail, since a replay's events go to no
// listener.
func (x *replay) hold(q agentcore.Queue, taken []agentcore.Message) []agentcore.Message {
	x.held, x.heldFrom = Messages(slices.Clone(taken)), q
	return taken
}

// poll answers a poll of a queue: what it took when first made, or, for a
// poll made for the first time, what it takes now.
func (x *replay) poll(count *int, recorded *[]Messages, queue *Messages, mode agentcore.QueueMode) []agentcore.Message {
	i := *count
	*count++
	if i < len(*recorded) {
		return slices.Clone((*recorded)[i])
	}
	if x.pending.Load() {
		return nil
	}
	taken := drain(queue, mode)
	*recorded = append(*recorded, taken)
	return slices.Clone(taken)
}

// drain takes the oldest message of q, or all of them in QueueModeAll mode.
func drain(q *Messages, mode agentcore.QueueMode) Messages {
	n := min(1, len(*q))
	if mode == agentcore.QueueModeAll {
		n = len(*q)
	}
	if n == 0 {
		return nil
	}
	taken := slices.Clone((*q)[:n])
	*q = slices.Clone((*q)[n:])
	if len(*q) == 0 {
		*q = nil
	}
	return taken
}

// stream is the loop's stream function: the recorded response of each
// request, else a need.
func (x *replay) stream(ctx context.Context, model agentcore.Model, req agentcore.Request, opts agentcore.StreamOptions) agentcore.AssistantStream {
	k := x.requests
	x.requests++
	x.current = k
	var msg *agentcore.AssistantMessage
	switch {
	case k < len(x.rec.Responses):
		msg = x.rec.Responses[k].Clone()
		if msg.StopReason == agentcore.StopAborted {
			x.cancel()
		}
	case x.pending.Load():
		msg = placeholderResponse(model)
	case x.rec.Aborted || ctx.Err() != nil:
		msg = abortedResponse(model, x.now)
		x.rec.Responses = append(x.rec.Responses, msg.Clone())
		x.cancel()
	default:
		x.addNeed(need{request: k, model: &modelInput{Model: model, Messages: slices.Clone(req.Messages), Reasoning: opts.Reasoning, Run: x.rec.Seq, Request: k}})
		msg = placeholderResponse(model)
	}
	x.handed[msg] = k
	return func(yield func(agentcore.AssistantEvent) bool) {
		if msg.StopReason.Failed() {
			yield(&agentcore.ErrorEvent{Reason: msg.StopReason, Message: msg})
			return
		}
		yield(&agentcore.DoneEvent{Reason: msg.StopReason, Message: msg})
	}
}

func (x *replay) addNeed(n need) {
	x.mu.Lock()
	x.needs = append(x.needs, n)
	x.mu.Unlock()
	x.pending.Store(true)
}

// tools are the run's tools with Execute answering from the record.
func (x *replay) tools() []agentcore.Tool {
	tools := x.opts.toolsNamed(x.set.Tools)
	for i := range tools {
		name := tools[i].Name
		tools[i].Execute = func(ctx context.Context, callID string, args json.RawMessage, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			return x.execute(name, callID, args)
		}
	}
	return tools
}

// execute answers one call: its recorded outcome, else a need when the
// call's preflight ran on the real schedule, else a placeholder.
func (x *replay) execute(name, callID string, args json.RawMessage) (agentcore.ToolResult, error) {
	key := callKey(x.current, callID)
	if o, ok := x.rec.Tools[key]; ok {
		return o.result()
	}
	x.mu.Lock()
	_, ok := x.preflighted[key]
	x.mu.Unlock()
	if ok {
		x.addNeed(need{request: -1, key: key, tool: &toolInput{Name: name, CallID: callID, Args: slices.Clone(args)}})
	}
	return agentcore.TextResult(textPending), nil
}

// placeholderResponse ends a replay's request that has no recorded answer.
func placeholderResponse(model agentcore.Model) *agentcore.AssistantMessage {
	return &agentcore.AssistantMessage{
		Content: []agentcore.ContentBlock{}, API: model.API, Provider: model.Provider, Model: model.ID,
		StopReason: agentcore.StopError, ErrorMessage: textPending,
	}
}

// abortedResponse is the answer of a request cut short by an abort.
func abortedResponse(model agentcore.Model, now int64) *agentcore.AssistantMessage {
	return &agentcore.AssistantMessage{
		Content: []agentcore.ContentBlock{}, API: model.API, Provider: model.Provider, Model: model.ID,
		StopReason: agentcore.StopAborted, ErrorMessage: textRequestAborted, Timestamp: now,
	}
}
