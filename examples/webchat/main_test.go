package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/examples/webchat/internal/webchat"
	"github.com/pi-go/agentcore/internal/sse"
	"github.com/pi-go/agentcore/providers"
)

func TestConfig(t *testing.T) {
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	c, err := config(env(nil), "")
	require.NoError(t, err)
	assert.Equal(t, "fake-model", c.Model.ID)

	c, err = config(env(map[string]string{"CHAT_MODEL": "anthropic/claude-sonnet-4-5"}), "low")
	require.NoError(t, err)
	assert.Equal(t, "anthropic", c.Model.Provider)
	assert.Equal(t, providers.AnthropicMessages, c.Model.API)
	assert.Equal(t, agentcore.ThinkingLevel("low"), c.ThinkingLevel)
	assert.NotNil(t, c.StreamFn)

	c, err = config(env(map[string]string{"CHAT_MODEL": "qwen3", "BASE_URL": "http://localhost:11434/v1", "OPENAI_API_KEY": "k"}), "")
	require.NoError(t, err)
	assert.Equal(t, "http://localhost:11434/v1", c.Model.BaseURL)
	assert.Equal(t, "k", c.APIKey)

	_, err = config(env(map[string]string{"CHAT_MODEL": "nobody/nothing"}), "")
	assert.ErrorIs(t, err, providers.ErrUnknownModel)
}

func TestRunFlags(t *testing.T) {
	assert.Error(t, run(t.Context(), []string{"-nope"}))
	assert.ErrorIs(t, run(t.Context(), []string{"-h"}), flag.ErrHelp, "-h exits 0")
	assert.ErrorIs(t, run(t.Context(), []string{"-model", "nobody/nothing"}), providers.ErrUnknownModel)
}

// TestServesPageAndAgent runs the example's server on the fake model: the
// page is served, and a weather question streams the tools' results.
func TestServesPageAndAgent(t *testing.T) {
	c, err := config(func(string) string { return "" }, "")
	require.NoError(t, err)
	c.StreamFn = webchat.FakeModel(0).Stream
	srv := httptest.NewServer(webchat.New(c))
	defer srv.Close()

	for _, path := range []string{"/", "/app.js", "/style.css", "/config"} {
		resp, err := http.Get(srv.URL + path)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode, path)
		assert.NotEmpty(t, body, path)
	}

	body := `{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":"weather in Paris and Tokyo?"}],"tools":[],"context":[]}`
	resp, err := http.Post(srv.URL+"/agent", "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	var results []string
	var last string
	r := sse.NewReader(resp.Body, 0)
	for {
		raw, err := r.Next()
		if err != nil {
			break
		}
		var ev struct {
			Type    string `json:"type"`
			Content string `json:"content"`
		}
		require.NoError(t, json.Unmarshal(raw.Data, &ev))
		last = ev.Type
		if ev.Type == "TOOL_CALL_RESULT" {
			results = append(results, ev.Content)
		}
	}
	assert.ElementsMatch(t, []string{"Paris: 18°C and sunny", "Tokyo: 24°C with light rain"}, results)
	assert.Equal(t, "RUN_FINISHED", last)
}

// TestRunServesUntilCancelled starts the command on a free port and stops
// it.
func TestRunServesUntilCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"-addr", "127.0.0.1:0"}) }()
	cancel()
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(time.Minute): // a guard, not a measure
		t.Fatal("run did not return")
	}
}

// TestServesIcon: the page names an icon and the server serves it.
func TestServesIcon(t *testing.T) {
	c, err := config(func(string) string { return "" }, "")
	require.NoError(t, err)
	srv := httptest.NewServer(webchat.New(c))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/")
	require.NoError(t, err)
	page, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	assert.Contains(t, string(page), `<link rel="icon" href="favicon.svg" type="image/svg+xml">`)
	resp, err = http.Get(srv.URL + "/favicon.svg")
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "image/svg+xml", resp.Header.Get("Content-Type"))
}
