package agentcore_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// TestStreamProxyKeepsRequestOptions: as pi's streamProxy, the proxy client
// forwards none of the request options (hooks, identity, timeout, retries):
// they stay with the client, and the server applies its own.
func TestStreamProxyKeepsRequestOptions(t *testing.T) {
	var options map[string]json.RawMessage
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Options map[string]json.RawMessage `json:"options"`
		}
		json.Unmarshal(body, &req)
		options = req.Options
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, `data: {"type":"done","reason":"stop","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}}`+"\n\n")
	}))
	defer srv.Close()

	called := false
	so := agentcore.StreamOptions{
		SessionID: "s1",
		Identity:  agentcore.Identity{UserAgent: "myapp", Attribution: agentcore.PiAttribution()},
		Timeout:   time.Minute, MaxRetries: 3,
		OnPayload: func(context.Context, agentcore.Model, json.RawMessage) (json.RawMessage, error) {
			called = true
			return nil, nil
		},
		OnResponse:            func(context.Context, agentcore.Model, agentcore.ProviderResponse) error { called = true; return nil },
		OnProviderStreamEvent: func(context.Context, agentcore.Model, json.RawMessage) error { called = true; return nil },
	}
	fn := agentcore.StreamProxy(agentcore.ProxyOptions{URL: srv.URL, AuthToken: "t", Client: srv.Client()})
	for range fn(t.Context(), agentcore.Model{ID: "m"}, agentcore.Request{Messages: []agentcore.Message{agentcore.UserText("hi")}}, so) {
	}
	require.NotNil(t, options)
	assert.Equal(t, `"s1"`, string(options["sessionId"]))
	for _, key := range []string{"identity", "timeoutMs", "maxRetries", "onPayload", "onResponse", "onProviderStreamEvent"} {
		assert.NotContains(t, options, key)
	}
	assert.False(t, called, "the client's hooks are not the proxy's")
}

// TestModelJSONInput marshals models whose Input is nil, as a Go program
// writes one: pi's Model always has an input array, and its consumers call
// model.input.includes (a TypeScript proxy server, through pi-ai's
// transformMessages), so nil goes out as []. StreamProxy posts it so.
func TestModelJSONInput(t *testing.T) {
	for _, tt := range []struct {
		name  string
		input []string
		want  string
	}{
		{name: "nil", input: nil, want: `[]`},
		{name: "empty", input: []string{}, want: `[]`},
		{name: "text", input: []string{"text", "image"}, want: `["text","image"]`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			data, err := json.Marshal(agentcore.Model{ID: "m", Input: tt.input})
			require.NoError(t, err)
			var got struct{ Input json.RawMessage }
			require.NoError(t, json.Unmarshal(data, &got))
			assert.Equal(t, tt.want, string(got.Input))
		})
	}

	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ = io.ReadAll(r.Body)
		http.Error(w, `{"error":"seen"}`, http.StatusTeapot)
	}))
	defer srv.Close()
	stream := agentcore.StreamProxy(agentcore.ProxyOptions{URL: srv.URL})(context.Background(),
		agentcore.Model{ID: "claude-sonnet-4-5", Provider: "anthropic", API: "anthropic-messages", MaxTokens: 8192}, agentcore.Request{}, agentcore.StreamOptions{})
	for range stream {
	}
	var sent struct {
		Model struct{ Input json.RawMessage }
	}
	require.NoError(t, json.Unmarshal(body, &sent))
	assert.Equal(t, `[]`, string(sent.Model.Input), "the model StreamProxy posts")
}
