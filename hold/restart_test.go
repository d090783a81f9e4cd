package hold_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/hold"
	"github.com/pi-go/agentcore/internal/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// saved is what a program persists while calls are held.
type saved struct {
	Messages json.RawMessage `json:"messages"`
	Held     hold.State      `json:"held"`
}

// TestRestart holds two calls, saves transcript and state as JSON, and
// lets a new Agent and Gate, built from the JSON alone, take the decisions
// and finish the run. In a bubble, so that the saved times are fixed.
func TestRestart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		script := []agentcoretest.Response{
			agentcoretest.ToolCallResponse(deploy("c1", "production"), read("c2", "a.txt"), deploy("c3", "production")),
			agentcoretest.TextResponse("done"),
		}
		opts := hold.Options{Policy: deployPolicy, Timeout: 24 * time.Hour}
		first := newFixture(t, opts, nil, script[0])
		require.ErrorIs(t, first.agent.Prompt(t.Context(), "ship it"), hold.ErrHeld)
		require.NoError(t, first.gate.Decide(hold.Deny{ID: "c3", Reason: "one is enough"}))
		msgs, err := json.Marshal(first.agent.Messages())
		require.NoError(t, err)
		data, err := json.MarshalIndent(saved{Messages: msgs, Held: first.gate.State()}, "", "  ")
		require.NoError(t, err)
		golden.Check(t, stripTimes(data), filepath.Join("testdata", "saved.golden.json"))

		time.Sleep(time.Hour) // the process is gone for a while
		var s saved
		require.NoError(t, json.Unmarshal(data, &s))
		restored, err := agentcore.UnmarshalMessages(s.Messages)
		require.NoError(t, err)
		second := newFixture(t, opts, restored, script[1])
		require.NoError(t, second.gate.Restore(s.Held))
		assert.Equal(t, mustJSON(t, first.gate.State()), mustJSON(t, second.gate.State()))
		assert.ErrorIs(t, second.gate.Decide(hold.Approve{ID: "c3"}), hold.ErrDecided, "the decision made before the restart holds")
		require.NoError(t, second.gate.Decide(hold.Approve{ID: "c1"}))
		require.NoError(t, second.agent.Continue(t.Context()))
		assert.Equal(t, []string{"deploy production"}, second.ran.list())
		req := lastRequest(t, second.fake)
		assert.Equal(t, "deployed to production", result(t, req, "c1").Text())
		assert.Equal(t, "contents of a.txt", result(t, req, "c2").Text())
		assert.Equal(t, "one is enough", result(t, req, "c3").Text())
	})
}

