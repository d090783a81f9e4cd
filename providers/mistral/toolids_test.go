package mistral

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pi-go/agentcore"
)

// TestToolCallIDs: IDs of other models become nine letters and digits as
// pi-ai makes them (the values are those of pi-ai 1.6.0's request
// recordings): kept when that is what is left of them, else hashed, and
// rehashed when another ID of the request has the result.
func TestToolCallIDs(t *testing.T) {
	ids := newToolCallIDs()
	steps := []struct {
		name, id, want string
	}{
		{name: "responses call|item ID hashed", id: "call_1|fc_0123456789abcdef0123456789abcdef+/=", want: "17s3fle1h"},
		{name: "nine letters and digits kept", id: "abc-def-ghi", want: "abcdefghi"},
		{name: "collision rehashed", id: "abcdefghi", want: "mlj703uel"},
		{name: "same ID same result", id: "abc-def-ghi", want: "abcdefghi"},
		{name: "anthropic ID hashed", id: "toolu_01ABCDEFGHIJKLMNOP", want: "1nh74al13"},
	}
	for _, s := range steps {
		assert.Equal(t, s.want, ids.normalize(s.id), s.name)
	}
	// The ID of a streamed call without one, from its index.
	assert.Equal(t, "toolcall0", deriveToolCallID("toolcall:0", 0))
}

// TestEndpoint: the API root's path without trailing slashes, then
// /v1/chat/completions; the default root is api.mistral.ai.
func TestEndpoint(t *testing.T) {
	tests := []struct{ opts, model, want string }{
		{want: "https://api.mistral.ai/v1/chat/completions"},
		{model: "http://127.0.0.1/proxy///", want: "http://127.0.0.1/proxy/v1/chat/completions"},
		{opts: "http://gw.example/m?x=1", model: "http://ignored", want: "http://gw.example/m/v1/chat/completions"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Options{BaseURL: tt.opts}.endpoint(agentcoreModel(tt.model)))
	}
}

func agentcoreModel(base string) agentcore.Model { return agentcore.Model{ID: "m", BaseURL: base} }
