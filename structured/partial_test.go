package structured_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/structured"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pieceStream is a stream function that answers with one call of name,
// whose arguments text streams in the given pieces, after a text block.
func pieceStream(name string, pieces ...string) agentcore.StreamFn {
	return func(_ context.Context, model agentcore.Model, _ agentcore.Request, _ agentcore.StreamOptions) agentcore.AssistantStream {
		return agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
			msg := &agentcore.AssistantMessage{API: model.API, Provider: model.Provider, Model: model.ID, StopReason: agentcore.StopToolUse}
			if !w.Push(&agentcore.StartEvent{Partial: msg}) {
				return
			}
			msg.Content = append(msg.Content, agentcore.TextBlock{Text: "Here it is."})
			w.Push(&agentcore.TextStartEvent{ContentIndex: 0, Partial: msg})
			w.TextDelta(0, "Here it is.", msg)
			w.Push(&agentcore.TextEndEvent{ContentIndex: 0, Content: "Here it is.", Partial: msg})
			msg.Content = append(msg.Content, agentcore.ToolCall{ID: "c1", Name: name, Arguments: json.RawMessage("{}")})
			w.Push(&agentcore.ToolCallStartEvent{ContentIndex: 1, Partial: msg})
			text := ""
			for _, p := range pieces {
				text += p
				w.ToolCallDelta(1, p, msg)
			}
			call := agentcore.ToolCall{ID: "c1", Name: name, Arguments: json.RawMessage(text)}
			msg.Content[1] = call
			w.Push(&agentcore.ToolCallEndEvent{ContentIndex: 1, ToolCall: call, Partial: msg})
			w.Done(msg)
		})
	}
}

// partialLog records the partial values, in order.
type partialLog[T any] struct{ values []T }

func (l *partialLog[T]) add(_ context.Context, v T) { l.values = append(l.values, v) }

var linePieces = []string{`{"it`, `em": "te`, `a", "quan`, `tity": 2`, `, "price": 3.`, `5}`}

func TestPartialValuesWhileArgumentsStream(t *testing.T) {
	var log partialLog[Line]
	answer := structured.New[Line](structured.Options[Line]{OnPartial: log.add})
	agent := agentcore.New(agentcore.Options{
		Model:    agentcoretest.Model(),
		StreamFn: pieceStream(structured.DefaultName, linePieces...),
		Layers:   []agentcore.Layer{answer},
	})
	got, err := answer.Prompt(t.Context(), agent, "go")
	require.NoError(t, err)
	assert.Equal(t, Line{Item: "tea", Quantity: 2, Price: 3.5}, got)
	assert.Equal(t, []Line{ // "3." is no number yet: no value for it
		{},
		{Item: "te"},
		{Item: "tea"},
		{Item: "tea", Quantity: 2},
		{Item: "tea", Quantity: 2, Price: 3.5},
	}, log.values)
}

func TestPartialNestedValues(t *testing.T) {
	var log partialLog[Invoice]
	answer := structured.New[Invoice](structured.Options[Invoice]{OnPartial: log.add})
	pieces := []string{`{"number":"7","status":"due","customer":{"name":"Ada","address":{"ci`, `ty":"Porto","country":"PT"`,
		`}},"lines":[{"item":"tea"`, `,"quantity":1,"price":2}],"tags":{"a":"b"}}`}
	agent := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: pieceStream(structured.DefaultName, pieces...),
		Layers: []agentcore.Layer{answer},
	})
	_, err := answer.Prompt(t.Context(), agent, "go")
	require.NoError(t, err)
	require.Len(t, log.values, 4)
	assert.Equal(t, "", log.values[0].Customer.Address.City, "the address has started, its city not")
	assert.Equal(t, "Porto", log.values[1].Customer.Address.City)
	assert.Equal(t, []Line{{Item: "tea"}}, log.values[2].Lines)
	assert.Equal(t, map[string]string{"a": "b"}, log.values[3].Tags)
}

func TestNoPartialsForOtherTools(t *testing.T) {
	var log partialLog[Line]
	answer := structured.New[Line](structured.Options[Line]{OnPartial: log.add})
	other := agentcore.Tool{Name: "other", Execute: func(context.Context, string, json.RawMessage, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		r := agentcore.TextResult("ok")
		r.Terminate = true
		return r, nil
	}}
	agent := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: pieceStream("other", linePieces...),
		Tools: []agentcore.Tool{other}, Layers: []agentcore.Layer{answer},
	})
	_, err := answer.Prompt(t.Context(), agent, "go")
	require.ErrorIs(t, err, structured.ErrNoAnswer)
	assert.Empty(t, log.values)
}

func TestRunLoop(t *testing.T) {
	var log partialLog[Line]
	answer := structured.New[Line](structured.Options[Line]{OnPartial: log.add})
	fake := agentcoretest.New(agentcoretest.TextResponse("tea"), call("c1", badQty), call("c2", valid))
	prompt := &agentcore.UserMessage{Content: agentcore.Text("Extract the line.")}
	run, err := agentcore.RunLoop(t.Context(), []agentcore.Message{prompt}, agentcore.AgentContext{}, agentcore.LoopConfig{
		Model: agentcoretest.Model(), StreamFn: fake.Stream,
		Layers: []agentcore.Layer{answer},
	})
	require.NoError(t, err)
	msgs, err := run.Wait()
	require.NoError(t, err)
	got, err := answer.Result(msgs)
	require.NoError(t, err)
	assert.Equal(t, Line{Item: "tea", Quantity: 2, Price: 3.5}, got)
	assert.Equal(t, 3, fake.CallCount(), "a nudge, a repair, the answer")
	assert.Len(t, log.values, 2, "one partial per call: the fake streams arguments whole")
}

func TestRunLoopsShareAnAnswer(t *testing.T) {
	answer := structured.New[Line](structured.Options[Line]{Repairs: -1})
	start := func(args any) *agentcore.LoopRun {
		fake := agentcoretest.New(call("c1", args))
		run, err := agentcore.RunLoop(t.Context(), []agentcore.Message{&agentcore.UserMessage{Content: agentcore.Text("go")}},
			agentcore.AgentContext{}, agentcore.LoopConfig{Model: agentcoretest.Model(), StreamFn: fake.Stream, Layers: []agentcore.Layer{answer}})
		require.NoError(t, err)
		return run
	}
	bad, good := start(badQty), start(valid)
	msgs, err := good.Wait()
	require.NoError(t, err)
	got, err := answer.Result(msgs)
	require.NoError(t, err)
	assert.Equal(t, "tea", got.Item)
	msgs, err = bad.Wait()
	require.NoError(t, err)
	_, err = answer.Result(msgs)
	assert.ErrorIs(t, err, structured.ErrInvalidAnswer)
}
