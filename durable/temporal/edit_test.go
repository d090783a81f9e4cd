package temporal_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	durable "github.com/pi-go/agentcore/durable/temporal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// editor is what a user may change of an Agent or a session.
type editor interface {
	SetModel(agentcore.Model)
	SetThinkingLevel(agentcore.ThinkingLevel)
	SetTools(names ...string)
	SetMessages(msgs ...agentcore.Message)
	AppendMessage(agentcore.Message)
	SetSteeringMode(agentcore.QueueMode)
	Steer(agentcore.Message)
}

type agentEditor struct {
	a     *agentcore.Agent
	tools map[string]agentcore.Tool
}

func (e agentEditor) SetModel(m agentcore.Model)                 { e.a.SetModel(m) }
func (e agentEditor) SetThinkingLevel(l agentcore.ThinkingLevel) { e.a.SetThinkingLevel(l) }
func (e agentEditor) SetMessages(msgs ...agentcore.Message)      { e.a.SetMessages(msgs) }
func (e agentEditor) AppendMessage(m agentcore.Message)          { e.a.AppendMessage(m) }
func (e agentEditor) SetSteeringMode(m agentcore.QueueMode)      { e.a.SetSteeringMode(m) }
func (e agentEditor) Steer(m agentcore.Message)                  { e.a.Steer(m) }
func (e agentEditor) SetTools(names ...string) {
	tools := make([]agentcore.Tool, len(names))
	for i, n := range names {
		tools[i] = e.tools[n]
	}
	e.a.SetTools(tools)
}

// sessionEditor edits a session; each call returns once the workflow has
// applied it.
type sessionEditor struct {
	t   *testing.T
	ctx context.Context
	s   *durable.Session
}

func (e sessionEditor) SetModel(m agentcore.Model) { assert.NoError(e.t, e.s.SetModel(e.ctx, m)) }
func (e sessionEditor) SetThinkingLevel(l agentcore.ThinkingLevel) {
	assert.NoError(e.t, e.s.SetThinkingLevel(e.ctx, l))
}
func (e sessionEditor) SetTools(names ...string) { assert.NoError(e.t, e.s.SetTools(e.ctx, names...)) }
func (e sessionEditor) SetMessages(msgs ...agentcore.Message) {
	assert.NoError(e.t, e.s.SetMessages(e.ctx, msgs))
}
func (e sessionEditor) AppendMessage(m agentcore.Message) {
	assert.NoError(e.t, e.s.AppendMessage(e.ctx, m))
}
func (e sessionEditor) SetSteeringMode(m agentcore.QueueMode) {
	assert.NoError(e.t, e.s.SetSteeringMode(e.ctx, m))
}
func (e sessionEditor) Steer(m agentcore.Message) { assert.NoError(e.t, e.s.Steer(e.ctx, m)) }

// editScript is a run whose first tool call edits everything a user may
// edit, then a second run.
type editScript struct {
	responses []agentcoretest.Response
	second    agentcore.Model
}

func newEditScript() editScript {
	second := agentcoretest.Model()
	second.ID, second.Name = "second", "second"
	return editScript{second: second, responses: []agentcoretest.Response{
		agentcoretest.ToolCallResponse(echoCall("c1", "a")),
		agentcoretest.TextResponse("after steering"),
		agentcoretest.TextResponse("second run"),
	}}
}

// tools returns the echo tool, which edits through *e on its first call,
// and the shout tool, which the edits select.
func (sc editScript) tools(e *editor) (echo, shout agentcore.Tool) {
	var once sync.Once
	echo = echoTool(agentcore.ReplayNever, func(ctx context.Context, text string) (string, error) {
		once.Do(func() { sc.edit(*e) })
		return text, nil
	})
	return echo, shoutTool()
}

// shoutTool answers its text argument in capitals.
func shoutTool() agentcore.Tool {
	return agentcore.NewTool("shout", "Shouts text.", func(_ context.Context, _ string, a struct {
		Text string `json:"text"`
	}, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.TextResult(strings.ToUpper(a.Text)), nil
	})
}

// edit changes everything while the run's tool call executes.
func (sc editScript) edit(e editor) {
	e.SetModel(sc.second)
	e.SetThinkingLevel(agentcore.ThinkingHigh)
	e.SetTools("shout")
	e.SetMessages(agentcore.UserText("replaced"))
	e.AppendMessage(agentcore.UserText("appended"))
	e.SetSteeringMode(agentcore.QueueModeAll)
	e.Steer(agentcore.UserText("steer 1"))
	e.Steer(agentcore.UserText("steer 2"))
}

