package structured_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/structured"
)

// Outline is a typed answer that refers to itself.
type Outline struct {
	Title    string     `json:"title"`
	Sections []*Outline `json:"sections"`
}

// TestRecursiveAnswer: a type that refers to itself is an answer whose
// schema refers to its definitions, in tool mode and in native mode
// (where the definitions' objects are closed too), never a stack
// overflow.
func TestRecursiveAnswer(t *testing.T) {
	const text = `{"title":"a","sections":[{"title":"b","sections":[{"title":"c","sections":[]}]}]}`
	want := Outline{Title: "a", Sections: []*Outline{{Title: "b", Sections: []*Outline{{Title: "c", Sections: []*Outline{}}}}}}

	answer := structured.New[Outline](structured.Options[Outline]{})
	require.NoError(t, answer.Tool().Validate())
	assert.Contains(t, string(answer.Tool().Parameters), `"$ref":"#/$defs/Outline"`)
	var args any
	require.NoError(t, json.Unmarshal([]byte(text), &args))
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", answer.Name(), args)))
	got, err := answer.Prompt(t.Context(), nativeAgent(fake, claude, answer), "Outline it.")
	require.NoError(t, err)
	assert.Equal(t, want, got)

	native := structured.New[Outline](structured.Options[Outline]{Mode: structured.ModeNative})
	fake = agentcoretest.New(agentcoretest.TextResponse(text))
	got, err = native.Prompt(t.Context(), nativeAgent(fake, gpt5, native), "Outline it.")
	require.NoError(t, err)
	assert.Equal(t, want, got)
	rf := fake.Calls()[0].Options.ResponseFormat
	require.NotNil(t, rf)
	var schema struct {
		Defs struct {
			Outline struct {
				AdditionalProperties *bool `json:"additionalProperties"`
			} `json:"Outline"`
		} `json:"$defs"`
	}
	require.NoError(t, json.Unmarshal(rf.Schema, &schema))
	assert.Equal(t, new(false), schema.Defs.Outline.AdditionalProperties, "a definition's object is closed")
	assert.True(t, rf.Strict, "every object requires all its properties")
}
