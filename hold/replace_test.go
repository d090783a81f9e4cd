package hold_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/hold"
)

// TestResolvedResultsReachListeners checks that the Agent's listeners see
// each decided call's result replace its placeholder (message_replace,
// before the resumed run's agent_start), so that a transcript rebuilt from
// the events equals the Agent's.
func TestResolvedResultsReachListeners(t *testing.T) {
	tests := []struct {
		name     string
		decision hold.Decision
		text     string
		isError  bool
	}{
		{"approve", hold.Approve{ID: "c1"}, "deployed to production", false},
		{"deny", hold.Deny{ID: "c1", Reason: "Not today."}, "Not today.", true},
		{"answer", hold.Answer{ID: "c1", Result: agentcore.TextResult("by hand")}, "by hand", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, hold.Options{Policy: deployPolicy}, nil,
				agentcoretest.ToolCallResponse(deploy("c1", "production"), read("c2", "a.txt")), agentcoretest.TextResponse("ok"))
			var mu sync.Mutex
			rebuilt := f.agent.Messages()
			var types []string
			f.agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
				mu.Lock()
				defer mu.Unlock()
				switch ev := ev.(type) {
				case *agentcore.MessageEndEvent:
					rebuilt = append(rebuilt, ev.Message)
				case *agentcore.MessageReplaceEvent:
					assert.Same(t, ev.Old, rebuilt[ev.Index])
					rebuilt = slices.Clone(rebuilt)
					rebuilt[ev.Index] = ev.Message
					types = append(types, ev.Type())
				case *agentcore.TranscriptSetEvent:
					t.Error("a resolution replaces messages, not the transcript")
				case *agentcore.AgentStartEvent:
					types = append(types, ev.Type())
				}
			})
			require.ErrorIs(t, f.agent.Prompt(t.Context(), "ship it"), hold.ErrHeld)
			placeholder := result(t, f.agent.Messages(), "c1")
			assert.True(t, placeholder.IsError)
			require.NoError(t, f.gate.Decide(tt.decision))
			require.NoError(t, f.agent.Continue(t.Context()))

			mu.Lock()
			defer mu.Unlock()
			assert.Equal(t, []string{"agent_start", "message_replace", "agent_start"}, types)
			assert.Equal(t, f.agent.Messages(), rebuilt)
			r := result(t, rebuilt, "c1")
			assert.Equal(t, tt.text, r.Text())
			assert.Equal(t, tt.isError, r.IsError)
		})
	}
}
