package structured_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/structured"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lastToolResult is the last tool result of the request call saw.
func lastToolResult(t *testing.T, c agentcoretest.Call) *agentcore.ToolResultMessage {
	t.Helper()
	msgs := c.Request.Messages
	for i := len(msgs) - 1; i >= 0; i-- {
		if r, ok := msgs[i].(*agentcore.ToolResultMessage); ok {
			return r
		}
	}
	t.Fatal("no tool result in the request")
	return nil
}

// lastUserText is the text of the last user message of the request call
// saw.
func lastUserText(t *testing.T, c agentcoretest.Call) string {
	t.Helper()
	msgs := c.Request.Messages
	for i := len(msgs) - 1; i >= 0; i-- {
		if u, ok := msgs[i].(*agentcore.UserMessage); ok {
			return u.Content.Text()
		}
	}
	t.Fatal("no user message in the request")
	return ""
}

var (
	valid      = map[string]any{"item": "tea", "quantity": 2, "price": 3.5}
	badEnum    = map[string]any{"number": "1", "status": "lost", "customer": map[string]any{"name": "A"}, "lines": []any{}}
	badQty     = map[string]any{"item": "tea", "quantity": 0, "price": 3.5}
	badMissing = map[string]any{"item": "tea"}
)

func TestRepairOfInvalidAnswers(t *testing.T) {
	fake := agentcoretest.New(call("c1", badQty), call("c2", badMissing), call("c3", valid))
	answer := structured.New[Line](structured.Options[Line]{})
	got, err := answer.Prompt(t.Context(), newAgent(fake, answer), "Extract the line.")
	require.NoError(t, err)
	assert.Equal(t, Line{Item: "tea", Quantity: 2, Price: 3.5}, got)

	require.Equal(t, 3, fake.CallCount(), "two repairs by default")
	first := lastToolResult(t, fake.Calls()[1])
	assert.True(t, first.IsError)
	assert.Contains(t, first.Text(), "quantity", "the validator's words go back to the model")
	second := lastToolResult(t, fake.Calls()[2])
	assert.True(t, second.IsError)
	assert.Contains(t, second.Text(), "quantity")
	assert.Contains(t, second.Text(), "price")
}

func TestRepairBound(t *testing.T) {
	tests := []struct {
		name     string
		repairs  int
		requests int // the model's answers before the run ends
	}{
		{name: "default", repairs: 0, requests: 3},
		{name: "one", repairs: 1, requests: 2},
		{name: "none", repairs: -1, requests: 1},
		{name: "five", repairs: 5, requests: 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := agentcoretest.NewFunc(func(_ context.Context, c agentcoretest.Call) agentcoretest.Response {
				return call("c"+string(rune('0'+c.Index)), badQty)
			})
			answer := structured.New[Line](structured.Options[Line]{Repairs: tt.repairs})
			agent := newAgent(fake, answer)
			_, err := answer.Prompt(t.Context(), agent, "Extract the line.")

			var ae *structured.Error
			require.ErrorAs(t, err, &ae)
			assert.ErrorIs(t, err, structured.ErrInvalidAnswer)
			assert.Equal(t, tt.requests, fake.CallCount())
			assert.Equal(t, tt.requests, ae.Invalid)
			assert.JSONEq(t, `{"item":"tea","quantity":0,"price":3.5}`, string(ae.Arguments), "the last attempt")
			assert.Contains(t, ae.Problem, "quantity")
			assert.Contains(t, err.Error(), "quantity")
			require.NotNil(t, ae.Last)
			assert.Equal(t, agent.Messages()[len(agent.Messages())-2], ae.Last)
			assert.Len(t, ae.Messages, 1+2*tt.requests, "the prompt, then a call and its result per answer")
		})
	}
}

