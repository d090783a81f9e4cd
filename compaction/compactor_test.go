package compaction_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/compaction"
)

// smallModel is an 8k model: compaction above 3,072 tokens, 768 kept.
func smallModel() agentcore.Model {
	m := agentcoretest.Model()
	m.ContextWindow, m.MaxTokens = 8192, 2048
	return m
}

// router is a fake model that answers summary requests from one script
// and the agent's requests from another.
type router struct {
	mu        sync.Mutex
	agent     []agentcoretest.Response
	summaries []agentcoretest.Response
	fake      *agentcoretest.Fake
}

func newRouter(agent []agentcoretest.Response, summaries ...agentcoretest.Response) *router {
	r := &router{agent: agent, summaries: summaries}
	r.fake = agentcoretest.NewFunc(func(_ context.Context, c agentcoretest.Call) agentcoretest.Response {
		r.mu.Lock()
		defer r.mu.Unlock()
		next := &r.agent
		if isSummaryCall(c) {
			next = &r.summaries
		}
		if len(*next) == 0 {
			return agentcoretest.ErrorResponse("no scripted response")
		}
		resp := (*next)[0]
		*next = (*next)[1:]
		return resp
	})
	return r
}

// agentCalls are the requests of the agent, summaries left out.
func (r *router) agentCalls() []agentcoretest.Call {
	var out []agentcoretest.Call
	for _, c := range r.fake.Calls() {
		if !isSummaryCall(c) {
			out = append(out, c)
		}
	}
	return out
}

func (r *router) summaryCalls() []agentcoretest.Call {
	var out []agentcoretest.Call
	for _, c := range r.fake.Calls() {
		if isSummaryCall(c) {
			out = append(out, c)
		}
	}
	return out
}

type readArgs struct {
	Path string `json:"path"`
}

// readTool answers every read with about 1,100 tokens of text.
func readTool() agentcore.Tool {
	return agentcore.NewTool("read", "Read a file.", func(_ context.Context, _ string, args readArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.TextResult(words("content of "+args.Path, 1100)), nil
	})
}

// recorder logs the agent's lifecycle events and the compaction events
// in one sequence.
type recorder struct {
	mu     sync.Mutex
	log    []string
	events []compaction.Event
}

func (r *recorder) onEvent(_ context.Context, ev compaction.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
	switch ev := ev.(type) {
	case *compaction.StartEvent:
		r.log = append(r.log, fmt.Sprintf("compaction_start %s retry=%v", ev.Reason, ev.WillRetry))
	case *compaction.EndEvent:
		outcome := "ok"
		if ev.Err != nil {
			outcome = "failed"
		}
		r.log = append(r.log, fmt.Sprintf("compaction_end %s %s retry=%v", ev.Reason, outcome, ev.WillRetry))
	}
}

func (r *recorder) listen(_ context.Context, ev agentcore.AgentEvent) {
	switch ev := ev.(type) {
	case *agentcore.AgentStartEvent, *agentcore.AgentEndEvent, *agentcore.TurnStartEvent:
		r.mu.Lock()
		r.log = append(r.log, ev.Type())
		r.mu.Unlock()
	case *agentcore.TurnEndEvent:
		r.mu.Lock()
		r.log = append(r.log, "turn_end "+string(ev.Message.StopReason))
		r.mu.Unlock()
	}
}

func (r *recorder) ends() []*compaction.EndEvent {
	var out []*compaction.EndEvent
	for _, ev := range r.events {
		if end, ok := ev.(*compaction.EndEvent); ok {
			out = append(out, end)
		}
	}
	return out
}

// compacting is an Agent with its Compactor.
type compacting struct {
	*agentcore.Agent
	*compaction.Compactor
}

// layered builds an Agent of aopts with a Compactor of opts as its only
// layer.
func layered(aopts agentcore.Options, opts compaction.Options) compacting {
	c := compaction.New(opts)
	aopts.Layers = []agentcore.Layer{c}
	return compacting{agentcore.New(aopts), c}
}

