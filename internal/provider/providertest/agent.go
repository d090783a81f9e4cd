package providertest

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// AgentRun is a whole Agent run of the two [Tools] on a provider's stream
// function, the run every provider's TestAgentRun checks.
type AgentRun struct {
	Model    agentcore.Model
	Thinking agentcore.ThinkingLevel
	Stream   agentcore.StreamFn
	Key      string // what the Agent's GetAPIKey hook answers
}

// Run prompts an Agent ("You are terse.") with the question of the agent
// runs and requires a run that called both tools in one batch: the
// transcript is system, user, assistant, two tool results, assistant, and
// both tool executions ended. It returns the transcript and the
// arguments each tool stored by call ID.
func (r AgentRun) Run(t *testing.T) ([]agentcore.Message, *sync.Map) {
	t.Helper()
	calls := new(sync.Map)
	agent := agentcore.New(agentcore.Options{
		Model:         r.Model,
		ThinkingLevel: r.Thinking,
		StreamFn:      r.Stream,
		SystemPrompt:  "You are terse.",
		Tools:         Tools(calls),
		Hooks: agentcore.Hooks{GetAPIKey: func(context.Context, string) (string, error) {
			return r.Key, nil
		}},
	})
	var mu sync.Mutex
	var ended []string
	agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		if e, ok := ev.(*agentcore.ToolExecutionEndEvent); ok {
			mu.Lock()
			ended = append(ended, e.ToolName)
			mu.Unlock()
		}
	})
	require.NoError(t, agent.Prompt(t.Context(), "What time is it in Paris, and what is 6*7?"))
	state := agent.State()
	require.Empty(t, state.ErrorMessage)
	var roles []string
	for _, m := range state.Messages {
		roles = append(roles, m.Role())
	}
	require.Equal(t, []string{"system", "user", "assistant", "toolResult", "toolResult", "assistant"}, roles)
	slices.Sort(ended)
	assert.Equal(t, []string{"calc", "now"}, ended)
	return state.Messages, calls
}