// TestEditsDuringRunMatchAgent changes the model, thinking level, tools,
// transcript and steering mode while a tool runs, then runs again: a
// session gives the requests and transcript the Agent gives. The run in
// progress keeps its model, tools and context and takes both steering
// messages at once (the mode applies from the next poll); its messages
// are appended to the replaced transcript; the next run uses the new
// settings.
func TestEditsDuringRunMatchAgent(t *testing.T) {
	ctx := testCtx(t)
	sc := newEditScript()

	var want played
	var ae editor
	echo, shout := sc.tools(&ae)
	a := agentcore.New(agentcore.Options{
		SystemPrompt: "sys", Model: agentcoretest.Model(), Tools: []agentcore.Tool{echo},
		StreamFn: recordRequests(t, agentcoretest.New(sc.responses...).Stream, &want),
	})
	ae = agentEditor{a: a, tools: map[string]agentcore.Tool{"echo": echo, "shout": shout}}
	want.errs = append(want.errs, errText(a.Prompt(ctx, "go")), errText(a.Prompt(ctx, "again")))
	want.states = append(want.states, normalize(t, a.Messages()))

	var got played
	var se editor
	echo, shout = sc.tools(&se)
	s := startSession(t, durable.Options{
		SystemPrompt: "sys", Model: agentcoretest.Model(), Tools: []agentcore.Tool{echo, shout}, ActiveTools: []string{"echo"},
		StreamFn: recordRequests(t, agentcoretest.New(sc.responses...).Stream, &got),
	})
	se = sessionEditor{t: t, ctx: ctx, s: s}
	got.errs = append(got.errs, errText(s.Prompt(ctx, "go")), errText(s.Prompt(ctx, "again")))
	st, err := s.State(ctx)
	require.NoError(t, err)
	got.states = append(got.states, normalize(t, st.Messages))

	assert.Equal(t, want.errs, got.errs)
	assert.Equal(t, want.requests, got.requests)
	assert.Equal(t, want.states, got.states)
	require.Len(t, got.requests, 3)
	for i, model := range []string{"fake-model", "fake-model", "second"} {
		assert.Equal(t, model, got.requests[i].(map[string]any)["model"], "request %d", i)
	}
	assert.Equal(t, agentcore.ThinkingHigh, got.requests[2].(map[string]any)["reasoning"])
	assert.Equal(t, "replaced", st.Messages[0].(*agentcore.UserMessage).Text())

	assert.Equal(t, "second", st.Model.ID)
	assert.Equal(t, agentcore.ThinkingHigh, st.ThinkingLevel)
	assert.Equal(t, []string{"shout"}, st.Tools)
	assert.Equal(t, agentcore.QueueModeAll, st.SteeringMode)
	assert.Equal(t, agentcore.QueueModeOneAtATime, st.FollowUpMode)
	assert.Equal(t, agentcore.ToolsParallel, st.ToolExecution)
}

// TestEditsRefused checks that bad settings are refused with a clear
// error and change nothing.
func TestEditsRefused(t *testing.T) {
	ctx := testCtx(t)
	s := startSession(t, durable.Options{Model: agentcoretest.Model(), StreamFn: agentcoretest.New().Stream,
		Tools: []agentcore.Tool{echoTool(agentcore.ReplayNever, nil)}})
	before, err := s.State(ctx)
	require.NoError(t, err)
	for _, tc := range []struct {
		name     string
		call     func() error
		sentinel error
		text     string
	}{
		{"unknown tool", func() error { return s.SetTools(ctx, "echo", "nope") }, durable.ErrUnknownTool, `"nope"`},
		{"tool twice", func() error { return s.SetTools(ctx, "echo", "echo") }, durable.ErrInvalidSetting, `"echo" selected twice`},
		{"thinking level", func() error { return s.SetThinkingLevel(ctx, "huge") }, durable.ErrInvalidSetting, `"huge"`},
		{"steering mode", func() error { return s.SetSteeringMode(ctx, "some") }, durable.ErrInvalidSetting, `"some"`},
		{"follow-up mode", func() error { return s.SetFollowUpMode(ctx, "some") }, durable.ErrInvalidSetting, `"some"`},
		{"tool execution", func() error { return s.SetToolExecution(ctx, "eventually") }, durable.ErrInvalidSetting, `"eventually"`},
		{"queue", func() error { return s.ClearQueue(ctx, 8) }, durable.ErrInvalidSetting, "queue 8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			require.ErrorIs(t, err, tc.sentinel)
			assert.ErrorContains(t, err, tc.text)
		})
	}
	after, err := s.State(ctx)
	require.NoError(t, err)
	before.HistoryLength, before.HistorySize, after.HistoryLength, after.HistorySize = 0, 0, 0, 0
	assert.Equal(t, before, after)
	assert.Equal(t, []string{"echo"}, after.Tools)
	assert.Equal(t, agentcore.ThinkingOff, after.ThinkingLevel)
}

