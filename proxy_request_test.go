package agentcore

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeProxyRequest(t *testing.T) {
	const model = `"model":{"id":"m","api":"fake","provider":"fake"}`
	tests := []struct {
		name     string
		body     string
		messages int
		options  string // RawOptions
		wantErr  string
	}{
		{name: "full", body: `{` + model + `,"context":{"messages":[{"role":"user","content":"hi","timestamp":1}]},"options":{"maxTokens":5}}`, messages: 1, options: `{"maxTokens":5}`},
		{name: "keys in any order, unknown ones skipped", body: `{"options":{},"extra":[1,{"a":2}],"context":{"systemPrompt":"x","messages":[]},` + model + `}`, options: `{}`},
		{name: "nulls are absent", body: `{` + model + `,"context":null,"options":null}`},
		{name: "null messages", body: `{` + model + `,"context":{"messages":null}}`},
		{name: "no model", body: `{"context":{"messages":[]}}`, wantErr: "model is required"},
		{name: "null model", body: `{"model":null}`, wantErr: "model is required"},
		{name: "null body", body: `null`, wantErr: "model is required"},
		{name: "not an object", body: `[1]`, wantErr: "cannot unmarshal array"},
		{name: "messages not an array", body: `{` + model + `,"context":{"messages":{}}}`, wantErr: "cannot unmarshal object"},
		{name: "bad message", body: `{` + model + `,"context":{"messages":[{"role":"user"},{"content":"x"}]}}`, wantErr: "context: message 1: agentcore: message without a role"},
		{name: "cut off", body: `{` + model + `,"context":{"messages":[{"role":"us`, wantErr: "unexpected end of JSON input"},
		{name: "data after the object", body: `{` + model + `} {}`, wantErr: "after top-level value"},
		{name: "syntax error", body: `{` + model + `,}`, wantErr: "invalid character"},
		{name: "bad options", body: `{` + model + `,"options":{"maxTokens":"many"}}`, wantErr: "options: json: cannot unmarshal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			call, err := decodeProxyRequest([]byte(tt.body), nil)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, "m", call.Model.ID)
			assert.NotNil(t, call.Request.Messages)
			assert.Len(t, call.Request.Messages, tt.messages)
			assert.Equal(t, tt.options, string(call.RawOptions))
		})
	}
}

// FuzzDecodeProxyRequest checks that any body decodes or fails cleanly,
// that what decodes was valid JSON, and that its messages marshal.
func FuzzDecodeProxyRequest(f *testing.F) {
	f.Add([]byte(`{"model":{"id":"m"},"context":{"messages":[{"role":"user","content":"hi","timestamp":1}]},"options":{"maxTokens":5}}`))
	f.Add([]byte(`{"model":{},"context":{"messages":[{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"n","arguments":{}}]}]}}`))
	f.Add([]byte(`{"model":{},"context":{"messages":[{"role":"note","x":1}]},"extra":null}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		call, err := decodeProxyRequest(body, nil)
		if err != nil {
			return
		}
		require.True(t, json.Valid(body), "accepted invalid JSON %q", body)
		_, err = json.Marshal(call.Request.Messages)
		require.NoError(t, err)
	})
}
