package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pi-go/agentcore"
)

// TestEnded: an answer's usage shows without prices too, and a
// connection error reads as one sentence.
func TestEnded(t *testing.T) {
	tests := []struct {
		name string
		m    agentcore.AssistantMessage
		want string
	}{
		{name: "no prices", m: agentcore.AssistantMessage{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "hi"}}, StopReason: agentcore.StopStop, Usage: agentcore.Usage{Input: 10, Output: 5}},
			want: "\n(10 tokens in, 5 out)\n"},
		{name: "connection error", m: agentcore.AssistantMessage{StopReason: agentcore.StopError, ErrorMessage: "Connection error.: dial tcp 127.0.0.1:9: connect: connection refused"},
			want: "(error: Connection error: dial tcp 127.0.0.1:9: connect: connection refused)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out strings.Builder
			ended(&out, &tt.m)
			assert.Equal(t, tt.want, out.String())
		})
	}
}
