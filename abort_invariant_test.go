package agentcore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// The invariant of pi-agent-core 1.6.0 that this file tests: however a run
// of the Agent is aborted, every tool call of every assistant message that
// the loop acted on (stopReason not error or aborted) has exactly one
// toolResult with its ID, after it and in call order, with one
// tool_execution_start and one tool_execution_end; the calls of an aborted
// or failed response get none. So the transcript is one a provider accepts,
// and continue() after the abort sends a result for every call.

// callKind is what a scripted tool call does.
type callKind int

const (
	callOK        callKind = iota // a known tool with valid arguments; returns "ok ID"
	callUnknown                   // a tool that does not exist
	callInvalid                   // arguments that fail the schema
	callArgsError                 // arguments that failed to parse (argumentsError)
	callBlocked                   // BeforeToolCall blocks it
	callWaitAbort                 // the tool waits for the abort, then fails with ctx.Err()
)

func (k callKind) String() string {
	return [...]string{"ok", "unknown", "invalid", "argsError", "blocked", "waitAbort"}[k]
}

// reachesHooks reports whether a call of kind k gets to BeforeToolCall, and
// executes reports whether it runs when nothing aborts.
func (k callKind) reachesHooks() bool { return k == callOK || k == callBlocked || k == callWaitAbort }
func (k callKind) executes() bool     { return k == callOK || k == callWaitAbort }

// abortPoint is where the last turn of a case aborts the run.
type abortPoint int

const (
	abortAtRequestStart abortPoint = iota // when the turn's request starts: the response is empty
	abortAtStreamEnd                      // after the last tool call streamed, the response hanging
	abortAtMessageEnd                     // in a listener of the assistant message_end, before the batch
	abortInBefore                         // in BeforeToolCall of call At
	abortInTool                           // inside Execute of call At
	abortInAfter                          // in AfterToolCall of call At
	abortAtNextRequest                    // when the request after the batch starts
)

func (p abortPoint) String() string {
	return [...]string{"request-start", "stream-end", "message-end", "before", "tool", "after", "next-request"}[p]
}

// inBatch reports whether p aborts while a batch runs.
func (p abortPoint) inBatch() bool {
	return p == abortInBefore || p == abortInTool || p == abortInAfter
}

// abortCase is one run: tool turns, the last of which aborts.
type abortCase struct {
	sequential bool
	turns      [][]callKind // the calls of each response; all but the last complete
	point      abortPoint
	at         int // the call of the last turn that aborts, for the in-batch points
}

func (c abortCase) String() string {
	mode := "parallel"
	if c.sequential {
		mode = "sequential"
	}
	var turns []string
	for _, calls := range c.turns {
		kinds := make([]string, len(calls))
		for i, k := range calls {
			kinds[i] = k.String()
		}
		turns = append(turns, strings.Join(kinds, ","))
	}
	point := c.point.String()
	if c.point.inBatch() {
		point += fmt.Sprint(c.at + 1)
	}
	return fmt.Sprintf("%s/%s/%s", mode, point, strings.Join(turns, "+"))
}

// valid reports whether the case can run to its abort: a call waiting for
// the abort must run after it (parallel calls execute together), and the
// aborting call must get where it aborts.
func (c abortCase) valid() bool {
	last := len(c.turns) - 1
	for t, calls := range c.turns {
		for i, k := range calls {
			if k != callWaitAbort {
				continue
			}
			if t != last || c.point == abortAtNextRequest {
				return false
			}
			if c.sequential && c.point.inBatch() && i <= c.at {
				return false
			}
		}
	}
	if !c.point.inBatch() {
		return true
	}
	k := c.turns[last][c.at]
	switch c.point {
	case abortInBefore:
		return k.reachesHooks()
	default:
		return k == callOK
	}
}

func callID(turn, i int) string { return fmt.Sprintf("t%dc%d", turn+1, i+1) }

// barrier opens when target calls have entered Execute: the call that
// aborts in a parallel batch waits for it, so that which calls run does not
// depend on the scheduler.
type barrier struct {
	mu      sync.Mutex
	entered int
	target  int
	open    chan struct{}
}

func newBarrier(target int) *barrier {
	b := &barrier{target: target, open: make(chan struct{})}
	if target <= 0 {
		close(b.open)
	}
	return b
}

