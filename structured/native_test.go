package structured_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/structured"
)

// model is a model of api, provider and ID, answered by the fake.
func model(api, provider, id string) agentcore.Model {
	return agentcore.Model{ID: id, Name: id, API: api, Provider: provider, Input: []string{"text"}}
}

// nativeAgent is an Agent on fake, with m as its model and answer as its
// layer.
func nativeAgent[T any](fake *agentcoretest.Fake, m agentcore.Model, answer *structured.Answer[T]) *agentcore.Agent {
	return agentcore.New(agentcore.Options{Model: m, StreamFn: fake.Stream, Layers: []agentcore.Layer{answer}})
}

const lineJSON = `{"item":"tea","quantity":2,"price":3.5}`

var (
	gpt5      = model("openai-responses", "openai", "gpt-5")
	gpt4      = model("openai-responses", "openai", "gpt-4")
	gemini3   = model("google-generative-ai", "google", "gemini-3-flash-preview")
	gemini25  = model("google-vertex", "google-vertex", "gemini-2.5-pro")
	claude    = model("anthropic-messages", "anthropic", "claude-sonnet-4-5")
	mistral   = model("mistral-conversations", "mistral", "mistral-large-latest")
	openrtr   = model("openai-completions", "openrouter", "openai/gpt-5")
	azureGPT5 = model("azure-openai-responses", "azure", "gpt-5")
)

// TestModeChoosesNativeOrTool runs a prompt in each mode on models of
// each API: a native request carries the response format and no
// final-answer tool, and takes the answer from the text; a tool request
// declares the tool and no format. Both give the value.
func TestModeChoosesNativeOrTool(t *testing.T) {
	tests := []struct {
		name   string
		mode   structured.Mode
		model  agentcore.Model
		native bool
	}{
		{"auto, OpenAI GPT-5", structured.ModeAuto, gpt5, true},
		{"auto, Azure GPT-5", structured.ModeAuto, azureGPT5, true},
		{"auto, GPT-4 is older than structured outputs", structured.ModeAuto, gpt4, false},
		{"auto, Gemini 3", structured.ModeAuto, gemini3, true},
		{"auto, Gemini 2.5 falls back", structured.ModeAuto, gemini25, false},
		{"auto, Claude falls back", structured.ModeAuto, claude, false},
		{"auto, OpenRouter falls back", structured.ModeAuto, openrtr, false},
		{"auto, the fake falls back", structured.ModeAuto, agentcoretest.Model(), false},
		{"native, Claude", structured.ModeNative, claude, true},
		{"native, Gemini 2.5", structured.ModeNative, gemini25, true},
		{"native, OpenRouter", structured.ModeNative, openrtr, true},
		{"native, Mistral has no mode: the tool", structured.ModeNative, mistral, false},
		{"tool, OpenAI GPT-5", structured.ModeTool, gpt5, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reply := call("c1", map[string]any{"item": "tea", "quantity": 2, "price": 3.5})
			if tt.native {
				reply = agentcoretest.TextResponse(lineJSON)
			}
			fake := agentcoretest.New(reply)
			answer := structured.New[Line](structured.Options[Line]{Mode: tt.mode})
			got, err := answer.Prompt(t.Context(), nativeAgent(fake, tt.model, answer), "Extract the line.")
			require.NoError(t, err)
			assert.Equal(t, Line{Item: "tea", Quantity: 2, Price: 3.5}, got)
			if tt.mode == structured.ModeAuto {
				assert.Equal(t, tt.native, structured.NativeSupported(tt.model.API, tt.model.Provider, tt.model.ID), "Auto follows NativeSupported")
			}

			calls := fake.Calls()
			require.Len(t, calls, 1)
			rf := calls[0].Options.ResponseFormat
			tools := agentcore.CurrentTools(calls[0].Request.Messages)
			if !tt.native {
				assert.Nil(t, rf)
				require.Len(t, tools, 1)
				assert.Equal(t, structured.DefaultName, tools[0].Name)
				return
			}
			assert.Empty(t, tools, "no final-answer tool in the native mode")
			require.NotNil(t, rf)
			assert.Equal(t, structured.DefaultName, rf.Name)
			assert.True(t, rf.Strict, "Line requires all its fields")
			assert.JSONEq(t, `{"type":"object","properties":{"item":{"type":"string"},"quantity":{"type":"integer","minimum":1},"price":{"type":"number"}},"required":["item","quantity","price"],"additionalProperties":false}`, string(rf.Schema))
		})
	}
}

