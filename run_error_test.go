package agentcore_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// TestRunErrorCauses checks what a failed run's error says and unwraps to,
// for each way a run can fail.
func TestRunErrorCauses(t *testing.T) {
	provider := &agentcore.ProviderError{StatusCode: 503, Message: "503 busy"}
	tests := []struct {
		name     string
		stream   agentcore.StreamFn
		hooks    agentcore.Hooks
		ctx      func() (context.Context, context.CancelFunc)
		abort    bool
		text     string
		is       []error
		isNot    []error
		provider bool
	}{
		{
			name:   "provider failure",
			stream: agentcoretest.New(agentcoretest.ErrorResponse("503 busy")).Stream,
			text:   "agentcore: run failed: 503 busy",
			isNot:  []error{context.Canceled, context.DeadlineExceeded},
		},
		{
			name: "typed provider failure",
			stream: func(ctx context.Context, m agentcore.Model, _ agentcore.Request, _ agentcore.StreamOptions) agentcore.AssistantStream {
				return agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
					w.Error(&agentcore.AssistantMessage{Content: []agentcore.ContentBlock{}, StopReason: agentcore.StopError, ErrorMessage: "503 busy", Err: provider})
				})
			},
			text:     "agentcore: run failed: 503 busy",
			is:       []error{provider},
			provider: true,
		},
		{
			name:   "abort",
			stream: agentcoretest.New(agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "x"}}, Hang: true}).Stream,
			abort:  true,
			text:   "agentcore: run aborted: Request was aborted",
			is:     []error{context.Canceled},
			isNot:  []error{context.DeadlineExceeded},
		},
		{
			name:   "deadline",
			stream: agentcoretest.New(agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "x"}}, Hang: true}).Stream,
			ctx: func() (context.Context, context.CancelFunc) {
				return context.WithTimeout(context.Background(), time.Second)
			},
			text:  "agentcore: run aborted: Request was aborted",
			is:    []error{context.DeadlineExceeded},
			isNot: []error{context.Canceled},
		},
		{
			name:   "hook failure",
			stream: agentcoretest.New(agentcoretest.TextResponse("never")).Stream,
			hooks: agentcore.Hooks{PrepareRequest: func(context.Context, agentcore.RequestContext) (*agentcore.RequestUpdate, error) {
				return nil, errHook
			}},
			text:  "agentcore: run failed: store offline",
			is:    []error{errHook},
			isNot: []error{context.Canceled},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				if tt.ctx != nil {
					ctx, cancel = tt.ctx()
				}
				defer cancel()
				a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: tt.stream, Hooks: tt.hooks})
				if tt.abort {
					a.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
						if _, ok := ev.(*agentcore.MessageUpdateEvent); ok {
							a.Abort()
						}
					})
				}
				err := a.Prompt(ctx, "go")
				runErr, ok := errors.AsType[*agentcore.RunError](err)
				require.True(t, ok, "Prompt returned %v", err)
				assert.EqualError(t, err, tt.text)
				msgs := a.Messages()
				assert.Same(t, msgs[len(msgs)-1], runErr.Message, "the error carries the final message")
				for _, target := range tt.is {
					assert.ErrorIs(t, err, target)
				}
				for _, target := range tt.isNot {
					assert.NotErrorIs(t, err, target)
				}
				_, isProvider := errors.AsType[*agentcore.ProviderError](err)
				assert.Equal(t, tt.provider, isProvider)
			})
		})
	}
}

var errHook = errors.New("store offline")

// TestLoopRunWaitWithoutEvents checks that Wait returns when nobody reads
// the events.
func TestLoopRunWaitWithoutEvents(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		resp := agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "many deltas"}}, Chunks: 11}
		run, err := agentcore.RunLoop(context.Background(), []agentcore.Message{agentcore.UserText("go")}, agentcore.AgentContext{},
			agentcore.LoopConfig{Model: agentcoretest.Model(), StreamFn: agentcoretest.New(resp).Stream})
		require.NoError(t, err)
		msgs, err := run.Wait()
		require.NoError(t, err)
		require.Len(t, msgs, 2)
		assert.Equal(t, "many deltas", msgs[1].(*agentcore.AssistantMessage).Text())
	})
}
