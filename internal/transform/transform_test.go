package transform

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

func TestPrepare(t *testing.T) {
	model := agentcore.Model{ID: "m", API: "api", Provider: "p", Input: []string{"text"}}
	img := agentcore.ImageBlock{Data: "aGk=", MimeType: "image/png"}
	foreign := &agentcore.AssistantMessage{
		API: "other", Provider: "p", Model: "m", StopReason: agentcore.StopToolUse,
		Content: []agentcore.ContentBlock{
			agentcore.ThinkingBlock{Thinking: "x", ThinkingSignature: "s"},
			agentcore.ToolCall{ID: "a|b", Name: "t", ThoughtSignature: "ts"},
			agentcore.ToolCall{ID: "c", Name: "t"},
		},
	}
	sys := &agentcore.SystemMessage{Content: agentcore.Text("later")}
	messages := []agentcore.Message{
		&agentcore.UserMessage{Content: agentcore.Blocks(agentcore.TextBlock{Text: "hi"}, img, img)},
		foreign,
		sys,
		&agentcore.ToolResultMessage{ToolCallID: "a|b", ToolName: "t", Content: []agentcore.ContentBlock{img}},
		&agentcore.AssistantMessage{API: "api", Provider: "p", Model: "m", StopReason: agentcore.StopError},
		&agentcore.UserMessage{Content: agentcore.Text("next")},
	}
	got := Prepare(model, messages, SanitizeID)
	require.Len(t, got, 6)

	user := got[0].(*agentcore.UserMessage)
	assert.Equal(t, []agentcore.ContentBlock{agentcore.TextBlock{Text: "hi"}, agentcore.TextBlock{Text: UserImagePlaceholder}}, user.Content.Blocks)

	am := got[1].(*agentcore.AssistantMessage)
	assert.Equal(t, []agentcore.ContentBlock{agentcore.ToolCall{ID: "a_b", Name: "t"}, agentcore.ToolCall{ID: "c", Name: "t"}}, am.Content)

	tr := got[2].(*agentcore.ToolResultMessage)
	assert.Equal(t, "a_b", tr.ToolCallID)
	assert.Equal(t, []agentcore.ContentBlock{agentcore.TextBlock{Text: ToolImagePlaceholder}}, tr.Content)

	missing := got[3].(*agentcore.ToolResultMessage)
	assert.Equal(t, "c", missing.ToolCallID)
	assert.True(t, missing.IsError)
	assert.Same(t, sys, got[4], "the system message moves after the results")
	assert.Equal(t, "next", got[5].(*agentcore.UserMessage).Content.Text())

	// The input is untouched.
	assert.Equal(t, "a|b", foreign.Content[1].(agentcore.ToolCall).ID)
	assert.Len(t, messages[0].(*agentcore.UserMessage).Content.Blocks, 3)
}

func TestRenderSystemUpdate(t *testing.T) {
	m := &agentcore.SystemMessage{
		Content:  agentcore.Text("Now be brief."),
		Sections: agentcore.Sections{{Name: "a", Removed: true}, {Name: "b", Text: "B."}},
	}
	assert.Equal(t, "Now be brief.\n\nRemoved system prompt section \"a\".\n\nUpdated system prompt section \"b\":\n\nB.", RenderSystemUpdate(m))
}

func TestSanitizeID(t *testing.T) {
	assert.Equal(t, "call_1_fc-2__x", SanitizeID("call.1|fc-2😀x"))
}

func TestHasImages(t *testing.T) {
	img := agentcore.ImageBlock{Data: "aGk=", MimeType: "image/png"}
	assert.False(t, HasImages(nil))
	assert.False(t, HasImages([]agentcore.ContentBlock{agentcore.TextBlock{Text: "a"}}))
	assert.True(t, HasImages([]agentcore.ContentBlock{agentcore.TextBlock{Text: "a"}, img}))
}
