package openai_test

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
	"github.com/pi-go/agentcore/providers/openai"
)

// TestProviderError checks that a failed request reaches a run's error as
// a typed ProviderError: the status and Retry-After of a refusal, the
// network error of a connection that failed.
func TestProviderError(t *testing.T) {
	refuse := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "7")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"error":{"message":"Rate limit reached","type":"requests"}}`))
	}))
	defer refuse.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()

	tests := []struct {
		name       string
		url        string
		status     int
		retryAfter time.Duration
		retryable  bool
		cause      bool
	}{
		{"429", refuse.URL, 429, 7 * time.Second, true, false},
		{"connection refused", closed.URL, 0, 0, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			agent := agentcore.New(agentcore.Options{
				Model:    agentcore.Model{ID: "m", Provider: "openai", API: "openai-completions"},
				StreamFn: openai.StreamFn(openai.Options{BaseURL: tt.url, APIKey: "k"}),
			})
			err := agent.Prompt(context.Background(), "hi")
			pe, ok := errors.AsType[*agentcore.ProviderError](err)
			require.True(t, ok, "Prompt returned %v", err)
			assert.Equal(t, tt.status, pe.StatusCode)
			assert.Equal(t, tt.retryAfter, pe.RetryAfter)
			assert.Equal(t, tt.retryable, agentcore.IsRetryable(err))
			assert.Equal(t, tt.cause, pe.Err != nil)
			msgs := agent.Messages()
			assert.Equal(t, pe.Message, msgs[len(msgs)-1].(*agentcore.AssistantMessage).ErrorMessage)
		})
	}
}
