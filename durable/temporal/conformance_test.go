package temporal_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pi-go/agentcore"
	durable "github.com/pi-go/agentcore/durable/temporal"
	"github.com/pi-go/agentcore/internal/conformance"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConformanceScenarios plays the Agent's conformance scenarios
// (../../testdata/conformance) that do not depend on timing through a
// plain Agent and through a session, every step by its session update,
// and compares what each run gave: the requests the model received, each
// prompt's or continue's error, what each peek saw queued, and the
// transcript, model and thinking level at each state step (the transcript
// at the end too).
//
// Hooks keyed by call number pick their rule by a number derived from
// their arguments (conformance.NewSetup), since a session replays the loop
// and calls hooks more than once per turn; a scenario where that number is
// not the count on the Agent is skipped. The other skips say why the
// scenario cannot be played through a session without timing.
func TestConformanceScenarios(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "conformance", "scenarios", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			s, err := conformance.Parse(data)
			require.NoError(t, err)
			if why := unplayable(s); why != "" {
				t.Skip(why)
			}
			want, mismatch := playOnAgent(t, s)
			if mismatch != "" {
				t.Skip("hook call numbers are not derivable from the hooks' arguments: " + mismatch)
			}
			got := playOnSession(t, s)
			assert.Equal(t, want.errs, got.errs, "prompt errors")
			assert.Equal(t, want.requests, got.requests, "requests")
			assert.Equal(t, want.peeks, got.peeks, "peeks")
			assert.Equal(t, want.settings, got.settings, "model and thinking level at each state step")
			require.Equal(t, len(want.states), len(got.states), "state steps")
			for i := range want.states {
				assert.Equal(t, want.states[i], got.states[i], "transcript at state %d", i)
			}
		})
	}
}

// unplayable says why a scenario cannot be played through a session
// without depending on timing, or "" when it can. Every step has its
// session update; without a run in the background an abort finds the
// session idle, and waiting for idle or sleeping does nothing.
func unplayable(s *conformance.Scenario) string {
	for _, st := range s.Steps {
		if (len(st.Prompt) > 0 || st.Continue) && st.Wait != nil && !*st.Wait {
			return "a prompt runs in the background: where the next steps land depends on timing"
		}
	}
	for _, raw := range s.Hooks {
		if bytes.Contains(raw, []byte(`"actions"`)) {
			return "a hook steers, follows up or aborts: hooks run in the workflow, which cannot call the client"
		}
	}
	behaviors, _ := json.Marshal([]any{s.Tools, s.Calls, s.Model})
	for _, timed := range []string{`"abort":true`, `"hang":true`, `"waitForAbort":true`} {
		if bytes.Contains(behaviors, []byte(timed)) {
			return "a response or tool aborts or waits for an abort: where the abort lands depends on timing"
		}
	}
	return ""
}

// played is what a play gave, normalized (no times or durations).
type played struct {
	requests []any
	errs     []string
	states   [][]map[string]any
	// settings are the model's ID and the thinking level at each state
	// step; peeks what each peek step saw queued.
	settings []string
	peeks    [][]map[string]any
}

// settingsText is what played.settings holds for one state step.
func settingsText(model agentcore.Model, level agentcore.ThinkingLevel) string {
	return "model " + model.ID + ", thinking " + string(level)
}

// queueFor names the queues of a clearQueues step.
func queueFor(name string) agentcore.Queue {
	switch name {
	case "steering":
		return agentcore.SteeringQueue
	case "followUp":
		return agentcore.FollowUpQueue
	}
	return agentcore.AllQueues
}

// decodeAll decodes a setMessages step's messages.
func decodeAll(t *testing.T, raws []json.RawMessage) []agentcore.Message {
	msgs := make([]agentcore.Message, len(raws))
	for i, raw := range raws {
		msgs[i] = decode(t, raw)
	}
	return msgs
}

