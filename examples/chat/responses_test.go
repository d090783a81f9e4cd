package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// responsesEvent writes one event of the Responses stream.
func responsesEvent(w http.ResponseWriter, data map[string]any) {
	b, _ := json.Marshal(data)
	fmt.Fprintf(w, "event: %s\ndata: %s\n\n", data["type"], b)
	w.(http.Flusher).Flush()
}

// responsesAnswer streams the output items, each added, its text as one
// delta, then done, and the completed response.
func responsesAnswer(items ...map[string]any) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for i, it := range items {
			responsesEvent(w, map[string]any{"type": "response.output_item.added", "output_index": i, "item": it})
			switch it["type"] {
			case "reasoning":
				text := it["summary"].([]any)[0].(map[string]any)["text"]
				responsesEvent(w, map[string]any{"type": "response.reasoning_summary_text.delta", "output_index": i, "delta": text})
			case "message":
				text := it["content"].([]any)[0].(map[string]any)["text"]
				responsesEvent(w, map[string]any{"type": "response.output_text.delta", "output_index": i, "delta": text})
			}
			responsesEvent(w, map[string]any{"type": "response.output_item.done", "output_index": i, "item": it})
		}
		responsesEvent(w, map[string]any{"type": "response.completed", "response": map[string]any{"id": "resp", "status": "completed"}})
	}
}

// TestSmokeResponses drives the program on the Responses API as main
// does: reasoning, a tool call, an answer, end of input.
func TestSmokeResponses(t *testing.T) {
	reasoning := map[string]any{"id": "rs_1", "type": "reasoning", "summary": []any{map[string]any{"type": "summary_text", "text": "Use calc."}}, "encrypted_content": "enc"}
	s := &server{got: make(chan struct{}, 3), handlers: []http.HandlerFunc{
		responsesAnswer(reasoning, map[string]any{"id": "fc_1", "type": "function_call", "call_id": "call_1", "name": "calc", "arguments": `{"expr": "6*7"}`}),
		responsesAnswer(map[string]any{"id": "msg_1", "type": "message", "content": []any{map[string]any{"type": "output_text", "text": "6*7 is 42."}}}),
	}}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	env := map[string]string{"OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_API_KEY": "sk-test", "API": "openai-responses", "MODEL": "gpt-test", "THINKING": "low"}

	out := newLockedBuffer()
	require.NoError(t, run(t.Context(), strings.NewReader("What is 6*7?\n"), out, func(k string) string { return env[k] }))
	for _, want := range []string{
		"chat with gpt-test at " + srv.URL,
		"[thinking] Use calc.\n",
		`  -> calc {"expr":"6*7"}`, "  <- 42\n",
		"6*7 is 42.\n",
	} {
		assert.Contains(t, out.String(), want)
	}
	first, second := s.body(0), s.body(1)
	assert.Contains(t, first, `"reasoning":{"effort":"low","summary":"auto"}`)
	assert.Contains(t, second, `"encrypted_content":"enc"`)
	assert.Contains(t, second, `{"type":"function_call_output","call_id":"call_1","output":"42"}`)
}

func TestConfigResponses(t *testing.T) {
	for _, env := range []map[string]string{{"API": "openai-responses"}, {"PROVIDER": "openai-responses"}} {
		c, err := config(func(k string) string { return env[k] })
		require.NoError(t, err)
		assert.Equal(t, "openai-responses", c.model.API)
		assert.Equal(t, "openai", c.model.Provider)
		assert.Equal(t, "gpt-5-mini", c.model.ID)
		assert.Equal(t, "https://api.openai.com/v1", c.baseURL)
	}
}
