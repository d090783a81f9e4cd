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