func newAgent(r *router, rec *recorder, messages []agentcore.Message, opts compaction.Options) compacting {
	opts.OnEvent = rec.onEvent
	opts.StreamFn = r.fake.Stream
	a := layered(agentcore.Options{
		SystemPrompt: "You help.", Model: smallModel(), StreamFn: r.fake.Stream,
		Tools: []agentcore.Tool{readTool()}, Messages: messages,
	}, opts)
	a.Subscribe(rec.listen)
	return a
}

// head is the system message agentcore.New would write for the agent of
// newAgent.
func head() *agentcore.SystemMessage {
	return agentcore.InitialSystemMessage("You help.", []agentcore.ToolDeclaration{readTool().Declaration()})
}

func readCall(id, path string) agentcoretest.Response {
	return agentcoretest.ToolCallResponse(call(id, "read", path))
}

func TestCompactsBetweenTurns(t *testing.T) {
	r := newRouter(
		[]agentcoretest.Response{readCall("c1", "a.go"), readCall("c2", "b.go"), readCall("c3", "c.go"), agentcoretest.TextResponse("done")},
		summaryResponse("## Goal\nread files", 30), summaryResponse("## Original Request\nread", 20),
	)
	rec := &recorder{}
	a := newAgent(r, rec, nil, compaction.Options{})
	require.NoError(t, a.Prompt(context.Background(), "read the files"))

	assert.Equal(t, []string{
		"agent_start", "turn_start", "turn_end toolUse", "turn_start", "turn_end toolUse", "turn_start", "turn_end toolUse",
		"compaction_start threshold retry=false", "compaction_end threshold ok retry=false",
		"turn_start", "turn_end stop", "agent_end",
	}, rec.log, "compacted after the tool results, before the next turn")

	ends := rec.ends()
	require.Len(t, ends, 1)
	res := ends[0].Result
	require.NotNil(t, res)
	assert.Greater(t, res.TokensBefore, 3072)
	assert.Less(t, res.TokensAfter, 3072)
	assert.True(t, res.Split, "one prompt's span, cut at an assistant message")
	assert.Equal(t, int64(30), res.Summary.Usage.Output, "the usage of the summary call")
	assert.Equal(t, []string{"a.go", "b.go"}, res.Summary.ReadFiles)

	// The fourth request sees the summary as a user message after the
	// system message, then the kept messages.
	calls := r.agentCalls()
	require.Len(t, calls, 4)
	sent := calls[3].Request.Messages
	require.IsType(t, &agentcore.SystemMessage{}, sent[0])
	u, ok := sent[1].(*agentcore.UserMessage)
	require.True(t, ok)
	assert.Contains(t, u.Text(), "<summary>\nNo earlier history.\n\n---\n\n")
	assert.Len(t, sent, 2+res.Kept)

	// The transcript is the compacted one, extended by the rest of the run.
	msgs := a.Messages()
	assert.Same(t, res.Summary, msgs[1])
	assert.Len(t, msgs, 2+res.Kept+1)
	assert.Equal(t, "done", msgs[len(msgs)-1].(*agentcore.AssistantMessage).Text())
	assertEveryCallHasItsResult(t, msgs)
}

// assertEveryCallHasItsResult checks that each tool call of messages is
// followed by its result, and each result follows its call.
func assertEveryCallHasItsResult(t *testing.T, msgs []agentcore.Message) {
	t.Helper()
	open := map[string]bool{}
	for _, m := range msgs {
		switch m := m.(type) {
		case *agentcore.AssistantMessage:
			for _, c := range m.ToolCalls() {
				open[c.ID] = true
			}
		case *agentcore.ToolResultMessage:
			assert.True(t, open[m.ToolCallID], "result %s without its call", m.ToolCallID)
			delete(open, m.ToolCallID)
		}
	}
	assert.Empty(t, open, "calls without results")
}

