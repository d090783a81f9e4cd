package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore/examples/webchat/internal/webchat"
	"github.com/pi-go/agentcore/internal/sse"
	"github.com/pi-go/agentcore/providers"
)

func TestConfig(t *testing.T) {
	c, err := config("", "", "", "", "")
	require.NoError(t, err)
	assert.Equal(t, "fake-model", c.Model.ID)

	c, err = config(providers.AnthropicMessages, "claude-sonnet-4-5", "", "", "low")
	require.NoError(t, err)
	assert.Equal(t, "anthropic", c.Model.Provider)
	assert.Equal(t, providers.AnthropicMessages, c.Model.API)
	assert.True(t, c.Model.Reasoning)
	assert.NotNil(t, c.StreamFn)

	_, err = config(providers.OpenAICompletions, "", "", "", "")
	assert.ErrorContains(t, err, "-api needs -model")
	_, err = config("", "gpt-4.1", "", "", "")
	assert.ErrorContains(t, err, "-model needs -api")
}

func TestRunRefusesBadFlags(t *testing.T) {
	assert.Error(t, run(t.Context(), []string{"-nope"}))
	assert.ErrorContains(t, run(t.Context(), []string{"-model", "x"}), "-model needs -api")
}

// TestServesPageAndAgent runs the example's server on the fake model: the
// page is served, and a weather question streams the tools' results.
func TestServesPageAndAgent(t *testing.T) {
	c, err := config("", "", "", "", "")
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
