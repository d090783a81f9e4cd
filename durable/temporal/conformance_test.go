package temporal_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
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
// plain Agent and through a session, and compares what each run gave: the
// requests the model received, each prompt's or continue's error, the
// transcript at each state step and at the end.
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
			require.Equal(t, len(want.states), len(got.states), "state steps")
			for i := range want.states {
				assert.Equal(t, want.states[i], got.states[i], "transcript at state %d", i)
			}
		})
	}
}

// unplayable says why a scenario cannot be played through a session
// without depending on timing, or "" when it can.
func unplayable(s *conformance.Scenario) string {
	prompted := false
	for _, st := range s.Steps {
		switch {
		case len(st.Prompt) > 0:
			if st.Wait != nil && !*st.Wait {
				return "a prompt runs in the background: where the next steps land depends on timing"
			}
			prompted = true
		case len(st.AppendMessage) > 0 && !prompted:
			// Part of the session's initial transcript.
		case st.Continue && (st.Wait == nil || *st.Wait):
		case len(st.Steer) > 0, len(st.FollowUp) > 0, st.Reset, st.State, st.Peek:
		default:
			return "a step changes what sessions fix in their Options (tools, model, thinking level, " +
				"queue modes, transcript), clears the queues, or aborts an idle agent"
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
		case st.State:
			p.states = append(p.states, normalize(t, a.Messages()))
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
	initial := o.Messages
	steps := s.Steps
	for len(steps) > 0 && len(steps[0].AppendMessage) > 0 {
		initial = append(initial, decode(t, steps[0].AppendMessage))
		steps = steps[1:]
	}
	session := startSession(t, do, initial...)
	target.s = session
	transcript := func() []map[string]any {
		st, err := session.State(ctx)
		require.NoError(t, err)
		return normalize(t, st.Messages)
	}
	for _, st := range steps {
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
		case st.State:
			p.states = append(p.states, transcript())
		}
	}
	p.states = append(p.states, transcript())
	return p
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