// big is a transcript of about 4,000 tokens: above an 8k model's threshold.
func big() []agentcore.Message {
	return []agentcore.Message{
		head(), user(words("u0", 1000)), answer(words("a0", 1000)), user(words("u1", 1000)), answer(words("a1", 1000)),
	}
}

func TestCompactsBeforePrompt(t *testing.T) {
	r := newRouter([]agentcoretest.Response{agentcoretest.TextResponse("ok")}, summaryResponse("## Goal\nearlier", 10), summaryResponse("prefix", 10))
	rec := &recorder{}
	a := newAgent(r, rec, big(), compaction.Options{})
	require.NoError(t, a.Prompt(context.Background(), "next"))
	assert.Equal(t, []string{
		"compaction_start threshold retry=false", "compaction_end threshold ok retry=false",
		"agent_start", "turn_start", "turn_end stop", "agent_end",
	}, rec.log)
	sent := r.agentCalls()[0].Request.Messages
	assert.Contains(t, sent[1].(*agentcore.UserMessage).Text(), "<summary>\n## Goal\nearlier")
	assert.Equal(t, "next", sent[len(sent)-1].(*agentcore.UserMessage).Text())
}

func TestCompactsAfterRun(t *testing.T) {
	over := agentcoretest.TextResponse("long answer")
	over.Usage = agentcore.Usage{Input: 3900, Output: 100, TotalTokens: 4000}
	r := newRouter([]agentcoretest.Response{over}, summaryResponse("## Goal\nx", 10), summaryResponse("prefix", 10))
	rec := &recorder{}
	a := newAgent(r, rec, []agentcore.Message{head(), user(words("u0", 1000)), answer(words("a0", 1000))}, compaction.Options{})
	require.NoError(t, a.Prompt(context.Background(), "more"))
	assert.Equal(t, []string{
		"agent_start", "turn_start", "turn_end stop", "agent_end",
		"compaction_start threshold retry=false", "compaction_end threshold ok retry=false",
	}, rec.log, "the usage of the run's last answer is above the threshold")
	_, ok := a.Messages()[1].(*compaction.Summary)
	assert.True(t, ok)
}

func TestRecovery(t *testing.T) {
	length := agentcoretest.TextResponse("a")
	length.StopReason = agentcore.StopLength
	length.Usage = agentcore.Usage{Input: 2000, Output: 1, TotalTokens: 2001}
	tests := []struct {
		name    string
		failure agentcoretest.Response
		stop    string
	}{
		{"context overflow", agentcoretest.ErrorResponse("prompt is too long: 9000 tokens > 8192 maximum"), "error"},
		{"early length stop", length, "length"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRouter([]agentcoretest.Response{tt.failure, agentcoretest.TextResponse("ok")}, summaryResponse("## Goal\nx", 10), summaryResponse("prefix", 10))
			rec := &recorder{}
			transcript := []agentcore.Message{head(), user(words("u0", 1000)), answer(words("a0", 1000))}
			a := newAgent(r, rec, transcript, compaction.Options{})
			require.NoError(t, a.Prompt(context.Background(), "more"), "the retry succeeded")

			assert.Equal(t, []string{
				"agent_start", "turn_start", "turn_end " + tt.stop, "agent_end",
				"compaction_start overflow retry=true", "compaction_end overflow ok retry=true",
				"agent_start", "turn_start", "turn_end stop", "agent_end",
			}, rec.log, "the failed attempt ends its run; the retry is a fresh run")

			calls := r.agentCalls()
			require.Len(t, calls, 2)
			retry := calls[1].Request.Messages
			assert.Contains(t, retry[1].(*agentcore.UserMessage).Text(), "<summary>")
			assert.Equal(t, "more", retry[len(retry)-1].(*agentcore.UserMessage).Text(), "the failed attempt is gone")

			msgs := a.Messages()
			assert.Equal(t, "ok", msgs[len(msgs)-1].(*agentcore.AssistantMessage).Text())
			for _, m := range msgs {
				if am, ok := m.(*agentcore.AssistantMessage); ok {
					assert.NotEqual(t, agentcore.StopReason(tt.stop), am.StopReason)
				}
			}
		})
	}
}

