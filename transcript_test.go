package agentcore_test

import (
	"encoding/json"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func decl(name, params string) agentcore.ToolDeclaration {
	return agentcore.ToolDeclaration{Name: name, Parameters: json.RawMessage(params)}
}

func names(tools []agentcore.ToolDeclaration) []string {
	out := []string{}
	for _, t := range tools {
		out = append(out, t.Name)
	}
	return out
}

func sys(js string) *agentcore.SystemMessage {
	var m agentcore.SystemMessage
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		panic(err)
	}
	return &m
}

func TestReplay(t *testing.T) {
	tests := []struct {
		name       string
		messages   []agentcore.Message
		wantPrompt string
		wantTools  []string
	}{
		{name: "empty", wantTools: []string{}},
		{
			name:       "base prompt and tools",
			messages:   []agentcore.Message{sys(`{"role":"system","content":"Base.","toolsAdded":[{"name":"a","description":"","parameters":{}},{"name":"b","description":"","parameters":{}}]}`)},
			wantPrompt: "Base.", wantTools: []string{"a", "b"},
		},
		{
			name: "content appends, sections patch in order, null removes",
			messages: []agentcore.Message{
				sys(`{"role":"system","content":"Base.","sections":{"rules":"R1","env":"E1"}}`),
				agentcore.UserText("hi"),
				sys(`{"role":"system","content":[{"type":"text","text":"More."}],"sections":{"rules":"R2","env":null,"extra":""}}`),
				sys(`{"role":"system","content":"","sections":{"env":"E2"}}`),
			},
			wantPrompt: "Base.\n\nMore.\n\nR2\n\nE2", wantTools: []string{},
		},
		{
			name: "removal then re-add goes last; redefinition stays in place",
			messages: []agentcore.Message{
				sys(`{"role":"system","content":"","toolsAdded":[{"name":"a","description":"","parameters":{}},{"name":"b","description":"","parameters":{}},{"name":"c","description":"","parameters":{}}]}`),
				sys(`{"role":"system","content":"","toolsRemoved":[{"name":"a"}],"toolsAdded":[{"name":"a","description":"v2","parameters":{}},{"name":"b","description":"v2","parameters":{}}]}`),
			},
			wantTools: []string{"b", "c", "a"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.wantPrompt, agentcore.SystemPromptText(agentcore.CurrentSystemMessage(tt.messages)), "prompt")
			assert.Equal(t, tt.wantTools, names(agentcore.CurrentTools(tt.messages)), "tools")
		})
	}
}

func TestCurrentSystemMessageSections(t *testing.T) {
	m := agentcore.CurrentSystemMessage([]agentcore.Message{
		sys(`{"role":"system","content":"A","sections":{"x":"1","y":"2"},"timestamp":5}`),
		sys(`{"role":"system","content":"","sections":{"x":null,"z":"3"},"timestamp":9}`),
		sys(`{"role":"system","content":"","sections":{"x":"4"}}`),
	})
	out, _ := json.Marshal(m)
	assert.Equal(t, `{"role":"system","content":"A","sections":{"y":"2","z":"3","x":"4"},"timestamp":5}`, string(out), "replayed")
	assert.Nil(t, agentcore.CurrentSystemMessage([]agentcore.Message{agentcore.UserText("x")}), "no system message should replay to nil")
}

func TestCollapseSystemMessages(t *testing.T) {
	out := agentcore.CollapseSystemMessages([]agentcore.Message{
		sys(`{"role":"system","content":"A"}`), agentcore.UserText("u"), sys(`{"role":"system","content":"B"}`),
	})
	require.Len(t, out, 2, "collapsed")
	assert.Equal(t, "A\n\nB", agentcore.SystemPromptText(out[0].(*agentcore.SystemMessage)), "collapsed: %v", out)
	assert.Equal(t, "user", out[1].Role(), "collapsed: %v", out)
}