// TestNativeSchemaOfOptionalFields checks the response format of a type
// with optional fields and a map: every object closed, not strict.
func TestNativeSchemaOfOptionalFields(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.TextResponse(`{"number":"INV-1","status":"paid","customer":{"name":"Ada"},"lines":[]}`))
	answer := structured.New[Invoice](structured.Options[Invoice]{Mode: structured.ModeNative})
	got, err := answer.Prompt(t.Context(), nativeAgent(fake, claude, answer), "Extract the invoice.")
	require.NoError(t, err)
	assert.Equal(t, Invoice{Number: "INV-1", Status: "paid", Customer: Customer{Name: "Ada"}, Lines: []Line{}}, got)

	rf := fake.Calls()[0].Options.ResponseFormat
	require.NotNil(t, rf)
	assert.False(t, rf.Strict, "optional fields and a map are not strict")
	var schema struct {
		AdditionalProperties *bool `json:"additionalProperties"`
		Properties           struct {
			Customer struct {
				AdditionalProperties *bool `json:"additionalProperties"`
			} `json:"customer"`
			Tags struct {
				AdditionalProperties json.RawMessage `json:"additionalProperties"`
			} `json:"tags"`
		} `json:"properties"`
	}
	require.NoError(t, json.Unmarshal(rf.Schema, &schema))
	assert.Equal(t, new(false), schema.AdditionalProperties)
	assert.Equal(t, new(false), schema.Properties.Customer.AdditionalProperties)
	assert.JSONEq(t, `{"type":"string"}`, string(schema.Properties.Tags.AdditionalProperties), "a map keeps its values' schema")
}

// TestNativeRepair answers with prose, then JSON that fails the schema,
// then a fenced valid answer: each failure goes back as a user message in
// the validator's words, and the run returns the value.
func TestNativeRepair(t *testing.T) {
	fake := agentcoretest.New(
		agentcoretest.TextResponse("The line is tea, two of them."),
		agentcoretest.TextResponse(`{"item":"tea","quantity":0,"price":3.5}`),
		agentcoretest.TextResponse("```json\n"+lineJSON+"\n```"),
	)
	answer := structured.New[Line](structured.Options[Line]{})
	got, err := answer.Prompt(t.Context(), nativeAgent(fake, gpt5, answer), "Extract the line.")
	require.NoError(t, err)
	assert.Equal(t, Line{Item: "tea", Quantity: 2, Price: 3.5}, got)
	require.Equal(t, 3, fake.CallCount())

	repairs := []string{}
	for _, c := range fake.Calls()[1:] {
		msgs := c.Request.Messages
		u, ok := msgs[len(msgs)-1].(*agentcore.UserMessage)
		require.True(t, ok, "the repair is a user message")
		repairs = append(repairs, u.Text())
	}
	assert.Contains(t, repairs[0], "not a JSON object")
	assert.Contains(t, repairs[0], "The line is tea")
	assert.Contains(t, repairs[1], "quantity")
	assert.Contains(t, repairs[1], "Answer again with only the corrected JSON.")
}