func TestRecoveryOnlyOnce(t *testing.T) {
	overflow := agentcoretest.ErrorResponse("prompt is too long")
	r := newRouter([]agentcoretest.Response{overflow, overflow}, summaryResponse("## Goal\nx", 10), summaryResponse("prefix", 10))
	rec := &recorder{}
	a := newAgent(r, rec, []agentcore.Message{head(), user(words("u0", 1000)), answer(words("a0", 1000))}, compaction.Options{})
	err := a.Prompt(context.Background(), "more")
	require.ErrorIs(t, err, compaction.ErrRecoveryFailed, "a failed recovery is the prompt's error")
	var runErr *agentcore.RunError
	assert.ErrorAs(t, err, &runErr)
	assert.Equal(t, []string{
		"agent_start", "turn_start", "turn_end error", "agent_end",
		"compaction_start overflow retry=true", "compaction_end overflow ok retry=true",
		"agent_start", "turn_start", "turn_end error", "agent_end",
	}, rec.log, "start and end events pair")
	assert.Len(t, r.agentCalls(), 2)
}

// TestLengthStopIsNotAnOverflow checks that a length stop at a limit the
// caller set below the model's, or with no output in a window that left
// room, is an ordinary answer: one call, no compaction, the transcript
// kept.
func TestLengthStopIsNotAnOverflow(t *testing.T) {
	capped := agentcoretest.TextResponse("a cut answer")
	capped.StopReason = agentcore.StopLength
	capped.Usage = agentcore.Usage{Input: 300, Output: 100, TotalTokens: 400}
	empty := agentcoretest.TextResponse("")
	empty.StopReason = agentcore.StopLength
	empty.Usage = agentcore.Usage{Input: 300, TotalTokens: 300}
	for _, tt := range []struct {
		name      string
		resp      agentcoretest.Response
		maxTokens int
	}{{"max tokens below the model's", capped, 100}, {"no output every time", empty, 0}} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRouter([]agentcoretest.Response{tt.resp, tt.resp, tt.resp}, summaryResponse("## Goal\nx", 10), summaryResponse("prefix", 10))
			rec := &recorder{}
			transcript := []agentcore.Message{head(), user(words("u0", 100)), answer(words("a0", 100))}
			a := newAgent(r, rec, transcript, compaction.Options{})
			a.SetStreamOptions(agentcore.StreamOptions{MaxTokens: tt.maxTokens})
			require.NoError(t, a.Prompt(context.Background(), "more"))
			assert.Len(t, r.agentCalls(), 1)
			assert.Empty(t, rec.events)
			assert.Len(t, a.Messages(), 5)
		})
	}
}

func TestFailingSummaryLeavesTheTranscript(t *testing.T) {
	r := newRouter([]agentcoretest.Response{agentcoretest.ErrorResponse("prompt is too long")}, agentcoretest.ErrorResponse("overloaded"), agentcoretest.ErrorResponse("overloaded"))
	rec := &recorder{}
	a := newAgent(r, rec, []agentcore.Message{head(), user(words("u0", 1000)), answer(words("a0", 1000))}, compaction.Options{})
	err := a.Prompt(context.Background(), "more")
	var runErr *agentcore.RunError
	require.ErrorAs(t, err, &runErr, "the run's own error")
	before := a.Messages()
	assert.Len(t, before, 5, "the transcript as the run left it, the failed attempt included")
	assert.Equal(t, agentcore.StopError, before[4].(*agentcore.AssistantMessage).StopReason)

	ends := rec.ends()
	require.Len(t, ends, 1)
	assert.ErrorIs(t, ends[0].Err, compaction.ErrSummaryFailed)
	assert.Contains(t, ends[0].Err.Error(), "overloaded", "says why")
	assert.Nil(t, ends[0].Result)
	assert.Len(t, r.agentCalls(), 1, "no retry")

	// A manual compaction that fails changes nothing either.
	_, err = a.Compact(context.Background(), "")
	require.ErrorIs(t, err, compaction.ErrSummaryFailed)
	assert.Equal(t, before, a.Messages())
}

