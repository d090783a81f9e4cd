package agentcore_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// TestProxyProviderError checks that StreamProxy's failures reach the
// run's error as typed ProviderErrors: a refusal with its status and
// Retry-After, an error relayed from the upstream provider with its text.
func TestProxyProviderError(t *testing.T) {
	refuse := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "2")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"error":"upstream overloaded"}`))
	}))
	defer refuse.Close()
	relay := httptest.NewServer(agentcore.NewProxyHandler(agentcore.ProxyHandlerOptions{
		StreamFn:  agentcoretest.New(agentcoretest.ErrorResponse("429 rate limit reached")).Stream,
		Authorize: func(*http.Request, string) error { return nil },
	}))
	defer relay.Close()

	tests := []struct {
		name       string
		url        string
		text       string
		status     int
		retryAfter time.Duration
	}{
		{"refused", refuse.URL, "Proxy error: upstream overloaded", 503, 2 * time.Second},
		{"relayed", relay.URL, "429 rate limit reached", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			agent := agentcore.New(agentcore.Options{Model: agentcoretest.Model(),
				StreamFn: agentcore.StreamProxy(agentcore.ProxyOptions{URL: tt.url, AuthToken: "t"})})
			err := agent.Prompt(context.Background(), "hi")
			pe, ok := errors.AsType[*agentcore.ProviderError](err)
			require.True(t, ok, "Prompt returned %v", err)
			assert.Equal(t, tt.text, pe.Message)
			assert.Equal(t, tt.status, pe.StatusCode)
			assert.Equal(t, tt.retryAfter, pe.RetryAfter)
			assert.True(t, agentcore.IsRetryable(err))
		})
	}
}