// toolNames lists the scenario's tools a session's workers need: those of
// the agent, then those of its setTools steps, each once.
func toolNames(s *conformance.Scenario) []string {
	names := slices.Clone(s.Agent.Tools)
	for _, st := range s.Steps {
		for _, n := range st.SetTools {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	return names
}

// recordRequests wraps the scripted model so that it keeps what each
// request was given.
func recordRequests(t *testing.T, fn agentcore.StreamFn, p *played) agentcore.StreamFn {
	var mu sync.Mutex
	return func(ctx context.Context, m agentcore.Model, req agentcore.Request, o agentcore.StreamOptions) agentcore.AssistantStream {
		mu.Lock()
		p.requests = append(p.requests, map[string]any{
			"model": m.ID, "reasoning": o.Reasoning, "apiKey": o.APIKey, "messages": normalize(t, req.Messages),
		})
		mu.Unlock()
		return fn(ctx, m, req, o)
	}
}

// agentTarget sends actions to the Agent once it exists.
type agentTarget struct{ a *agentcore.Agent }

func (x *agentTarget) Steer(m agentcore.Message)    { x.a.Steer(m) }
func (x *agentTarget) FollowUp(m agentcore.Message) { x.a.FollowUp(m) }
func (x *agentTarget) Abort()                       { x.a.Abort() }

// playOnAgent plays the steps on a plain Agent and returns what it gave
// and whether the derived hook call numbers matched the counts.
func playOnAgent(t *testing.T, s *conformance.Scenario) (played, string) {
	var p played
	target := &agentTarget{}
	setup, err := conformance.NewSetup(s, target, true)
	require.NoError(t, err)
	o := setup.Options
	o.StreamFn = recordRequests(t, o.StreamFn, &p)
	a := agentcore.New(o)
	target.a = a
	ctx := testCtx(t)
	for _, st := range s.Steps {
		switch {
		case len(st.Prompt) > 0:
			p.errs = append(p.errs, errText(a.PromptMessages(ctx, promptMessages(t, st.Prompt)...)))
		case st.Continue:
			p.errs = append(p.errs, errText(a.Continue(ctx)))
		case len(st.AppendMessage) > 0:
			a.AppendMessage(decode(t, st.AppendMessage))
		case len(st.Steer) > 0:
			a.Steer(promptMessages(t, st.Steer)[0])
		case len(st.FollowUp) > 0:
			a.FollowUp(promptMessages(t, st.FollowUp)[0])
		case st.Reset:
			require.NoError(t, a.Reset())
		case st.Abort:
			a.Abort()
		case st.SetTools != nil:
			tools, err := setup.Tools(st.SetTools)
			require.NoError(t, err)
			a.SetTools(tools)
		case st.SetModel != nil:
			a.SetModel(st.SetModel.Model())
		case st.SetThinkingLevel != "":
			a.SetThinkingLevel(agentcore.ThinkingLevel(st.SetThinkingLevel))
		case st.SetMessages != nil:
			a.SetMessages(decodeAll(t, st.SetMessages))
		case st.SetSteeringMode != "":
			a.SetSteeringMode(agentcore.QueueMode(st.SetSteeringMode))
		case st.SetFollowUpMode != "":
			a.SetFollowUpMode(agentcore.QueueMode(st.SetFollowUpMode))
		case st.ClearQueues != "":
			a.ClearQueue(queueFor(st.ClearQueues))
		case st.Peek:
			p.peeks = append(p.peeks, normalize(t, a.PeekQueued()))
		case st.State:
			p.states = append(p.states, normalize(t, a.Messages()))
			as := a.State()
			p.settings = append(p.settings, settingsText(as.Model, as.ThinkingLevel))
		}
	}
	p.states = append(p.states, normalize(t, a.Messages()))
	return p, setup.Mismatch()
}

// sessionTarget sends actions to the session once it exists. Actions run
// in the model and tool activities, on the worker, which may call the
// client; each returns once the workflow has applied it.
type sessionTarget struct {
	t   *testing.T
	ctx context.Context
	s   *durable.Session
}

func (x *sessionTarget) Steer(m agentcore.Message) { assert.NoError(x.t, x.s.Steer(x.ctx, m)) }
func (x *sessionTarget) FollowUp(m agentcore.Message) {
	assert.NoError(x.t, x.s.FollowUp(x.ctx, m))
}
func (x *sessionTarget) Abort() { assert.NoError(x.t, x.s.Abort(x.ctx)) }

// playOnSession plays the steps on a session.
func playOnSession(t *testing.T, s *conformance.Scenario) played {
	var p played
	ctx := testCtx(t)
	target := &sessionTarget{t: t, ctx: ctx}
	setup, err := conformance.NewSetup(s, target, true)
	require.NoError(t, err)
	o := setup.Options
	do := durableOptions(o, recordRequests(t, o.StreamFn, &p))
	do.ThinkingLevel = o.ThinkingLevel
	// The workers have every tool a step selects; a new session starts
	// with the agent's.
	do.Tools, err = setup.Tools(toolNames(s))
	require.NoError(t, err)
	do.ActiveTools = append([]string{}, s.Agent.Tools...)
	session := startSession(t, do, o.Messages...)
	target.s = session
	state := func() durable.State {
		st, err := session.State(ctx)
		require.NoError(t, err)
		return st
	}
	for _, st := range s.Steps {
		switch {
		case len(st.Prompt) > 0:
			p.errs = append(p.errs, errText(session.PromptMessages(ctx, promptMessages(t, st.Prompt)...)))
		case st.Continue:
			p.errs = append(p.errs, errText(session.Continue(ctx)))
		case len(st.Steer) > 0:
			require.NoError(t, session.Steer(ctx, promptMessages(t, st.Steer)[0]))
		case len(st.FollowUp) > 0:
			require.NoError(t, session.FollowUp(ctx, promptMessages(t, st.FollowUp)[0]))
		case st.Reset:
			require.NoError(t, session.Reset(ctx))
		case st.Abort:
			require.NoError(t, session.Abort(ctx))
		case len(st.AppendMessage) > 0:
			require.NoError(t, session.AppendMessage(ctx, decode(t, st.AppendMessage)))
		case st.SetTools != nil:
			require.NoError(t, session.SetTools(ctx, st.SetTools...))
		case st.SetModel != nil:
			require.NoError(t, session.SetModel(ctx, st.SetModel.Model()))
		case st.SetThinkingLevel != "":
			require.NoError(t, session.SetThinkingLevel(ctx, agentcore.ThinkingLevel(st.SetThinkingLevel)))
		case st.SetMessages != nil:
			require.NoError(t, session.SetMessages(ctx, decodeAll(t, st.SetMessages)))
		case st.SetSteeringMode != "":
			require.NoError(t, session.SetSteeringMode(ctx, agentcore.QueueMode(st.SetSteeringMode)))
		case st.SetFollowUpMode != "":
			require.NoError(t, session.SetFollowUpMode(ctx, agentcore.QueueMode(st.SetFollowUpMode)))
		case st.ClearQueues != "":
			require.NoError(t, session.ClearQueue(ctx, queueFor(st.ClearQueues)))
		case st.Peek:
			p.peeks = append(p.peeks, normalize(t, peek(state())))
		case st.State:
			ss := state()
			p.states = append(p.states, normalize(t, ss.Messages))
			p.settings = append(p.settings, settingsText(ss.Model, ss.ThinkingLevel))
		}
	}
	p.states = append(p.states, normalize(t, state().Messages))
	return p
}

// peek is what the Agent's PeekQueued answers for a session's state: what
// the next drain point would take, steering first, by each queue's mode.
func peek(st durable.State) []agentcore.Message {
	take := func(q []agentcore.Message, mode agentcore.QueueMode) []agentcore.Message {
		if len(q) > 1 && mode != agentcore.QueueModeAll {
			return q[:1]
		}
		return q
	}
	if len(st.Steering) > 0 {
		return take(st.Steering, st.SteeringMode)
	}
	return take(st.FollowUp, st.FollowUpMode)
}

// promptMessages reads a prompt, steer or follow-up step's argument: text,
// a message, or a list of messages.
func promptMessages(t *testing.T, raw json.RawMessage) []agentcore.Message {
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return []agentcore.Message{&agentcore.UserMessage{Content: agentcore.Blocks(agentcore.TextBlock{Text: text})}}
	}
	if bytes.HasPrefix(bytes.TrimSpace(raw), []byte("[")) {
		msgs, err := agentcore.UnmarshalMessages(raw)
		require.NoError(t, err)
		return msgs
	}
	return []agentcore.Message{decode(t, raw)}
}

func decode(t *testing.T, raw json.RawMessage) agentcore.Message {
	m, err := agentcore.UnmarshalMessage(raw)
	require.NoError(t, err)
	return m
}

// errText is a run's error as text, "" for none; a refusal is its
// sentinel's text.
func errText(err error) string {
	if err == nil {
		return ""
	}
	for _, sentinel := range []error{agentcore.ErrBusy, agentcore.ErrNoMessages, agentcore.ErrContinueFromAssistant} {
		if errors.Is(err, sentinel) {
			return sentinel.Error()
		}
	}
	return err.Error()
}