// TestRestoreRefuses checks the states Restore refuses.
func TestRestoreRefuses(t *testing.T) {
	tests := []struct {
		name  string
		state hold.State
	}{
		{"no ID", hold.State{Calls: []hold.Call{{Tool: "deploy"}}}},
		{"held twice", hold.State{Calls: []hold.Call{{ID: "a", Tool: "deploy"}, {ID: "a", Tool: "deploy"}}}},
		{"another call's decision", hold.State{Calls: []hold.Call{{ID: "a", Tool: "deploy", Decision: hold.Deny{ID: "b"}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := hold.New(hold.Options{})
			assert.ErrorIs(t, g.Restore(tt.state), hold.ErrInvalidState)
			assert.Empty(t, g.State().Calls)
		})
	}
}

// TestDeadline lets a held call's deadline pass while Wait waits: the
// default denial applies and the run resumes. A second call has a deadline
// of its own request and a program default that approves.
func TestDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		policy := hold.First(
			hold.When("read", func(a readArgs) *hold.Request {
				return &hold.Request{Title: "read " + a.Path, Deadline: start.Add(2 * time.Hour)}
			}),
			deployPolicy,
		)
		f := newFixture(t, hold.Options{Policy: policy, Timeout: time.Hour, OnDeadline: func(c hold.Call) hold.Decision {
			if c.Tool == "read" {
				return hold.Approve{ID: c.ID}
			}
			return nil
		}}, nil, agentcoretest.ToolCallResponse(deploy("c1", "production"), read("c2", "a.txt")), agentcoretest.TextResponse("ok"))
		require.ErrorIs(t, f.agent.Prompt(t.Context(), "ship it"), hold.ErrHeld)
		held := f.gate.State().Calls
		require.Len(t, held, 2)
		assert.Equal(t, start.Add(time.Hour), held[0].Deadline)
		assert.Equal(t, start.Add(2*time.Hour), held[1].Deadline)

		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Minute)
		assert.ErrorIs(t, f.gate.Wait(ctx), context.DeadlineExceeded, "nothing decided yet")
		cancel()
		require.NoError(t, f.gate.Wait(t.Context()))
		assert.Equal(t, 2*time.Hour, time.Since(start), "Wait returns at the last deadline")
		for _, c := range f.gate.State().Calls {
			assert.True(t, c.ByDeadline, c.ID)
		}
		require.NoError(t, f.agent.Continue(t.Context()))
		req := lastRequest(t, f.fake)
		assert.Equal(t, "No decision was made before the deadline; the tool call was denied.", result(t, req, "c1").Text())
		assert.Equal(t, "contents of a.txt", result(t, req, "c2").Text())
		assert.Equal(t, []string{"read a.txt"}, f.ran.list())
	})
}

// TestDeadlinePassedWhileAway applies a deadline that passed while no
// process ran when the next run looks.
func TestDeadlinePassedWhileAway(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, hold.Options{Policy: deployPolicy, Timeout: time.Minute}, nil,
			agentcoretest.ToolCallResponse(deploy("c1", "production")), agentcoretest.TextResponse("ok"))
		require.ErrorIs(t, f.agent.Prompt(t.Context(), "ship it"), hold.ErrHeld)
		time.Sleep(time.Minute)
		assert.ErrorIs(t, f.gate.Decide(hold.Approve{ID: "c1"}), hold.ErrDecided, "too late")
		require.NoError(t, f.agent.Continue(t.Context()))
		assert.Empty(t, f.ran.list())
	})
}

// TestDecisionJSON round-trips each decision and refuses unknown types.
func TestDecisionJSON(t *testing.T) {
	for _, d := range []hold.Decision{
		hold.Approve{ID: "a"},
		hold.Approve{ID: "a", Arguments: json.RawMessage(`{"env":"staging"}`)},
		hold.Deny{ID: "b", Reason: "no"},
		hold.Answer{ID: "c", Result: agentcore.TextResult("42")},
	} {
		data, err := json.Marshal(d)
		require.NoError(t, err)
		back, err := hold.UnmarshalDecision(data)
		require.NoError(t, err, string(data))
		again, err := json.Marshal(back)
		require.NoError(t, err)
		assert.JSONEq(t, string(data), string(again))
	}
	_, err := hold.UnmarshalDecision([]byte(`{"type":"maybe","id":"a"}`))
	assert.ErrorIs(t, err, hold.ErrInvalidDecision)
	_, err = hold.UnmarshalDecision([]byte(`{"type":"deny","reason":7}`))
	assert.ErrorIs(t, err, hold.ErrInvalidDecision)
}

func FuzzUnmarshalDecision(f *testing.F) {
	f.Add([]byte(`{"type":"approve","id":"a","arguments":{"x":1}}`))
	f.Add([]byte(`{"type":"answer","id":"c","result":{"content":[{"type":"text","text":"x"}]}}`))
	f.Add([]byte(`{"type":"deny"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := hold.UnmarshalDecision(data)
		if err != nil {
			return
		}
		out, err := json.Marshal(d)
		require.NoError(t, err)
		_, err = hold.UnmarshalDecision(out)
		require.NoError(t, err)
	})
}
