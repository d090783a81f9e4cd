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

// geminiChunk writes one chunk of the Gemini stream: parts, and the
// finish reason when not empty.
func geminiChunk(w http.ResponseWriter, finish string, parts ...map[string]any) {
	c := map[string]any{"content": map[string]any{"parts": parts, "role": "model"}}
	if finish != "" {
		c["finishReason"] = finish
	}
	b, _ := json.Marshal(map[string]any{"candidates": []any{c}})
	fmt.Fprintf(w, "data: %s\r\n\r\n", b)
	w.(http.Flusher).Flush()
}

// TestSmokeGemini drives the program on Gemini as main does, its key
// read from the environment by the dispatcher: thinking, a tool call, an
// answer, end of input.
func TestSmokeGemini(t *testing.T) {
	s := &server{got: make(chan struct{}, 3), handlers: []http.HandlerFunc{
		func(w http.ResponseWriter, r *http.Request) {
			assert.Equal(t, "gm-test", r.Header.Get("X-Goog-Api-Key"))
			assert.Equal(t, "/v1beta/models/gemini-test:streamGenerateContent", r.URL.Path)
			geminiChunk(w, "", map[string]any{"text": "Use calc.", "thought": true})
			geminiChunk(w, "STOP", map[string]any{"functionCall": map[string]any{"name": "calc", "args": map[string]any{"expr": "6*7"}}})
		},
		func(w http.ResponseWriter, r *http.Request) {
			geminiChunk(w, "STOP", map[string]any{"text": "6*7 is 42."})
		},
	}}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	env := map[string]string{"GEMINI_BASE_URL": srv.URL + "/v1beta", "GEMINI_API_KEY": "gm-test", "MODEL": "gemini-test", "THINKING": "low"}

	out := newLockedBuffer()
	require.NoError(t, run(t.Context(), strings.NewReader("What is 6*7?\n"), out, func(k string) string { return env[k] }))
	for _, want := range []string{
		"chat with gemini-test at " + srv.URL + "/v1beta",
		"[thinking] Use calc.\n",
		`  -> calc {"expr":"6*7"}`, "  <- 42\n",
		"6*7 is 42.\n",
	} {
		assert.Contains(t, out.String(), want)
	}
	assert.Contains(t, s.body(0), `"thinkingConfig":{"includeThoughts":true,"thinkingBudget":-1}`)
	assert.Contains(t, s.body(1), `"functionResponse":{"name":"calc","response":{"output":"42"}}`)
}
