package agentcore_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRunLoop(t *testing.T) {
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "echo", map[string]int{"x": 1})),
		agentcoretest.TextResponse("done"),
	)
	actx := agentcore.AgentContext{Tools: []agentcore.Tool{echoTool("echo", 0)}}
	cfg := agentcore.LoopConfig{Model: agentcoretest.Model(), StreamFn: fake.Stream}
	run, err := agentcore.RunLoop(context.Background(), []agentcore.Message{agentcore.UserText("go")}, actx, cfg)
	require.NoError(t, err)
	var types []string
	for ev := range run.Events() {
		if _, ok := ev.(*agentcore.MessageUpdateEvent); !ok {
			types = append(types, ev.Type())
		}
	}
	msgs, err := run.Wait()
	require.NoError(t, err)
	assert.Equal(t, "agent_start", types[0], "events %v", types)
	assert.Equal(t, "agent_end", types[len(types)-1], "events %v", types)
	// prompt, tool declaration (the tools differ from the empty transcript),
	// assistant, tool result, assistant.
	roles := []string{}
	for _, m := range msgs {
		roles = append(roles, m.Role())
	}
	want := []string{"system", "user", "assistant", "toolResult", "assistant"}
	assert.Equal(t, want, roles, "new messages")
	assert.Empty(t, actx.Messages, "RunLoop modified the caller's context")
}

func TestRunLoopContinueRefusals(t *testing.T) {
	cfg := agentcore.LoopConfig{StreamFn: agentcoretest.New().Stream}
	_, err := agentcore.RunLoopContinue(context.Background(), agentcore.AgentContext{}, cfg)
	assert.ErrorIs(t, err, agentcore.ErrNoMessages, "empty")
	tail := agentcore.AgentContext{Messages: []agentcore.Message{&agentcore.AssistantMessage{}}}
	_, err = agentcore.RunLoopContinue(context.Background(), tail, cfg)
	assert.ErrorIs(t, err, agentcore.ErrContinueFromAssistant, "assistant tail")
	_, err = agentcore.RunLoop(context.Background(), nil, agentcore.AgentContext{}, agentcore.LoopConfig{})
	assert.ErrorIs(t, err, agentcore.ErrNoStreamFn, "no stream function")
}

// TestRunLoopReaderGone cancels a run whose reader stopped reading: the
// run's goroutines must end anyway. In a bubble the reader walks away once
// the run is blocked on its next event.
func TestRunLoopReaderGone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fake := agentcoretest.New(agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "abcdefghij"}}, Chunks: 10, Hang: true})
		ctx, cancel := context.WithCancel(t.Context())
		run, err := agentcore.RunLoop(ctx, []agentcore.Message{agentcore.UserText("go")}, agentcore.AgentContext{}, agentcore.LoopConfig{StreamFn: fake.Stream})
		require.NoError(t, err)
		<-run.Events() // read one event, then walk away
		synctest.Wait()
		cancel()
		msgs, err := run.Wait()
		require.ErrorIs(t, err, context.Canceled, "Wait returns the abort")
		require.NotEmpty(t, msgs)
		last, ok := msgs[len(msgs)-1].(*agentcore.AssistantMessage)
		require.True(t, ok, "the last message is the assistant's")
		assert.Equal(t, agentcore.StopAborted, last.StopReason)
	})
}

func TestRunLoopHookError(t *testing.T) {
	cfg := agentcore.LoopConfig{StreamFn: agentcoretest.New().Stream, Hooks: agentcore.Hooks{
		ConvertToLLM: func(context.Context, []agentcore.Message) ([]agentcore.Message, error) {
			return nil, errors.New("nope")
		},
	}}
	run, err := agentcore.RunLoop(context.Background(), []agentcore.Message{agentcore.UserText("go")}, agentcore.AgentContext{}, cfg)
	require.NoError(t, err)
	var last agentcore.AgentEvent
	for ev := range run.Events() {
		last = ev
	}
	_, err = run.Wait()
	assert.EqualError(t, err, "nope", "Wait")
	_, ok := last.(*agentcore.AgentEndEvent)
	assert.False(t, ok, "a failed loop run must not claim agent_end")
}

func TestRunToolCall(t *testing.T) {
	tools := []agentcore.Tool{echoTool("echo", 0)}
	blocked := func(context.Context, agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
		return &agentcore.BeforeToolCallResult{Block: true}, nil
	}
	tests := []struct {
		name    string
		call    agentcore.ToolCall
		before  func(context.Context, agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error)
		want    string
		wantErr bool
	}{
		{name: "runs", call: agentcoretest.ToolCall("1", "echo", map[string]int{"a": 1}), want: `{"a":1}`},
		{name: "not found", call: agentcoretest.ToolCall("2", "nope", nil), want: "Tool nope not found", wantErr: true},
		{name: "blocked", call: agentcoretest.ToolCall("3", "echo", nil), before: blocked, want: "Tool execution was blocked", wantErr: true},
		{name: "bad arguments", call: agentcore.ToolCall{ID: "4", Name: "echo", ArgumentsError: "bad json"}, want: `Invalid arguments for tool "echo": bad json`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := agentcore.RunToolCall(context.Background(), tt.call, agentcore.RunToolCallOptions{Tools: tools, BeforeToolCall: tt.before})
			assert.Equal(t, tt.want, agentcore.Blocks(out.Result.Content...).Text(), "result text")
			assert.Equal(t, tt.wantErr, out.IsError, "IsError")
		})
	}
}

// TestRunLoopNewMessagesShared has the reader of a run's agent_end event
// and the caller of Wait, on different goroutines, each append to the
// new messages they got: each append must copy, not write into a shared
// array (the race detector checks).
func TestRunLoopNewMessagesShared(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.TextResponse("done"))
	run, err := agentcore.RunLoop(context.Background(), []agentcore.Message{agentcore.UserText("go")}, agentcore.AgentContext{},
		agentcore.LoopConfig{Model: agentcoretest.Model(), StreamFn: fake.Stream})
	require.NoError(t, err)
	read := make(chan []agentcore.Message)
	events := run.Events()
	go func() {
		var mine []agentcore.Message
		for ev := range events {
			if end, ok := ev.(*agentcore.AgentEndEvent); ok {
				mine = append(end.Messages, agentcore.UserText("reader's"))
			}
		}
		read <- mine
	}()
	msgs, err := run.Wait()
	require.NoError(t, err)
	msgs = append(msgs, agentcore.UserText("caller's"))
	mine := <-read
	require.Len(t, mine, 3)
	assert.Equal(t, "reader's", mine[2].(*agentcore.UserMessage).Text())
	assert.Equal(t, "caller's", msgs[2].(*agentcore.UserMessage).Text())
}
