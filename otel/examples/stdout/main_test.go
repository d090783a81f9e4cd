package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

// TestMain fails the tests if any goroutine outlives them.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestStdout runs the example and checks the span tree it printed and its
// metric lines.
func TestStdout(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out))

	type spanContext struct{ TraceID, SpanID string }
	type span struct {
		Name        string
		SpanContext spanContext
		Parent      spanContext
		Status      struct{ Code string }
		Attributes  []struct {
			Key   string
			Value struct {
				Type  string
				Value any
			}
		}
		InstrumentationScope struct{ Name, SchemaURL string }
	}
	attrs := func(s span) map[string]any {
		m := map[string]any{}
		for _, kv := range s.Attributes {
			m[kv.Key] = kv.Value.Value
		}
		return m
	}
	dec := json.NewDecoder(&out)
	byID := map[string]span{}
	var names []string
	for {
		var s span
		if err := dec.Decode(&s); err != nil {
			break
		}
		byID[s.SpanContext.SpanID] = s
		names = append(names, s.Name)
	}
	assert.ElementsMatch(t, []string{"invoke_agent travel", "chat fake-model", "chat fake-model", "execute_tool weather", "execute_tool flights"}, names)
	for _, s := range byID {
		assert.Equal(t, "https://opentelemetry.io/schemas/1.41.0", s.InstrumentationScope.SchemaURL, s.Name)
		a := attrs(s)
		switch s.Name {
		case "chat fake-model":
			assert.Equal(t, true, a["gen_ai.request.stream"])
			assert.Greater(t, a["gen_ai.response.time_to_first_chunk"], 0.0, "the first chunk comes after a delay")
			assert.NotEmpty(t, a["gen_ai.tool.definitions"])
		case "execute_tool weather":
			assert.Equal(t, "Current weather for a city.", a["gen_ai.tool.description"])
		case "execute_tool flights":
			assert.Equal(t, "Flights to a city.", a["gen_ai.tool.description"])
		case "invoke_agent travel":
			assert.Equal(t, "1.0.0", a["gen_ai.agent.version"])
		}
		if s.Name == "invoke_agent travel" {
			assert.Equal(t, "Unset", s.Status.Code)
			continue
		}
		assert.Equal(t, "invoke_agent travel", byID[s.Parent.SpanID].Name, "%s nests under the run", s.Name)
		if s.Name == "execute_tool flights" {
			assert.Equal(t, "Error", s.Status.Code)
		}
	}

	rest, err := io.ReadAll(io.MultiReader(dec.Buffered(), &out))
	require.NoError(t, err)
	metrics := string(rest)
	for _, want := range []string{
		"gen_ai.client.operation.duration{", "gen_ai.execute_tool.duration{error.type=tool_error,",
		"gen_ai.invoke_agent.duration{gen_ai.agent.name=travel}", "gen_ai.token.type=input} count=2 sum=400 {token}",
		"gen_ai.client.operation.time_to_first_chunk{", "gen_ai.client.operation.time_per_output_chunk{",
		"gen_ai.token.type=output} count=2 sum=42 {token}",
	} {
		assert.True(t, strings.Contains(metrics, want), "metrics hold %q:\n%s", want, metrics)
	}
}
