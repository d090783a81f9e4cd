package hold_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/hold"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRestoreMismatch restores states that do not match the transcript
// they were saved with: a Gate installed on the Agent refuses them at
// once; a Gate restored before its Agent exists refuses the next run,
// which neither runs nor drops the held calls.
func TestRestoreMismatch(t *testing.T) {
	opts := hold.Options{Policy: deployPolicy}
	first := newFixture(t, opts, nil, agentcoretest.ToolCallResponse(deploy("c1", "production"), read("c2", "a.txt"), deploy("c3", "production")))
	require.ErrorIs(t, first.agent.Prompt(t.Context(), "ship it"), hold.ErrHeld)
	messages, good := first.agent.Messages(), first.gate.State()
	require.Len(t, good.Calls, 2)

	edit := func(f func(s *hold.State)) hold.State {
		var s hold.State
		require.NoError(t, json.Unmarshal([]byte(mustJSON(t, good)), &s))
		f(&s)
		return s
	}
	resolved := slices.Clone(messages)
	for i, m := range resolved {
		if r, ok := m.(*agentcore.ToolResultMessage); ok && r.ToolCallID == "c1" {
			resolved[i] = &agentcore.ToolResultMessage{ToolCallID: "c1", ToolName: "deploy", Content: []agentcore.ContentBlock{&agentcore.TextBlock{Text: "deployed to production"}}}
		}
	}
	tests := []struct {
		name     string
		state    hold.State
		messages []agentcore.Message
		says     string
	}{
		{name: "another call", state: edit(func(s *hold.State) { s.Calls[0].ID = "c9" }), says: `calling "c9"`},
		{name: "another tool", state: edit(func(s *hold.State) { s.Calls[0].Tool = "read" }), says: "a call of \"deploy\""},
		{name: "a held call left out", state: edit(func(s *hold.State) { s.Calls = s.Calls[1:] }), says: "which the state does not"},
		{name: "a call already resolved", state: good, messages: resolved, says: "not the Gate's placeholder"},
	}
	for _, tt := range tests {
		msgs := cmpOr(tt.messages, messages)
		t.Run(tt.name+", installed", func(t *testing.T) {
			f := newFixture(t, opts, msgs, agentcoretest.TextResponse("never"))
			err := f.gate.Restore(tt.state)
			require.ErrorIs(t, err, hold.ErrInvalidState)
			assert.ErrorContains(t, err, tt.says)
			assert.Empty(t, f.gate.State().Calls, "nothing changed")
		})
		t.Run(tt.name+", before the Agent", func(t *testing.T) {
			fake := agentcoretest.New(agentcoretest.TextResponse("never"))
			gate := hold.New(opts)
			require.NoError(t, gate.Restore(tt.state), "no transcript to check yet")
			r := &ran{}
			agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: tools(r),
				Messages: msgs, Layers: []agentcore.Layer{gate}})
			err := agent.Continue(t.Context())
			require.ErrorIs(t, err, hold.ErrInvalidState)
			assert.ErrorContains(t, err, tt.says)
			assert.Equal(t, 0, fake.CallCount())
			assert.Empty(t, r.list())
			assert.Equal(t, mustJSON(t, tt.state), mustJSON(t, gate.State()), "the state is kept")
			assert.Equal(t, mustJSON(t, msgs), mustJSON(t, agent.Messages()), "the transcript is kept")
		})
	}

	t.Run("the saved state, before the Agent", func(t *testing.T) {
		second := hold.New(opts)
		require.NoError(t, second.Restore(good))
		agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: agentcoretest.New().Stream, Tools: tools(&ran{}),
			Messages: messages, Layers: []agentcore.Layer{second}})
		require.ErrorIs(t, agent.Continue(t.Context()), hold.ErrHeld, "the calls still wait")
		assert.Len(t, second.State().Calls, 2)
	})
}

// TestRestoreArguments: a held call's arguments must be a JSON object.
func TestRestoreArguments(t *testing.T) {
	for _, args := range []string{"", "[1]", `"x"`, "null", "{", "  {} x"} {
		g := hold.New(hold.Options{})
		err := g.Restore(hold.State{Calls: []hold.Call{{ID: "c1", Tool: "deploy", Arguments: json.RawMessage(args)}}})
		require.ErrorIs(t, err, hold.ErrInvalidState, args)
		assert.ErrorContains(t, err, "not a JSON object")
	}
	g := hold.New(hold.Options{})
	require.NoError(t, g.Restore(hold.State{Calls: []hold.Call{{ID: "c1", Tool: "deploy", Arguments: json.RawMessage(` {"env":"production"}`)}}}))
}

func cmpOr(a, b []agentcore.Message) []agentcore.Message {
	if a != nil {
		return a
	}
	return b
}