// TestEditsIdle edits an idle session: the transcript, the queues, an
// abort that does nothing; a subscriber is told of the replacement.
func TestEditsIdle(t *testing.T) {
	ctx := testCtx(t)
	fake := agentcoretest.New(agentcoretest.TextResponse("one"), agentcoretest.TextResponse("two"))
	s := startSession(t, durable.Options{SystemPrompt: "sys", Model: agentcoretest.Model(), StreamFn: fake.Stream})
	require.NoError(t, s.Prompt(ctx, "go"))
	_, next, _, err := s.Messages(ctx, 0)
	require.NoError(t, err)
	require.Equal(t, 3, next)

	require.NoError(t, s.Abort(ctx), "an abort of an idle session does nothing")
	require.NoError(t, s.SetMessages(ctx, []agentcore.Message{agentcore.UserText("a"), nil, agentcore.UserText("b")}))
	msgs, next2, reset, err := s.Messages(ctx, next)
	require.NoError(t, err)
	assert.True(t, reset, "the replacement is reported")
	require.Len(t, msgs, 2, "the nil message is dropped")
	assert.Equal(t, "b", msgs[1].(*agentcore.UserMessage).Text())
	assert.Greater(t, next2, next)

	msgs, _, reset, err = s.Messages(ctx, 0)
	require.NoError(t, err)
	assert.False(t, reset, "0 is the start")
	assert.Len(t, msgs, 2)

	require.NoError(t, s.AppendMessage(ctx, agentcore.UserText("c")))
	require.NoError(t, s.AppendMessage(ctx, nil))
	msgs, _, reset, err = s.Messages(ctx, next2)
	require.NoError(t, err)
	assert.False(t, reset)
	require.Len(t, msgs, 1)
	assert.Equal(t, "c", msgs[0].(*agentcore.UserMessage).Text())

	require.NoError(t, s.Steer(ctx, agentcore.UserText("s")))
	require.NoError(t, s.FollowUp(ctx, agentcore.UserText("f")))
	require.NoError(t, s.ClearQueue(ctx, agentcore.SteeringQueue))
	st, err := s.State(ctx)
	require.NoError(t, err)
	assert.Empty(t, st.Steering)
	assert.Len(t, st.FollowUp, 1)
	require.NoError(t, s.ClearQueue(ctx, agentcore.AllQueues))
	st, err = s.State(ctx)
	require.NoError(t, err)
	assert.Empty(t, st.FollowUp)
	assert.Len(t, st.Messages, 3)
	assert.Equal(t, 1, st.Runs, "the abort started nothing")

	require.NoError(t, s.Prompt(ctx, "go on"))
	st, err = s.State(ctx)
	require.NoError(t, err)
	assert.Len(t, st.Messages, 5)
}

// TestEditsCarriedOver changes the settings, then runs until the session
// continued as new: the new execution keeps them.
func TestEditsCarriedOver(t *testing.T) {
	ctx := testCtx(t)
	fake := agentcoretest.NewFunc(func(context.Context, agentcoretest.Call) agentcoretest.Response {
		return agentcoretest.TextResponse("ok")
	})
	var p played
	o := durable.Options{Model: agentcoretest.Model(), StreamFn: recordRequests(t, fake.Stream, &p),
		Tools: []agentcore.Tool{echoTool(agentcore.ReplayNever, nil)}, MaxHistoryLength: 40}
	s := startSession(t, o)
	second := agentcoretest.Model()
	second.ID = "second"
	require.NoError(t, s.SetModel(ctx, second))
	require.NoError(t, s.SetThinkingLevel(ctx, agentcore.ThinkingLow))
	require.NoError(t, s.SetTools(ctx))
	require.NoError(t, s.SetFollowUpMode(ctx, agentcore.QueueModeAll))
	var st durable.State
	for range 10 {
		require.NoError(t, s.Prompt(ctx, "go"))
		var err error
		st, err = s.State(ctx)
		require.NoError(t, err)
		if st.Continued > 0 {
			break
		}
	}
	require.Positive(t, st.Continued, "the session never continued as new")
	require.NoError(t, s.Prompt(ctx, "after"))
	st, err := s.State(ctx)
	require.NoError(t, err)
	assert.Equal(t, "second", st.Model.ID)
	assert.Equal(t, agentcore.ThinkingLow, st.ThinkingLevel)
	assert.Equal(t, []string{}, st.Tools)
	assert.Equal(t, agentcore.QueueModeAll, st.FollowUpMode)
	last := p.requests[len(p.requests)-1].(map[string]any)
	assert.Equal(t, "second", last["model"])
	assert.Equal(t, agentcore.ThinkingLow, last["reasoning"])
}
