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
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// Invoice exercises the shapes a typed answer takes: nested structs,
// optional and pointer fields, an enum, slices and maps.
type Invoice struct {
	Number   string            `json:"number" jsonschema:"description=the invoice number"`
	Status   string            `json:"status" jsonschema:"enum=paid,enum=due,enum=overdue"`
	Customer Customer          `json:"customer"`
	Lines    []Line            `json:"lines"`
	Tags     map[string]string `json:"tags,omitempty"`
	Note     *string           `json:"note,omitempty"`
	Discount *float64          `json:"discount,omitempty"`
}

type Customer struct {
	Name    string   `json:"name"`
	Email   string   `json:"email,omitempty"`
	Address *Address `json:"address,omitempty"`
}

type Address struct {
	City    string `json:"city"`
	Country string `json:"country"`
}

type Line struct {
	Item     string  `json:"item"`
	Quantity int     `json:"quantity" jsonschema:"minimum=1"`
	Price    float64 `json:"price"`
}

// call is a call of the final-answer tool with args.
func call(id string, args any) agentcoretest.Response {
	return agentcoretest.ToolCallResponse(agentcoretest.ToolCall(id, structured.DefaultName, args))
}

// newAgent is an Agent on fake with answer as its layer.
func newAgent[T any](fake *agentcoretest.Fake, answer *structured.Answer[T], tools ...agentcore.Tool) *agentcore.Agent {
	return agentcore.New(agentcore.Options{
		Model:    agentcoretest.Model(),
		StreamFn: fake.Stream,
		Tools:    tools,
		Layers:   []agentcore.Layer{answer},
	})
}

func ptr[T any](v T) *T { return &v }

func TestPromptDecodesTypedValues(t *testing.T) {
	full := map[string]any{
		"number": "INV-7", "status": "due",
		"customer": map[string]any{"name": "Ada", "address": map[string]any{"city": "Lisbon", "country": "PT"}},
		"lines":    []any{map[string]any{"item": "tea", "quantity": 2, "price": 3.5}, map[string]any{"item": "cake", "quantity": 1, "price": 4}},
		"tags":     map[string]string{"channel": "shop", "vat": "23"},
		"note":     "leave at door",
		"discount": 0.1,
	}
	tests := []struct {
		name string
		args any
		want Invoice
	}{
		{
			name: "every field",
			args: full,
			want: Invoice{
				Number: "INV-7", Status: "due",
				Customer: Customer{Name: "Ada", Address: &Address{City: "Lisbon", Country: "PT"}},
				Lines:    []Line{{Item: "tea", Quantity: 2, Price: 3.5}, {Item: "cake", Quantity: 1, Price: 4}},
				Tags:     map[string]string{"channel": "shop", "vat": "23"},
				Note:     ptr("leave at door"), Discount: ptr(0.1),
			},
		},
		{
			name: "optional fields left out",
			args: map[string]any{"number": "INV-8", "status": "paid", "customer": map[string]any{"name": "Bo"}, "lines": []any{}},
			want: Invoice{Number: "INV-8", Status: "paid", Customer: Customer{Name: "Bo"}, Lines: []Line{}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := agentcoretest.New(call("c1", tt.args))
			answer := structured.New[Invoice](structured.Options[Invoice]{})
			agent := newAgent(fake, answer)

			got, err := answer.Prompt(t.Context(), agent, "Extract the invoice.")
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, 1, fake.CallCount(), "the accepted answer ends the run")

			calls := fake.Calls()
			tools := agentcore.CurrentTools(calls[0].Request.Messages)
			require.Len(t, tools, 1, "the model is offered the final-answer tool")
			assert.Equal(t, structured.DefaultName, tools[0].Name)
			assert.Empty(t, agent.State().Tools, "the Agent's own tools are unchanged")
		})
	}
}

func TestSchemaOfTheTool(t *testing.T) {
	answer := structured.New[Invoice](structured.Options[Invoice]{Description: "The invoice."})
	var schema struct {
		Required   []string `json:"required"`
		Properties map[string]struct {
			Enum       []string `json:"enum"`
			Type       string   `json:"type"`
			Properties map[string]json.RawMessage
		} `json:"properties"`
	}
	require.NoError(t, json.Unmarshal(answer.Tool().Parameters, &schema))
	assert.ElementsMatch(t, []string{"number", "status", "customer", "lines"}, schema.Required)
	assert.Equal(t, []string{"paid", "due", "overdue"}, schema.Properties["status"].Enum)
	assert.Equal(t, "array", schema.Properties["lines"].Type)
	assert.Equal(t, "object", schema.Properties["tags"].Type)
	assert.Contains(t, schema.Properties["customer"].Properties, "address")
	assert.Equal(t, "The invoice.", answer.Tool().Description)
}