func TestManualCompaction(t *testing.T) {
	r := newRouter(nil, summaryResponse("## Goal\nfocused", 10), summaryResponse("prefix", 10))
	rec := &recorder{}
	a := newAgent(r, rec, big(), compaction.Options{Manual: true})
	res, err := a.Compact(context.Background(), "focus on u1")
	require.NoError(t, err)
	assert.Equal(t, []string{"compaction_start manual retry=false", "compaction_end manual ok retry=false"}, rec.log)
	calls := r.summaryCalls()
	require.NotEmpty(t, calls)
	assert.Contains(t, promptText(calls[0]), "\n\nFocus especially on: focus on u1")
	assert.Same(t, res.Summary, a.Messages()[1])

	_, err = a.Compact(context.Background(), "")
	assert.ErrorIs(t, err, compaction.ErrNothingToCompact, "what is left is within the kept budget")
}

func TestManualOptionTurnsAutomaticOff(t *testing.T) {
	r := newRouter([]agentcoretest.Response{agentcoretest.TextResponse("ok")})
	rec := &recorder{}
	a := newAgent(r, rec, big(), compaction.Options{Manual: true})
	require.NoError(t, a.Prompt(context.Background(), "next"))
	assert.Empty(t, rec.events)
	assert.Empty(t, r.summaryCalls())
}

func TestBusy(t *testing.T) {
	r := newRouter([]agentcoretest.Response{agentcoretest.TextResponse("ok")})
	rec := &recorder{}
	a := newAgent(r, rec, big(), compaction.Options{Manual: true})
	var compactErr, promptErr error
	a.Subscribe(func(ctx context.Context, ev agentcore.AgentEvent) {
		if _, ok := ev.(*agentcore.TurnStartEvent); ok {
			_, compactErr = a.Compact(ctx, "")
			promptErr = a.Prompt(ctx, "again")
		}
	})
	require.NoError(t, a.Prompt(context.Background(), "next"))
	assert.ErrorIs(t, compactErr, agentcore.ErrBusy)
	assert.ErrorIs(t, promptErr, agentcore.ErrBusy)
	_, err := a.Compact(nil, "") //nolint:staticcheck // a nil context is refused
	assert.ErrorIs(t, err, agentcore.ErrNilContext)
}

// The caller's hooks run around the package's: PrepareNextTurn sees the
// compacted context, ConvertToLLM the summary as a user message.
func TestCallerHooks(t *testing.T) {
	r := newRouter(
		[]agentcoretest.Response{readCall("c1", "a.go"), readCall("c2", "b.go"), readCall("c3", "c.go"), agentcoretest.TextResponse("done")},
		summaryResponse("## Goal\nx", 10), summaryResponse("prefix", 10),
	)
	var seen []int
	sawSummary := false
	a := layered(agentcore.Options{
		SystemPrompt: "You help.", Model: smallModel(), StreamFn: r.fake.Stream, Tools: []agentcore.Tool{readTool()},
		Hooks: agentcore.Hooks{
			PrepareNextTurn: func(_ context.Context, turn agentcore.TurnContext) (*agentcore.TurnUpdate, error) {
				seen = append(seen, len(turn.Context.Messages))
				return &agentcore.TurnUpdate{ThinkingLevel: agentcore.ThinkingOff}, nil
			},
			ConvertToLLM: func(ctx context.Context, messages []agentcore.Message) ([]agentcore.Message, error) {
				for _, m := range messages {
					if _, ok := m.(*compaction.Summary); ok {
						sawSummary = true
					}
				}
				return agentcore.DefaultConvertToLLM(ctx, messages)
			},
		},
	}, compaction.Options{})
	require.NoError(t, a.Prompt(context.Background(), "read"))
	require.Len(t, seen, 3)
	assert.Equal(t, []int{4, 6}, seen[:2])
	assert.Less(t, seen[2], 8, "the compacted context")
	assert.False(t, sawSummary)
	assert.Len(t, r.agentCalls()[3].Request.Messages, seen[2])
}

