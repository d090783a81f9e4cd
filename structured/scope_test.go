package structured_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/session"
	"github.com/pi-go/agentcore/structured"
)

// TestScopedToRunsThatAsk: on an Agent, a plain Prompt is left alone
// (no tool offered, no nudge after prose); a run that asks is nudged and
// fails with the Error that says why.
func TestScopedToRunsThatAsk(t *testing.T) {
	fake := agentcoretest.New(
		agentcoretest.TextResponse("Just prose."),
		agentcoretest.TextResponse("Prose again."), agentcoretest.TextResponse("Still prose."),
	)
	answer := structured.New[Line](structured.Options[Line]{})
	agent := newAgent(fake, answer)

	require.NoError(t, agent.Prompt(t.Context(), "hello"), "a plain prompt does not ask")
	require.Equal(t, 1, fake.CallCount(), "no nudge")
	assert.Empty(t, agentcore.CurrentTools(fake.Calls()[0].Request.Messages), "no tool offered")

	err := agent.Prompt(answer.Ask(t.Context()), "Extract the line.")
	var e *structured.Error
	require.ErrorAs(t, err, &e, "a run that asks and gets no answer fails")
	require.ErrorIs(t, err, structured.ErrNoAnswer)
	assert.Equal(t, 3, fake.CallCount(), "the prose, the nudge's answer")
	assert.Len(t, agentcore.CurrentTools(fake.Calls()[1].Request.Messages), 1, "the tool offered")
}

// TestNudgeIsTheLayers: the nudge is a pi custom message of the layer,
// not a user message; the model reads it as a user message, and a
// session file keeps it as a custom_message entry.
func TestNudgeIsTheLayers(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.TextResponse("Prose."), call("c1", valid))
	answer := structured.New[Line](structured.Options[Line]{})
	s, err := session.Create(t.TempDir(), "/work", nil)
	require.NoError(t, err)
	defer s.Close()
	agent := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: fake.Stream,
		Layers: []agentcore.Layer{answer, s.Layer()},
	})
	_, err = answer.Prompt(t.Context(), agent, "Extract the line.")
	require.NoError(t, err)

	var nudges []agentcore.Message
	for _, m := range agent.Messages() {
		_, user := m.(*agentcore.UserMessage)
		if m.Role() == "custom" {
			nudges = append(nudges, m)
		}
		if user {
			assert.NotContains(t, m.(*agentcore.UserMessage).Content.Text(), "Do not answer in text", "the nudge is not the user's")
		}
	}
	require.Len(t, nudges, 1)
	data, err := json.Marshal(nudges[0])
	require.NoError(t, err)
	assert.JSONEq(t, `{"role":"custom","customType":"structured","content":"Do not answer in text. Call the final_answer tool with your answer as its arguments.","display":false,"timestamp":0}`, string(data))
	assert.Equal(t, "Do not answer in text. Call the final_answer tool with your answer as its arguments.", lastUserText(t, fake.Calls()[1]),
		"the model reads it as a user message")

	var custom []*session.CustomMessageEntry
	for _, e := range s.Path(s.Leaf()) {
		if c, ok := e.(*session.CustomMessageEntry); ok {
			custom = append(custom, c)
		}
	}
	require.Len(t, custom, 1, "the session keeps the nudge as pi's custom_message")
	assert.Equal(t, structured.CustomType, custom[0].CustomType)
	assert.False(t, custom[0].Display)
}