func (b *barrier) arrive() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.entered++
	if b.entered == b.target {
		close(b.open)
	}
}

// abortRecord is what the hooks, tools and listeners saw, in order.
type abortRecord struct {
	mu       sync.Mutex
	before   map[string]int // BeforeToolCall calls by call ID
	after    map[string]int
	executed map[string]int
	late     []string // hooks or tools that started after the abort
	events   []string // tool_execution_start/end and toolResult message_end, "KIND:ID"
}

func (r *abortRecord) count(m map[string]int, id string, aborted bool, what string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	m[id]++
	if aborted {
		r.late = append(r.late, what+":"+id)
	}
}

// abortPlay is one abortCase being played on an Agent: the fake model,
// the tool, the hooks and the listener that abort at the case's point.
type abortPlay struct {
	c        abortCase
	last     int    // the index of the last turn
	abortID  string // the call at which a batch point aborts
	lastCall string // the last call of the last turn
	kinds    map[string]callKind
	bar      *barrier
	rec      *abortRecord
	agent    *agentcore.Agent

	mu         sync.Mutex
	continuing bool // the run after the abort: the model answers "resumed"
}

func newAbortPlay(c abortCase) *abortPlay {
	p := &abortPlay{c: c, last: len(c.turns) - 1, kinds: map[string]callKind{}}
	if c.point.inBatch() {
		p.abortID = callID(p.last, c.at)
	}
	if n := len(c.turns[p.last]); n > 0 {
		p.lastCall = callID(p.last, n-1)
	}
	for turn, calls := range c.turns {
		for i, k := range calls {
			p.kinds[callID(turn, i)] = k
		}
	}
	p.bar = newBarrier(p.enteringBeforeAbort())
	p.rec = &abortRecord{before: map[string]int{}, after: map[string]int{}, executed: map[string]int{}}
	return p
}

// enteringBeforeAbort is how many calls of the last turn enter Execute
// before the abort.
func (p *abortPlay) enteringBeforeAbort() int {
	if p.c.point != abortInTool && p.c.point != abortInAfter {
		return 0
	}
	if p.c.sequential {
		return 1
	}
	n := 0
	for _, k := range p.c.turns[p.last] {
		if k.executes() {
			n++
		}
	}
	return n
}

// respond is the fake model.
func (p *abortPlay) respond(_ context.Context, call agentcoretest.Call) agentcoretest.Response {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.continuing {
		return agentcoretest.TextResponse("resumed")
	}
	turn := call.Index - 1
	if turn > p.last {
		resp := agentcoretest.TextResponse("done")
		if p.c.point == abortAtNextRequest {
			resp.OnStart = func(context.Context) { p.agent.Abort() }
		}
		return resp
	}
	resp := agentcoretest.ToolCallResponse(p.calls(turn)...)
	if turn == p.last {
		switch p.c.point {
		case abortAtRequestStart:
			resp.OnStart = func(context.Context) { p.agent.Abort() }
		case abortAtStreamEnd:
			resp.Hang = true
		}
	}
	return resp
}

// calls are the tool calls of a turn.
func (p *abortPlay) calls(turn int) []agentcore.ToolCall {
	var blocks []agentcore.ToolCall
	for i, k := range p.c.turns[turn] {
		id := callID(turn, i)
		switch k {
		case callUnknown:
			blocks = append(blocks, agentcoretest.ToolCall(id, "missing", nil))
		case callInvalid:
			blocks = append(blocks, agentcoretest.ToolCall(id, "work", map[string]any{"n": "many"}))
		case callArgsError:
			b := agentcoretest.ToolCall(id, "work", map[string]any{"n": 1})
			b.ArgumentsError = "Unexpected end of JSON input"
			blocks = append(blocks, b)
		default:
			blocks = append(blocks, agentcoretest.ToolCall(id, "work", map[string]any{"n": i}))
		}
	}
	return blocks
}

