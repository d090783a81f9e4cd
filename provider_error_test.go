package agentcore_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pi-go/agentcore"
)

func TestProviderErrorRetryable(t *testing.T) {
	tests := []struct {
		name string
		err  agentcore.ProviderError
		want bool
	}{
		{"429", agentcore.ProviderError{StatusCode: 429, Message: "slow down"}, true},
		{"503", agentcore.ProviderError{StatusCode: 503, Message: "busy"}, true},
		{"408", agentcore.ProviderError{StatusCode: 408, Message: "request timeout"}, true},
		{"529 overloaded", agentcore.ProviderError{StatusCode: 529, Message: `{"type":"overloaded_error"}`}, true},
		{"400", agentcore.ProviderError{StatusCode: 400, Message: "prompt is too long"}, false},
		{"401", agentcore.ProviderError{StatusCode: 401, Message: "invalid x-api-key"}, false},
		{"429 quota", agentcore.ProviderError{StatusCode: 429, Message: "insufficient_quota: check your billing"}, false},
		{"429 zhipu plan", agentcore.ProviderError{StatusCode: 429, Message: `{"code":"1308","msg":"limit"}`}, false},
		{"network", agentcore.ProviderError{Message: "read tcp: connection reset by peer"}, true},
		{"ECONNRESET", agentcore.ProviderError{Message: "read ECONNRESET"}, true},
		{"code in a word", agentcore.ProviderError{Message: "request id req_5003 failed validation"}, false},
		{"timeout", agentcore.ProviderError{Message: "context deadline exceeded (Client.Timeout exceeded)"}, true},
		{"incomplete stream", agentcore.ProviderError{Message: "agentcore: stream ended without a done or error event"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.err.Retryable())
			run := &agentcore.RunError{Message: &agentcore.AssistantMessage{StopReason: agentcore.StopError, ErrorMessage: tt.err.Message, Err: &tt.err}, Err: &tt.err}
			assert.Equal(t, tt.want, agentcore.IsRetryable(run), "through a RunError")
			assert.Equal(t, tt.want, agentcore.IsRetryable(fmt.Errorf("wrapped: %w", run)), "wrapped")
		})
	}
}

func TestIsRetryable(t *testing.T) {
	failed := func(reason agentcore.StopReason, text string) error {
		return &agentcore.RunError{Message: &agentcore.AssistantMessage{StopReason: reason, ErrorMessage: text}}
	}
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"other error", errors.New("overloaded"), false},
		{"busy", agentcore.ErrBusy, false},
		{"overloaded text", failed(agentcore.StopError, "529 overloaded_error: Overloaded"), true},
		{"rate limit text", failed(agentcore.StopError, "Rate limit reached"), true},
		{"aborted", failed(agentcore.StopAborted, "timeout"), false},
		{"bad key text", failed(agentcore.StopError, "401 invalid x-api-key"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, agentcore.IsRetryable(tt.err))
		})
	}
}