func TestBrokenJSONIsRepaired(t *testing.T) {
	broken := agentcoretest.ToolCall("c1", structured.DefaultName, nil)
	broken.Arguments = nil
	broken.ArgumentsError = "unexpected end of JSON input"
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(broken), call("c2", valid))
	answer := structured.New[Line](structured.Options[Line]{})
	got, err := answer.Prompt(t.Context(), newAgent(fake, answer), "go")
	require.NoError(t, err)
	assert.Equal(t, "tea", got.Item)
	assert.Contains(t, lastToolResult(t, fake.Calls()[1]).Text(), "unexpected end of JSON input")
}

func TestEnumViolationIsRepaired(t *testing.T) {
	ok := map[string]any{"number": "1", "status": "paid", "customer": map[string]any{"name": "A"}, "lines": []any{}}
	fake := agentcoretest.New(call("c1", badEnum), call("c2", ok))
	answer := structured.New[Invoice](structured.Options[Invoice]{})
	got, err := answer.Prompt(t.Context(), newAgent(fake, answer), "go")
	require.NoError(t, err)
	assert.Equal(t, "paid", got.Status)
	assert.Contains(t, lastToolResult(t, fake.Calls()[1]).Text(), "status")
}

func TestProseAnswerIsNudged(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.TextResponse("It is tea, two of them."), call("c1", valid))
	answer := structured.New[Line](structured.Options[Line]{})
	agent := newAgent(fake, answer)
	got, err := answer.Prompt(t.Context(), agent, "Extract the line.")
	require.NoError(t, err)
	assert.Equal(t, "tea", got.Item)
	require.Equal(t, 2, fake.CallCount())
	assert.Equal(t, "Do not answer in text. Call the final_answer tool with your answer as its arguments.",
		lastUserText(t, fake.Calls()[1]))
}

func TestProseBound(t *testing.T) {
	tests := []struct {
		name     string
		opts     structured.Options[Line]
		requests int
		nudge    string
	}{
		{name: "default: asked once", requests: 2, nudge: "Do not answer in text. Call the final_answer tool with your answer as its arguments."},
		{name: "asked twice, own words", opts: structured.Options[Line]{Nudges: 2, Nudge: "Use the tool."}, requests: 3, nudge: "Use the tool."},
		{name: "never asked", opts: structured.Options[Line]{Nudges: -1}, requests: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := agentcoretest.NewFunc(func(context.Context, agentcoretest.Call) agentcoretest.Response {
				return agentcoretest.TextResponse("tea, two")
			})
			answer := structured.New[Line](tt.opts)
			_, err := answer.Prompt(t.Context(), newAgent(fake, answer), "Extract the line.")
			var ae *structured.Error
			require.ErrorAs(t, err, &ae)
			assert.ErrorIs(t, err, structured.ErrNoAnswer)
			assert.False(t, errors.Is(err, structured.ErrInvalidAnswer))
			assert.Equal(t, tt.requests, fake.CallCount())
			require.NotNil(t, ae.Last)
			assert.Equal(t, "tea, two", ae.Last.Text())
			assert.Zero(t, ae.Invalid)
			assert.Nil(t, ae.Arguments)
			for _, c := range fake.Calls()[1:] {
				assert.Equal(t, tt.nudge, lastUserText(t, c))
			}
		})
	}
}

func TestProseThenInvalidThenValid(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.TextResponse("tea"), call("c1", badQty), call("c2", valid))
	answer := structured.New[Line](structured.Options[Line]{})
	got, err := answer.Prompt(t.Context(), newAgent(fake, answer), "go")
	require.NoError(t, err)
	assert.Equal(t, 2, got.Quantity)
	assert.Equal(t, 3, fake.CallCount())
}

func TestInvalidAfterRepairsFailsWithLastAttempt(t *testing.T) {
	fake := agentcoretest.New(call("c1", badMissing), call("c2", badQty))
	answer := structured.New[Line](structured.Options[Line]{Repairs: 1})
	_, err := answer.Prompt(t.Context(), newAgent(fake, answer), "go")
	var ae *structured.Error
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, 2, ae.Invalid)
	var args map[string]any
	require.NoError(t, json.Unmarshal(ae.Arguments, &args))
	assert.Equal(t, float64(0), args["quantity"], "the last attempt, not the first")
}