// execute is the work tool's Execute.
func (p *abortPlay) execute(ctx context.Context, id string, _ json.RawMessage, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
	p.rec.count(p.rec.executed, id, ctx.Err() != nil, "execute")
	if strings.HasPrefix(id, fmt.Sprintf("t%d", p.last+1)) {
		p.bar.arrive()
	}
	if p.kinds[id] == callWaitAbort {
		<-ctx.Done()
		return agentcore.ToolResult{}, ctx.Err()
	}
	if p.c.point == abortInTool && id == p.abortID {
		<-p.bar.open
		p.agent.Abort()
	}
	return agentcore.TextResult("ok " + id), nil
}

func (p *abortPlay) before(ctx context.Context, bc agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
	id := bc.ToolCall.ID
	p.rec.count(p.rec.before, id, ctx.Err() != nil, "before")
	if p.c.point == abortInBefore && id == p.abortID {
		p.agent.Abort()
	}
	if p.kinds[id] == callBlocked {
		return &agentcore.BeforeToolCallResult{Block: true, Reason: "blocked " + id}, nil
	}
	return nil, nil
}

func (p *abortPlay) after(_ context.Context, ac agentcore.AfterToolCallContext) (*agentcore.AfterToolCallResult, error) {
	id := ac.ToolCall.ID
	p.rec.count(p.rec.after, id, false, "after") // may run after the abort
	if p.c.point == abortInAfter && id == p.abortID {
		<-p.bar.open
		p.agent.Abort()
	}
	return nil, nil
}

// listen records the tool events and aborts at the event points.
func (p *abortPlay) listen(_ context.Context, ev agentcore.AgentEvent) {
	if p.abortsAt(ev) {
		p.agent.Abort()
	}
	if entry := toolEventEntry(ev); entry != "" {
		p.rec.mu.Lock()
		p.rec.events = append(p.rec.events, entry)
		p.rec.mu.Unlock()
	}
}

// abortsAt reports whether the case aborts at ev: the message_end of, or
// the stream's tool-call end of, the last call.
func (p *abortPlay) abortsAt(ev agentcore.AgentEvent) bool {
	switch e := ev.(type) {
	case *agentcore.MessageEndEvent:
		m, ok := e.Message.(*agentcore.AssistantMessage)
		if !ok || p.c.point != abortAtMessageEnd {
			return false
		}
		calls := m.ToolCalls()
		return len(calls) > 0 && calls[len(calls)-1].ID == p.lastCall
	case *agentcore.MessageUpdateEvent:
		end, ok := e.AssistantEvent.(*agentcore.ToolCallEndEvent)
		return ok && p.c.point == abortAtStreamEnd && end.ToolCall.ID == p.lastCall
	}
	return false
}

// toolEventEntry is the record of a tool event, "KIND:ID", or "".
func toolEventEntry(ev agentcore.AgentEvent) string {
	switch e := ev.(type) {
	case *agentcore.ToolExecutionStartEvent:
		return "start:" + e.ToolCallID
	case *agentcore.ToolExecutionEndEvent:
		return "end:" + e.ToolCallID
	case *agentcore.MessageEndEvent:
		if m, ok := e.Message.(*agentcore.ToolResultMessage); ok {
			return "result:" + m.ToolCallID
		}
	}
	return ""
}