func TestAnswerBesideOtherTools(t *testing.T) {
	lookup := agentcore.NewTool("lookup", "Look a customer up.",
		func(_ context.Context, _ string, args struct {
			Name string `json:"name"`
		}, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			return agentcore.TextResult(args.Name + " <ada@example.com>"), nil
		})
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "lookup", map[string]any{"name": "Ada"})),
		call("c2", map[string]any{"name": "Ada", "email": "ada@example.com"}),
	)
	answer := structured.New[Customer](structured.Options[Customer]{})
	agent := newAgent(fake, answer, lookup)

	got, err := answer.Prompt(t.Context(), agent, "Who is Ada?")
	require.NoError(t, err)
	assert.Equal(t, Customer{Name: "Ada", Email: "ada@example.com"}, got)
	require.Equal(t, 2, fake.CallCount())
	names := []string{}
	for _, d := range agentcore.CurrentTools(fake.Calls()[1].Request.Messages) {
		names = append(names, d.Name)
	}
	assert.ElementsMatch(t, []string{"lookup", structured.DefaultName}, names)
}

func TestAnswerInAMixedBatchEndsTheRun(t *testing.T) {
	noop := agentcore.Tool{Name: "noop", Execute: func(context.Context, string, json.RawMessage, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.TextResult("ok"), nil
	}}
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(
		agentcoretest.ToolCall("c1", "noop", map[string]any{}),
		agentcoretest.ToolCall("c2", structured.DefaultName, map[string]any{"name": "Ada"}),
	))
	answer := structured.New[Customer](structured.Options[Customer]{})
	got, err := answer.Prompt(t.Context(), newAgent(fake, answer, noop), "go")
	require.NoError(t, err)
	assert.Equal(t, "Ada", got.Name)
	assert.Equal(t, 1, fake.CallCount(), "FinishTurn ends the run though noop does not terminate")
}

func TestAnswerDeclaredByTheProgram(t *testing.T) {
	answer := structured.New[Customer](structured.Options[Customer]{Name: "submit"})
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "submit", map[string]any{"name": "Ada"})))
	agent := agentcore.New(agentcore.Options{
		Model: agentcoretest.Model(), StreamFn: fake.Stream,
		Tools:  []agentcore.Tool{answer.Tool()},
		Layers: []agentcore.Layer{answer},
	})
	got, err := answer.Prompt(t.Context(), agent, "go")
	require.NoError(t, err)
	assert.Equal(t, "Ada", got.Name)
	assert.Len(t, agentcore.CurrentTools(agent.Messages()), 1, "declared once, by the transcript")
}

func TestInvalidType(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.TextResponse("never asked"))
	answer := structured.New[[]string](structured.Options[[]string]{})
	agent := newAgent(fake, answer)

	_, err := answer.Prompt(t.Context(), agent, "go")
	require.ErrorIs(t, err, agentcore.ErrInvalidTool)
	assert.Zero(t, fake.CallCount())
	assert.Empty(t, agent.Messages(), "nothing started")

	require.ErrorIs(t, agent.Prompt(answer.Ask(t.Context()), "go"), agentcore.ErrInvalidTool, "a prompt that asks fails too")
	assert.Zero(t, fake.CallCount())

	require.NoError(t, agent.Prompt(t.Context(), "go"), "a plain prompt does not ask")
	assert.Equal(t, 1, fake.CallCount())
}

func TestRunFailureIsPassedOn(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.ErrorResponse("overloaded"))
	answer := structured.New[Customer](structured.Options[Customer]{})
	_, err := answer.Prompt(t.Context(), newAgent(fake, answer), "go")
	var runErr *agentcore.RunError
	require.ErrorAs(t, err, &runErr)
	assert.False(t, errors.Is(err, structured.ErrNoAnswer))
}

func TestResultOfADecodedTranscript(t *testing.T) {
	fake := agentcoretest.New(call("c1", map[string]any{"name": "Ada", "address": map[string]any{"city": "Porto", "country": "PT"}}))
	answer := structured.New[Customer](structured.Options[Customer]{})
	agent := newAgent(fake, answer)
	require.NoError(t, agent.Prompt(answer.Ask(t.Context()), "go"))

	data, err := json.Marshal(agent.Messages())
	require.NoError(t, err)
	decoded, err := agentcore.UnmarshalMessages(data)
	require.NoError(t, err)

	got, err := answer.Result(decoded)
	require.NoError(t, err)
	assert.Equal(t, Customer{Name: "Ada", Address: &Address{City: "Porto", Country: "PT"}}, got)
}

func TestValueIsTheCallersOwn(t *testing.T) {
	args := map[string]any{"number": "1", "status": "paid", "customer": map[string]any{"name": "A"},
		"lines": []any{map[string]any{"item": "tea", "quantity": 1, "price": 1}}, "tags": map[string]string{"k": "v"}}
	fake := agentcoretest.New(call("c1", args))
	answer := structured.New[Invoice](structured.Options[Invoice]{})
	agent := newAgent(fake, answer)
	first, err := answer.Prompt(t.Context(), agent, "go")
	require.NoError(t, err)
	first.Tags["k"], first.Lines[0].Item = "changed", "changed"

	again, err := answer.Result(agent.Messages())
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"k": "v"}, again.Tags, "the transcript's value is not the caller's")
	assert.Equal(t, "tea", again.Lines[0].Item)
}
