package agentcore_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// roles lists the roles of msgs, with each assistant message's stop reason.
func roles(msgs []agentcore.Message) []string {
	var out []string
	for _, m := range msgs {
		r := m.Role()
		if am, ok := m.(*agentcore.AssistantMessage); ok {
			r += ":" + string(am.StopReason)
		}
		out = append(out, r)
	}
	return out
}

// TestAgentEndListenerPanic checks that a listener panicking on agent_end,
// after a successful run, neither starts a failure sequence nor keeps the
// event from the listeners after it.
func TestAgentEndListenerPanic(t *testing.T) {
	a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: agentcoretest.New(agentcoretest.TextResponse("hi")).Stream})
	var types []string
	a.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		if _, ok := ev.(*agentcore.AgentEndEvent); ok {
			panic("listener fails on agent_end")
		}
	})
	a.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) { types = append(types, ev.Type()) })
	require.NoError(t, a.Prompt(context.Background(), "go"))
	assert.Equal(t, []string{"agent_start", "turn_start", "message_start", "message_end", "message_start",
		"message_update", "message_update", "message_update", "message_end", "turn_end", "agent_end"}, types)
	assert.Equal(t, []string{"user", "assistant:stop"}, roles(a.Messages()))
	assert.Empty(t, a.State().ErrorMessage)
}

// TestStreamYieldingAfterStop plays a stream function that goes on yielding
// after its consumer stopped (a second final event): the loop hears only
// the first response, as a range loop would, and answers its tool call.
func TestStreamYieldingAfterStop(t *testing.T) {
	call := agentcoretest.ToolCall("c1", "echo", map[string]any{})
	requests := 0
	stream := func(ctx context.Context, model agentcore.Model, req agentcore.Request, opts agentcore.StreamOptions) agentcore.AssistantStream {
		requests++
		if requests > 1 {
			return agentcoretest.New(agentcoretest.TextResponse("done")).Stream(ctx, model, req, opts)
		}
		return func(yield func(agentcore.AssistantEvent) bool) {
			first := &agentcore.AssistantMessage{Content: []agentcore.ContentBlock{call}, StopReason: agentcore.StopToolUse}
			second := &agentcore.AssistantMessage{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "ignored"}}, StopReason: agentcore.StopStop}
			yield(&agentcore.StartEvent{Partial: &agentcore.AssistantMessage{}})
			yield(&agentcore.DoneEvent{Reason: agentcore.StopToolUse, Message: first})
			yield(&agentcore.DoneEvent{Reason: agentcore.StopStop, Message: second}) // against the contract
		}
	}
	echo := agentcore.Tool{Name: "echo", Execute: func(context.Context, string, json.RawMessage, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.TextResult("echoed"), nil
	}}
	a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: stream, Tools: []agentcore.Tool{echo}})
	require.NoError(t, a.Prompt(context.Background(), "go"))
	msgs := a.Messages()
	assert.Equal(t, []string{"system", "user", "assistant:toolUse", "toolResult", "assistant:stop"}, roles(msgs))
	assert.Equal(t, "echoed", msgs[3].(*agentcore.ToolResultMessage).Text())
}

// TestTooManyBlocks checks that a response with more content blocks than
// MaxResponseBlocks is ended as an error after the last block it may have,
// and that the stream is not read further.
func TestTooManyBlocks(t *testing.T) {
	var content []agentcore.ContentBlock
	for range agentcore.MaxResponseBlocks + 5 {
		content = append(content, agentcore.TextBlock{Text: "b"})
	}
	a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: agentcoretest.New(agentcoretest.Response{Content: content}).Stream})
	var runErr *agentcore.RunError
	require.ErrorAs(t, a.Prompt(context.Background(), "go"), &runErr)
	msgs := a.Messages()
	require.Equal(t, []string{"user", "assistant:error"}, roles(msgs))
	assert.Same(t, msgs[1], runErr.Message)
	last := msgs[1].(*agentcore.AssistantMessage)
	assert.Len(t, last.Content, agentcore.MaxResponseBlocks)
	assert.Equal(t, "agentcore: the response has more than 1024 content blocks", last.ErrorMessage)
	assert.ErrorIs(t, runErr, agentcore.ErrTooManyBlocks)
}

// TestListenerPanicInBatch checks that a listener panicking in the middle
// of a parallel batch ends the run with the minimal failure sequence, as a
// throwing listener does in the reference, after every tool has returned.
func TestListenerPanicInBatch(t *testing.T) {
	for _, on := range []string{"tool_execution_start", "tool_execution_update", "tool_execution_end"} {
		t.Run(on, func(t *testing.T) {
			release := make(chan struct{})
			tool := agentcore.Tool{Name: "slow", Execute: func(ctx context.Context, id string, _ json.RawMessage, onUpdate func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
				onUpdate(agentcore.TextResult("working"))
				if id == "c2" {
					select {
					case <-release:
					case <-ctx.Done():
					}
				}
				return agentcore.TextResult("done " + id), nil
			}}
			calls := []agentcore.ToolCall{agentcoretest.ToolCall("c1", "slow", map[string]any{}), agentcoretest.ToolCall("c2", "slow", map[string]any{})}
			fake := agentcoretest.New(agentcoretest.ToolCallResponse(calls...), agentcoretest.TextResponse("never"))
			a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: []agentcore.Tool{tool}})
			a.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
				if ev.Type() == on {
					close(release)
					panic("listener fails on " + on)
				}
			})
			err := a.Prompt(context.Background(), "go")
			require.EqualError(t, err, "agentcore: run failed: listener fails on "+on)
			msgs := a.Messages()
			require.Equal(t, []string{"system", "user", "assistant:toolUse", "assistant:error"}, roles(msgs))
			assert.Equal(t, "listener fails on "+on, msgs[3].(*agentcore.AssistantMessage).ErrorMessage)
			assert.Equal(t, 1, fake.CallCount(), "no request after the failure")
		})
	}
}

// TestStreamNilEvents plays a stream that yields nil events, untyped and
// typed: the loop ignores them and reads the response.
func TestStreamNilEvents(t *testing.T) {
	stream := func(context.Context, agentcore.Model, agentcore.Request, agentcore.StreamOptions) agentcore.AssistantStream {
		return func(yield func(agentcore.AssistantEvent) bool) {
			msg := &agentcore.AssistantMessage{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "ok"}}, StopReason: agentcore.StopStop}
			_ = yield(nil) && yield((*agentcore.TextDeltaEvent)(nil)) && yield(&agentcore.StartEvent{Partial: msg}) &&
				yield((*agentcore.DoneEvent)(nil)) && yield(&agentcore.DoneEvent{Reason: agentcore.StopStop, Message: msg})
		}
	}
	a := agentcore.New(agentcore.Options{Model: agentcoretest.Model(), StreamFn: stream})
	require.NoError(t, a.Prompt(context.Background(), "go"))
	msgs := a.Messages()
	require.Equal(t, []string{"user", "assistant:stop"}, roles(msgs))
	assert.Equal(t, "ok", msgs[1].(*agentcore.AssistantMessage).Text())
}
