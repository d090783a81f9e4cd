package temporal_test

import (
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// continueStep is one step of a continue script: a prompt, a continue, or
// queued messages.
type continueStep struct {
	prompt   string
	cont     bool
	steer    []string
	followUp []string
	want     error // a refusal, nil for a run that succeeds
}

// TestContinueMatchesAgent plays the same continue scripts on a plain
// Agent and on a session and compares the refusals and the transcripts.
func TestContinueMatchesAgent(t *testing.T) {
	tests := []struct {
		name      string
		initial   []agentcore.Message
		responses []agentcoretest.Response
		steps     []continueStep
	}{
		{
			name:      "refusals, then steering and follow-ups as prompts",
			responses: []agentcoretest.Response{agentcoretest.TextResponse("hello"), agentcoretest.TextResponse("after s1"), agentcoretest.TextResponse("after s2"), agentcoretest.TextResponse("after f1"), agentcoretest.TextResponse("after f2")},
			steps: []continueStep{
				{cont: true, want: agentcore.ErrNoMessages},
				{prompt: "go"},
				{cont: true, want: agentcore.ErrContinueFromAssistant},
				{steer: []string{"s1", "s2"}, followUp: []string{"f1"}},
				{cont: true},
				{cont: true, want: agentcore.ErrContinueFromAssistant},
				{followUp: []string{"f2"}},
				{cont: true},
			},
		},
		{
			name:      "from a user message, with a tool call",
			initial:   []agentcore.Message{agentcore.UserText("echo a")},
			responses: []agentcoretest.Response{agentcoretest.ToolCallResponse(echoCall("c1", "a")), agentcoretest.TextResponse("done")},
			steps:     []continueStep{{cont: true}, {cont: true, want: agentcore.ErrContinueFromAssistant}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := testCtx(t)
			o := scenarios[0].agentOptions()

			ao := o
			ao.StreamFn = agentcoretest.New(tt.responses...).Stream
			ao.Messages = tt.initial
			a := agentcore.New(ao)
			s := startSession(t, durableOptions(o, agentcoretest.New(tt.responses...).Stream), tt.initial...)
			for i, st := range tt.steps {
				for _, m := range st.steer {
					a.Steer(agentcore.UserText(m))
					require.NoError(t, s.Steer(ctx, agentcore.UserText(m)))
				}
				for _, m := range st.followUp {
					a.FollowUp(agentcore.UserText(m))
					require.NoError(t, s.FollowUp(ctx, agentcore.UserText(m)))
				}
				var aerr, serr error
				switch {
				case st.prompt != "":
					aerr, serr = a.Prompt(ctx, st.prompt), s.Prompt(ctx, st.prompt)
				case st.cont:
					aerr, serr = a.Continue(ctx), s.Continue(ctx)
				}
				if st.want != nil {
					assert.ErrorIs(t, aerr, st.want, "step %d on the Agent", i)
					assert.ErrorIs(t, serr, st.want, "step %d on the session", i)
				} else {
					assert.NoError(t, aerr, "step %d on the Agent", i)
					assert.NoError(t, serr, "step %d on the session", i)
				}
			}
			state, err := s.State(ctx)
			require.NoError(t, err)
			assert.Equal(t, normalize(t, a.State().Messages), normalize(t, state.Messages))
			assert.Empty(t, state.Steering)
			assert.Empty(t, state.FollowUp)
			assertOneResultPerCall(t, state.Messages)
		})
	}
}