// playAbortCase runs c on an Agent, then continues after the abort with a
// follow-up, and returns the final transcript, the continuation request and
// what was recorded.
func playAbortCase(t *testing.T, c abortCase) ([]agentcore.Message, agentcore.Request, *abortRecord) {
	t.Helper()
	ctx := t.Context()
	p := newAbortPlay(c)
	fake := agentcoretest.NewFunc(p.respond)
	work := agentcore.Tool{
		Name:       "work",
		Parameters: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`),
		Execute:    p.execute,
	}
	mode := agentcore.ToolsParallel
	if c.sequential {
		mode = agentcore.ToolsSequential
	}
	p.agent = agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{work},
		Hooks: agentcore.Hooks{BeforeToolCall: p.before, AfterToolCall: p.after}, ToolExecution: mode,
	})
	p.agent.Subscribe(p.listen)

	// Every case ends aborted: the run's error says so.
	err := p.agent.Prompt(ctx, "go")
	var runErr *agentcore.RunError
	require.ErrorAs(t, err, &runErr)
	require.ErrorIs(t, err, context.Canceled)
	state := p.agent.State()
	assert.False(t, state.IsStreaming)
	assert.Empty(t, state.PendingToolCalls)
	transcript := state.Messages

	p.mu.Lock()
	p.continuing = true
	p.mu.Unlock()
	p.agent.FollowUp(agentcore.UserText("go on"))
	require.NoError(t, p.agent.Continue(ctx))
	calls := fake.Calls()
	require.NotEmpty(t, calls)
	return transcript, calls[len(calls)-1].Request, p.rec
}

// checkAnswered checks the invariant on messages: each call of an acted-on
// assistant message has one toolResult, in call order, before the next
// assistant message; the calls of an aborted or failed one have none. It
// returns the IDs of the calls acted on.
func checkAnswered(t *testing.T, what string, messages []agentcore.Message) []string {
	t.Helper()
	results := map[string]int{}
	for _, m := range messages {
		if r, ok := m.(*agentcore.ToolResultMessage); ok {
			results[r.ToolCallID]++
		}
	}
	var acted []string
	for i, m := range messages {
		a, ok := m.(*agentcore.AssistantMessage)
		if !ok {
			continue
		}
		calls := a.ToolCalls()
		if a.StopReason == agentcore.StopError || a.StopReason == agentcore.StopAborted {
			for _, call := range calls {
				assert.Zero(t, results[call.ID], "%s: call %s of a %s response has a result", what, call.ID, a.StopReason)
			}
			continue
		}
		var follow []string
		for _, next := range messages[i+1:] {
			if _, ok := next.(*agentcore.AssistantMessage); ok {
				break
			}
			if r, ok := next.(*agentcore.ToolResultMessage); ok {
				follow = append(follow, r.ToolCallID)
			}
		}
		var want []string
		for _, call := range calls {
			want = append(want, call.ID)
			assert.Equal(t, 1, results[call.ID], "%s: results of call %s", what, call.ID)
		}
		assert.Equal(t, want, follow, "%s: the results after assistant message %d", what, i)
		acted = append(acted, want...)
	}
	return acted
}

// resultTexts maps call IDs to their result text in messages.
func resultTexts(messages []agentcore.Message) map[string]string {
	out := map[string]string{}
	for _, m := range messages {
		if r, ok := m.(*agentcore.ToolResultMessage); ok {
			out[r.ToolCallID] = r.Text()
		}
	}
	return out
}

// expectedText is the result text call i of the last turn of c must get,
// or "" when its own failure text (unknown tool, validation) is expected.
func expectedText(c abortCase, i int, k callKind) string {
	const aborted = "Operation aborted"
	id := callID(len(c.turns)-1, i)
	normal := map[callKind]string{callOK: "ok " + id, callBlocked: "blocked " + id, callWaitAbort: "context canceled"}[k]
	switch {
	case c.point == abortAtNextRequest:
		return normal
	case c.point == abortAtMessageEnd:
		return aborted
	case c.sequential && i < c.at:
		return normal
	case c.sequential && i > c.at:
		return aborted
	case i == c.at && c.point == abortInBefore:
		return aborted
	case c.point == abortInBefore && i > c.at:
		return aborted
	case c.point == abortInBefore && k.executes():
		return aborted // prepared before the abort, never started
	}
	return normal
}

func runAbortCase(t *testing.T, c abortCase) {
	transcript, request, rec := playAbortCase(t, c)
	acted := checkAnswered(t, "transcript", transcript)
	checkAnswered(t, "continuation request", request.Messages)

	rec.mu.Lock()
	defer rec.mu.Unlock()
	assert.Empty(t, rec.late, "hooks or tools started after the abort")
	var want []string
	for _, id := range acted {
		want = append(want, "start:"+id, "end:"+id)
	}
	var got []string
	for _, e := range rec.events {
		if !strings.HasPrefix(e, "result:") {
			got = append(got, e)
		}
	}
	// Starts and ends pair up per call; in a parallel batch they interleave.
	assert.ElementsMatch(t, want, got, "tool execution events")
	for _, e := range rec.events {
		if id, ok := strings.CutPrefix(e, "result:"); ok {
			assert.Contains(t, got, "end:"+id, "result of %s without its end", id)
		}
	}
	for id, n := range rec.after {
		assert.Equal(t, 1, n, "AfterToolCall of %s", id)
		assert.Equal(t, 1, rec.executed[id], "AfterToolCall of %s, which did not execute once", id)
	}

	if c.point == abortAtRequestStart || c.point == abortAtStreamEnd {
		return // the last response was aborted: its calls have no results
	}
	texts := resultTexts(transcript)
	last := len(c.turns) - 1
	for i, k := range c.turns[last] {
		id := callID(last, i)
		if want := expectedText(c, i, k); want != "" {
			assert.Equal(t, want, texts[id], "result of %s (%s)", id, k)
		} else {
			assert.NotEqual(t, "Operation aborted", texts[id], "result of %s (%s)", id, k)
		}
		if texts[id] == "Operation aborted" {
			assert.Zero(t, rec.executed[id]+rec.after[id], "Execute or AfterToolCall of %s, answered Operation aborted", id)
			// Only a call prepared before the abort, or the one aborting in
			// BeforeToolCall, met BeforeToolCall.
			prepared := c.point == abortInBefore && i <= c.at && k.reachesHooks()
			assert.Equal(t, prepared, rec.before[id] == 1, "BeforeToolCall of %s, answered Operation aborted", id)
		}
	}
}

// TestAbortAnswersEveryCall aborts at every point of hand-picked batches.
func TestAbortAnswersEveryCall(t *testing.T) {
	mixed := []callKind{callOK, callUnknown, callOK, callInvalid, callArgsError, callBlocked, callOK}
	var cases []abortCase
	for _, sequential := range []bool{false, true} {
		for _, point := range []abortPoint{abortAtRequestStart, abortAtStreamEnd, abortAtMessageEnd, abortAtNextRequest} {
			cases = append(cases, abortCase{sequential: sequential, turns: [][]callKind{mixed}, point: point})
		}
		for _, point := range []abortPoint{abortInBefore, abortInTool, abortInAfter} {
			for at := range mixed {
				cases = append(cases, abortCase{sequential: sequential, turns: [][]callKind{mixed}, point: point, at: at})
			}
		}
		// The 5-call sequential batch of issue 14, aborted in the 2nd call,
		// after a completed turn; and a parallel batch with calls waiting.
		five := []callKind{callOK, callOK, callOK, callOK, callOK}
		cases = append(cases, abortCase{sequential: sequential, turns: [][]callKind{{callOK}, five}, point: abortInTool, at: 1})
		waiting := []callKind{callWaitAbort, callOK, callWaitAbort, callUnknown}
		cases = append(cases, abortCase{sequential: sequential, turns: [][]callKind{waiting}, point: abortInAfter, at: 1})
	}
	for _, c := range cases {
		if !c.valid() {
			continue
		}
		t.Run(c.String(), func(t *testing.T) { runAbortCase(t, c) })
	}
}

// TestAbortAnswersEveryCallRandomized aborts random batches at random
// points; the seed makes each case repeatable.
func TestAbortAnswersEveryCallRandomized(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 50
	}
	// The in-batch points, where most can go wrong, come up twice as often.
	points := []abortPoint{abortAtRequestStart, abortAtStreamEnd, abortAtMessageEnd, abortAtNextRequest,
		abortInBefore, abortInTool, abortInAfter, abortInBefore, abortInTool, abortInAfter}
	rng := rand.New(rand.NewPCG(14, 1600))
	seen := map[string]bool{}
	for len(seen) < n {
		c := abortCase{sequential: rng.IntN(2) == 0, point: points[rng.IntN(len(points))]}
		for range 1 + rng.IntN(2) {
			calls := make([]callKind, 1+rng.IntN(6))
			for i := range calls {
				calls[i] = callKind(rng.IntN(int(callWaitAbort) + 1))
			}
			c.turns = append(c.turns, calls)
		}
		if c.point.inBatch() {
			// Abort in one of the calls that gets where the point is.
			var eligible []int
			for c.at = range c.turns[len(c.turns)-1] {
				if c.valid() {
					eligible = append(eligible, c.at)
				}
			}
			if len(eligible) == 0 {
				continue
			}
			c.at = eligible[rng.IntN(len(eligible))]
		}
		if !c.valid() || seen[c.String()] {
			continue
		}
		seen[c.String()] = true
		t.Run(c.String(), func(t *testing.T) { runAbortCase(t, c) })
	}
}
