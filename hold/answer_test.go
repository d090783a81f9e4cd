package hold_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/hold"
	"github.com/pi-go/agentcore/structured"
)

// TestHeldRunThatAsksForAnAnswer: a run that asks a structured.Answer for
// its value and holds a call is paused, not a run without an answer,
// whichever of the two layers comes first: Prompt returns the HeldError,
// and the resumed run that asks returns the answer.
func TestHeldRunThatAsksForAnAnswer(t *testing.T) {
	type verdict struct {
		Done bool `json:"done"`
	}
	for _, gateFirst := range []bool{true, false} {
		t.Run(map[bool]string{true: "gate first", false: "answer first"}[gateFirst], func(t *testing.T) {
			answer := structured.New(structured.Options[verdict]{})
			gate := hold.New(hold.Options{Policy: deployPolicy})
			layers := []agentcore.Layer{answer, gate}
			if gateFirst {
				layers = []agentcore.Layer{gate, answer}
			}
			r := &ran{}
			fake := agentcoretest.New(
				agentcoretest.ToolCallResponse(deploy("c1", "production")),
				agentcoretest.ToolCallResponse(agentcoretest.ToolCall("a1", structured.DefaultName, verdict{Done: true})),
			)
			agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: tools(r), Layers: layers})

			err := agent.Prompt(answer.Ask(t.Context()), "ship it")
			require.ErrorIs(t, err, hold.ErrHeld)
			assert.NotErrorIs(t, err, structured.ErrNoAnswer)
			require.NoError(t, gate.Decide(hold.Approve{ID: "c1"}))
			require.NoError(t, agent.Continue(answer.Ask(t.Context())))
			assert.Equal(t, []string{"deploy production"}, r.list())
			got, err := answer.Result(agent.Messages())
			require.NoError(t, err)
			assert.Equal(t, verdict{Done: true}, got)
		})
	}
}
