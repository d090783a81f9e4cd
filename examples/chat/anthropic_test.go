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

// claudeEvent writes one event of the Anthropic stream.
func claudeEvent(w http.ResponseWriter, data map[string]any) {
	b, _ := json.Marshal(data)
	fmt.Fprintf(w, "event: %s\ndata: %s\n\n", data["type"], b)
	w.(http.Flusher).Flush()
}

// claudeAnswer streams message_start, the blocks blocks writes, and the
// end with stop.
func claudeAnswer(stop string, blocks func(w http.ResponseWriter)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		claudeEvent(w, map[string]any{"type": "message_start", "message": map[string]any{"id": "msg", "model": "claude-test", "usage": map[string]any{"input_tokens": 10}}})
		blocks(w)
		claudeEvent(w, map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop}, "usage": map[string]any{"output_tokens": 5}})
		claudeEvent(w, map[string]any{"type": "message_stop"})
	}
}

func claudeBlock(w http.ResponseWriter, index int, start, delta map[string]any) {
	claudeEvent(w, map[string]any{"type": "content_block_start", "index": index, "content_block": start})
	if delta != nil {
		claudeEvent(w, map[string]any{"type": "content_block_delta", "index": index, "delta": delta})
	}
	claudeEvent(w, map[string]any{"type": "content_block_stop", "index": index})
}

// TestSmokeAnthropic drives the program on Claude as main does: thinking,
// two tool calls, an answer, end of input.
func TestSmokeAnthropic(t *testing.T) {
	s := &server{got: make(chan struct{}, 3), handlers: []http.HandlerFunc{
		claudeAnswer("tool_use", func(w http.ResponseWriter) {
			claudeBlock(w, 0, map[string]any{"type": "thinking", "thinking": ""}, map[string]any{"type": "thinking_delta", "thinking": "Use calc."})
			claudeBlock(w, 1, map[string]any{"type": "tool_use", "id": "toolu_1", "name": "calc", "input": map[string]any{}},
				map[string]any{"type": "input_json_delta", "partial_json": `{"expr": "6*7"}`})
		}),
		claudeAnswer("end_turn", func(w http.ResponseWriter) {
			claudeBlock(w, 0, map[string]any{"type": "text", "text": ""}, map[string]any{"type": "text_delta", "text": "6*7 is 42."})
		}),
	}}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	env := map[string]string{"ANTHROPIC_BASE_URL": srv.URL, "ANTHROPIC_API_KEY": "sk-ant-test", "MODEL": "claude-test", "THINKING": "low"}

	out := newLockedBuffer()
	require.NoError(t, run(t.Context(), strings.NewReader("What is 6*7?\n"), out, func(k string) string { return env[k] }))
	for _, want := range []string{
		"chat with claude-test at " + srv.URL,
		"[thinking] Use calc.\n",
		`  -> calc {"expr":"6*7"}`, "  <- 42\n",
		"6*7 is 42.\n",
	} {
		assert.Contains(t, out.String(), want)
	}
	first, second := s.body(0), s.body(1)
	assert.Contains(t, first, `"thinking":{"type":"enabled","budget_tokens":2048`)
	assert.Contains(t, second, `"tool_use_id":"toolu_1","content":"42"`)
}

func TestConfig(t *testing.T) {
	tests := []struct {
		name, provider, model, baseURL string
		env                            map[string]string
	}{
		{name: "anthropic by key", env: map[string]string{"ANTHROPIC_API_KEY": "k"}, provider: "anthropic", model: "claude-sonnet-4-5", baseURL: "https://api.anthropic.com"},
		{name: "openai by default", env: map[string]string{}, provider: "openai", model: "gpt-4.1-mini", baseURL: "https://api.openai.com/v1"},
		{name: "google by key", env: map[string]string{"GEMINI_API_KEY": "k"}, provider: "google", model: "gemini-2.5-flash", baseURL: "https://generativelanguage.googleapis.com/v1beta"},
		{name: "anthropic first", env: map[string]string{"GEMINI_API_KEY": "k", "ANTHROPIC_API_KEY": "k"}, provider: "anthropic", model: "claude-sonnet-4-5", baseURL: "https://api.anthropic.com"},
		{name: "explicit provider", env: map[string]string{"ANTHROPIC_API_KEY": "k", "PROVIDER": "openai", "OPENAI_BASE_URL": "http://local/v1", "MODEL": "m"},
			provider: "openai-compatible", model: "m", baseURL: "http://local/v1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := config(func(k string) string { return tt.env[k] })
			require.NoError(t, err)
			assert.Equal(t, tt.provider, c.model.Provider)
			assert.Equal(t, tt.model, c.model.ID)
			assert.Equal(t, tt.baseURL, c.baseURL)
		})
	}
}

// TestSmokeCatalogModel names a catalog model with -model and sends it to
// a local server: the answer reports what it cost at the catalog's prices.
func TestSmokeCatalogModel(t *testing.T) {
	s := &server{got: make(chan struct{}, 1), handlers: []http.HandlerFunc{
		claudeAnswer("end_turn", func(w http.ResponseWriter) {
			claudeBlock(w, 0, map[string]any{"type": "text", "text": ""}, map[string]any{"type": "text_delta", "text": "Hello."})
		}),
	}}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	env := map[string]string{"CHAT_MODEL": "anthropic/claude-sonnet-4-5", "BASE_URL": srv.URL, "ANTHROPIC_API_KEY": "sk-ant-test"}

	out := newLockedBuffer()
	require.NoError(t, run(t.Context(), strings.NewReader("Hi\n"), out, func(k string) string { return env[k] }))
	assert.Contains(t, out.String(), "chat with claude-sonnet-4-5 at "+srv.URL)
	assert.Contains(t, out.String(), "Hello.\n(10 tokens in, 5 out: $0.000105)\n")
	assert.Contains(t, s.body(0), `"model":"claude-sonnet-4-5"`)
}

func TestConfigCatalog(t *testing.T) {
	tests := []struct {
		name          string
		env           map[string]string
		provider, api string
		baseURL       string
		window        int
		err           bool
	}{
		{name: "a catalog model", env: map[string]string{"CHAT_MODEL": "google/gemini-2.5-flash"},
			provider: "google", api: "google-generative-ai", baseURL: "https://generativelanguage.googleapis.com/v1beta", window: 1048576},
		{name: "a local server", env: map[string]string{"CHAT_MODEL": "ollama/qwen3", "BASE_URL": "http://127.0.0.1:11434/v1"},
			provider: "ollama", api: "openai-completions", baseURL: "http://127.0.0.1:11434/v1"},
		{name: "a default the catalog knows", env: map[string]string{"ANTHROPIC_API_KEY": "k"},
			provider: "anthropic", api: "anthropic-messages", baseURL: "https://api.anthropic.com", window: 200000},
		{name: "an unknown model", env: map[string]string{"CHAT_MODEL": "anthropic/nope"}, err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := config(func(k string) string { return tt.env[k] })
			if tt.err {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.provider, c.model.Provider)
			assert.Equal(t, tt.api, c.model.API)
			assert.Equal(t, tt.baseURL, c.baseURL)
			assert.Equal(t, tt.baseURL, c.model.BaseURL)
			assert.Equal(t, tt.window, c.model.ContextWindow)
		})
	}
}
