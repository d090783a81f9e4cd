package agentcore

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMessageJSONRoundTrip decodes messages as TypeScript pi writes them,
// with optional fields stated empty ("", 0, false, [], {}, null), and
// checks that they come back byte for byte: on pi's wire an optional field
// stated empty is not the same as one left out.
func TestMessageJSONRoundTrip(t *testing.T) {
	tests := []struct {
		name string // golden file testdata/wire/NAME.json
		why  string
	}{
		{"system-tools-added-empty", "toolsAdded: [] is kept (issue 14)"},
		{"system-tools-removed-empty", "toolsRemoved: [] is kept"},
		{"system-sections-empty", "sections: {} is kept, with both empty tool lists"},
		{"system-content-blocks-empty", "content [] stays a list, not the empty string"},
		{"system-constrained-sampling-false", "constrainedSampling: false is kept"},
		{"user-content-string-empty", "content \"\" stays a string"},
		{"user-content-blocks-empty", "content [] stays a list"},
		{"assistant-usage-zeros-stated", "cacheWrite1h 0, reasoning 0 and totalFromProvider false, as pi-ai writes them"},
		{"assistant-strings-empty", "every optional string stated as \"\""},
		{"assistant-blocks-optional-empty", "signatures, namespace and argumentsError \"\", redacted false"},
		{"assistant-raw-empty", "diagnostics [], a deferred handle with data null, endTurn false, durationMs 0"},
		{"toolresult-empty-fields", "content [], details {}, usage zeros, nestedCalls, isError false, durationMs 0"},
		{"toolresult-details-null", "details: null is kept"},
		{"custom-empty-fields", "an app-defined message keeps every field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			golden, err := os.ReadFile(filepath.Join("testdata", "wire", tt.name+".json"))
			require.NoError(t, err)
			golden = bytes.TrimSpace(golden)

			m, err := UnmarshalMessage(golden)
			require.NoError(t, err)
			got, err := json.Marshal(m)
			require.NoError(t, err)
			assert.Equal(t, string(golden), string(got), tt.why)

			// A decoded message keeps what it stated through a transcript.
			msgs, err := UnmarshalMessages([]byte("[" + string(golden) + "]"))
			require.NoError(t, err)
			again, err := json.Marshal(msgs)
			require.NoError(t, err)
			assert.Equal(t, "["+string(golden)+"]", string(again), tt.why)
		})
	}
}

// TestMessageJSONLeavesOutUnset checks the other side: a message built in
// Go leaves its unset optional fields out, nil tool lists and sections
// included, and an empty non-nil list is written as [].
func TestMessageJSONLeavesOutUnset(t *testing.T) {
	tests := []struct {
		name string
		msg  Message
		want string
	}{
		{
			name: "system nil lists",
			msg:  &SystemMessage{Content: Text("p")},
			want: `{"role":"system","content":"p","timestamp":0}`,
		},
		{
			name: "system empty lists",
			msg:  &SystemMessage{Content: Text(""), Sections: Sections{}, ToolsAdded: []ToolDeclaration{}, ToolsRemoved: []ToolReference{}},
			want: `{"role":"system","content":"","sections":{},"toolsAdded":[],"toolsRemoved":[],"timestamp":0}`,
		},
		{
			name: "initial system message without tools",
			msg:  InitialSystemMessage("p", []ToolDeclaration{}),
			want: `{"role":"system","content":"p","timestamp":0}`,
		},
		{
			name: "replayed system message whose tools were all removed",
			msg: CurrentSystemMessage([]Message{
				&SystemMessage{Content: Text("p"), Sections: Sections{{Name: "s", Text: "x"}}, ToolsAdded: []ToolDeclaration{{Name: "t", Parameters: json.RawMessage(`{}`)}}},
				&SystemMessage{Content: Text(""), Sections: Sections{{Name: "s", Removed: true}}, ToolsRemoved: []ToolReference{{Name: "t"}}},
			}),
			want: `{"role":"system","content":"p","timestamp":0}`,
		},
		{
			name: "assistant zero optional fields",
			msg: &AssistantMessage{Content: []ContentBlock{TextBlock{Text: "t"}, ThinkingBlock{Thinking: "r"}, ToolCall{ID: "c", Name: "n"}},
				API: "a", Provider: "p", Model: "m", StopReason: StopStop},
			want: `{"role":"assistant","content":[{"type":"text","text":"t"},{"type":"thinking","thinking":"r"},{"type":"toolCall","id":"c","name":"n","arguments":{}}],"api":"a","provider":"p","model":"m","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":0}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.msg)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}
}

// TestStatedZerosFollowChanges checks that a stated field changed in Go is
// written with its new value, and a block built in Go compares unequal to
// one that states an empty field.
func TestStatedZerosFollowChanges(t *testing.T) {
	m, err := UnmarshalMessage([]byte(`{"role":"assistant","content":[{"type":"text","text":"a","textSignature":""}],"api":"a","provider":"p","model":"m","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"reasoning":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"error","errorMessage":"","timestamp":0}`))
	require.NoError(t, err)
	am := m.(*AssistantMessage)
	assert.NotEqual(t, TextBlock{Text: "a"}, am.Content[0])
	am.ErrorMessage = "boom"
	am.Usage.Reasoning = new(int64(3))
	got, err := json.Marshal(am)
	require.NoError(t, err)
	assert.Contains(t, string(got), `"errorMessage":"boom"`)
	assert.Contains(t, string(got), `"reasoning":3`)
	assert.Contains(t, string(got), `"textSignature":""`)
}