// TestNativeBound ends the run past the repairs with an *Error holding
// the last attempt, from the live run and from its decoded transcript.
func TestNativeBound(t *testing.T) {
	bad := `{"item":"tea","quantity":0,"price":3.5}`
	fake := agentcoretest.New(agentcoretest.TextResponse(bad), agentcoretest.TextResponse(bad), agentcoretest.TextResponse(lineJSON))
	answer := structured.New[Line](structured.Options[Line]{Repairs: 1})
	agent := nativeAgent(fake, gemini3, answer)
	_, err := answer.Prompt(t.Context(), agent, "Extract the line.")
	require.Error(t, err)
	assert.Equal(t, 2, fake.CallCount(), "one repair, then the end")
	var e *structured.Error
	require.ErrorAs(t, err, &e)
	assert.True(t, errors.Is(err, structured.ErrInvalidAnswer))
	assert.Equal(t, 2, e.Invalid)
	assert.JSONEq(t, bad, string(e.Arguments))
	assert.Contains(t, e.Problem, "quantity")

	raw, err := json.Marshal(agent.State().Messages)
	require.NoError(t, err)
	decoded, err := agentcore.UnmarshalMessages(raw)
	require.NoError(t, err)
	_, again := answer.Result(decoded[1:])
	assert.True(t, errors.Is(again, structured.ErrInvalidAnswer), "the transcript tells the same")
}

// TestNativeResultFromTranscript reads a native answer from a decoded
// transcript, as under RunLoop.
func TestNativeResultFromTranscript(t *testing.T) {
	fake := agentcoretest.New(agentcoretest.TextResponse(lineJSON))
	answer := structured.New[Line](structured.Options[Line]{})
	agent := nativeAgent(fake, azureGPT5, answer)
	_, err := answer.Prompt(t.Context(), agent, "Extract the line.")
	require.NoError(t, err)
	raw, err := json.Marshal(agent.State().Messages)
	require.NoError(t, err)
	decoded, err := agentcore.UnmarshalMessages(raw)
	require.NoError(t, err)
	got, err := answer.Result(decoded)
	require.NoError(t, err)
	assert.Equal(t, Line{Item: "tea", Quantity: 2, Price: 3.5}, got)
}

// TestNativePartialValues streams a native answer's text in pieces: the
// listener sees the value grow from the text deltas.
func TestNativePartialValues(t *testing.T) {
	var log partialLog[Line]
	reply := agentcoretest.TextResponse(lineJSON)
	reply.Chunks = 6
	fake := agentcoretest.New(reply)
	answer := structured.New[Line](structured.Options[Line]{OnPartial: log.add})
	got, err := answer.Prompt(t.Context(), nativeAgent(fake, gpt5, answer), "Extract the line.")
	require.NoError(t, err)
	assert.Equal(t, Line{Item: "tea", Quantity: 2, Price: 3.5}, got)
	require.NotEmpty(t, log.values)
	assert.Greater(t, len(log.values), 1, "more than the final value")
	assert.Equal(t, got, log.values[len(log.values)-1])
}

// TestNativeSupported lists the catalog's facts Auto reads.
func TestNativeSupported(t *testing.T) {
	tests := []struct {
		api, provider, id string
		want              bool
	}{
		{"openai-responses", "openai", "gpt-4o", true},
		{"openai-responses", "openai", "gpt-4o-2024-05-13", false},
		{"openai-responses", "openai", "gpt-4-turbo", false},
		{"openai-responses", "openai", "o3-mini", true},
		{"openai-completions", "openai", "gpt-4.1", true},
		{"openai-responses", "github-copilot", "gpt-5", false},
		{"azure-openai-responses", "azure", "o4-mini", true},
		{"azure-openai-responses", "azure", "deepseek-v4-pro", false},
		{"google-generative-ai", "google", "gemini-4-neon", true},
		{"google-generative-ai", "google", "gemini-2.5-flash", false},
		{"google-generative-ai", "google", "gemma-4-31b-it", false},
		{"anthropic-messages", "anthropic", "claude-opus-4-5", false},
		{"bedrock-converse-stream", "amazon-bedrock", "anthropic.claude-sonnet-4-5", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, structured.NativeSupported(tt.api, tt.provider, tt.id), "%s %s %s", tt.api, tt.provider, tt.id)
	}
}
