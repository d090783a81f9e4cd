package openai

import (
	"strings"
	"testing"

	"github.com/pi-go/agentcore"
)

func TestNormalizeToolCallID(t *testing.T) {
	long := "call_" + strings.Repeat("x", 50)
	tests := []struct {
		name, provider, id, want string
	}{
		{name: "plain ID kept", provider: "test", id: "call_abc", want: "call_abc"},
		{name: "Responses API ID joined", provider: "test", id: "call_1|fc_2", want: "call_1_fc_2"},
		{name: "unsafe characters replaced", provider: "test", id: "call.1|fc+2", want: "call_1_fc_2"},
		{name: "empty item part", provider: "test", id: "call_1|", want: "call_1"},
		// The ID and its hash as pi-ai computes them (testdata/request/*.pi.json).
		{name: "long Responses API ID hashed", provider: "test", id: "call_1|fc_0123456789abcdef0123456789abcdef+/=", want: "call_1_1m7yaug1"},
		{name: "long ID kept for another provider", provider: "test", id: long, want: long},
		{name: "long ID cut for openai", provider: "openai", id: long, want: long[:40]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := normalizeToolCallID(agentcore.Model{Provider: tt.provider}, tt.id); got != tt.want {
				t.Errorf("normalizeToolCallID(%q) = %q, want %q", tt.id, got, tt.want)
			}
		})
	}
}