// A compacted transcript saved as JSON and loaded into a new Agent gives
// the model the same context.
func TestCompactedTranscriptReloads(t *testing.T) {
	r := newRouter([]agentcoretest.Response{agentcoretest.TextResponse("ok"), agentcoretest.TextResponse("again")},
		summaryResponse("## Goal\nx", 10), summaryResponse("prefix", 10))
	a := newAgent(r, &recorder{}, big(), compaction.Options{})
	require.NoError(t, a.Prompt(context.Background(), "next"))
	data, err := json.Marshal(a.Messages())
	require.NoError(t, err)

	var reg agentcore.MessageRegistry
	compaction.Register(&reg)
	loaded, err := reg.UnmarshalMessages(data)
	require.NoError(t, err)
	again, err := json.Marshal(loaded)
	require.NoError(t, err)
	assert.JSONEq(t, string(data), string(again))

	b := newAgent(r, &recorder{}, loaded, compaction.Options{})
	require.NoError(t, b.Prompt(context.Background(), "go on"))
	calls := r.agentCalls()
	first, second := calls[0].Request.Messages, calls[1].Request.Messages
	assert.Equal(t, mustJSON(t, first), mustJSON(t, second[:len(first)]), "the reloaded context")
}

// A context above the threshold whose recent part fits the kept budget (a
// large summary, say) is compacted down to its last message.
func TestCompactsDownToTheLastMessage(t *testing.T) {
	counted := answer(words("a1", 100))
	counted.Timestamp = 100
	counted.Usage = agentcore.Usage{Input: 3900, Output: 100, TotalTokens: 4000}
	transcript := []agentcore.Message{
		head(), &compaction.Summary{Summary: words("earlier", 400), Timestamp: 50}, user(words("u1", 100)), counted,
	}
	r := newRouter([]agentcoretest.Response{agentcoretest.TextResponse("ok")}, summaryResponse("## Goal\nx", 10))
	rec := &recorder{}
	a := newAgent(r, rec, transcript, compaction.Options{})
	require.NoError(t, a.Prompt(context.Background(), "next"))
	ends := rec.ends()
	require.Len(t, ends, 1)
	require.NoError(t, ends[0].Err)
	assert.Equal(t, 1, ends[0].Result.Summarized)
	assert.Equal(t, 1, ends[0].Result.Kept)
	assert.True(t, strings.HasPrefix(ends[0].Result.Summary.Summary, "earlier "), "the previous summary stands for the history")

	_, err := layered(agentcore.Options{Messages: transcript, Model: smallModel(), StreamFn: r.fake.Stream}, compaction.Options{StreamFn: r.fake.Stream}).Compact(context.Background(), "")
	assert.ErrorIs(t, err, compaction.ErrNothingToCompact, "a manual compaction keeps pi's budget")
}

// An aborted run is neither compacted nor retried.
func TestAbortedRunIsLeftAlone(t *testing.T) {
	hang := agentcoretest.TextResponse("partial")
	hang.Hang = true
	hang.Usage = agentcore.Usage{TotalTokens: 9000}
	r := newRouter([]agentcoretest.Response{hang})
	rec := &recorder{}
	a := newAgent(r, rec, nil, compaction.Options{})
	a.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		if _, ok := ev.(*agentcore.MessageStartEvent); ok {
			a.Abort()
		}
	})
	err := a.Prompt(context.Background(), "go")
	require.Error(t, err)
	assert.Empty(t, rec.events)
	assert.Empty(t, r.summaryCalls())
}
