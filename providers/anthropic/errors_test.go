package anthropic

import (
	"context"
	"errors"
	"net"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

func TestRefusal(t *testing.T) {
	tests := []struct {
		name       string
		status     int
		header     http.Header
		body       string
		text       string
		retryAfter time.Duration
	}{
		{name: "error object", status: 429, header: http.Header{"Retry-After": {"7"}},
			body:       `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`,
			text:       `429 {"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`,
			retryAfter: 7 * time.Second},
		{name: "top-level message", status: 401, body: `{"message":"bad key"}`, text: "401 bad key"},
		{name: "top-level message not a string", status: 400, body: `{"message":{"a": 1}}`, text: `400 {"a":1}`},
		{name: "retry-after-ms first", status: 503, header: http.Header{"Retry-After-Ms": {"250"}, "Retry-After": {"9"}},
			body: "", text: "503 status code (no body)", retryAfter: 250 * time.Millisecond},
		{name: "plain text", status: 502, body: "bad gateway\n", text: "502 bad gateway\n"}, // as sent, as pi-ai
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := refusal(&http.Response{StatusCode: tt.status, Header: tt.header}, []byte(tt.body))
			assert.Equal(t, &provider.Failure{Text: tt.text, Status: tt.status, RetryAfter: tt.retryAfter}, f)
		})
	}
}

// TestProviderError checks the final message's Err, which a retry policy
// above the Agent reads: the status, the delay asked for, the cause, and
// the core's classification of each recorded failure.
func TestProviderError(t *testing.T) {
	_, cases := providertest.StreamCases(t)
	retryable := map[string]bool{
		"http-429": true, "http-529": true, "http-502": true, "http-503-empty": true, "stream-error": true,
		"cut-off": true, "no-message": true,
		"http-400": false, "malformed": false, "stop-refusal": false, "stop-something-new": false,
		"stop-sensitive": false, "fallback": false,
	}
	for _, c := range cases {
		want, ok := retryable[c.Name]
		if !ok {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			srv := providertest.ServeBody(t, c.Status, "text/event-stream", c.Headers, providertest.ReadTestdata(t, "stream", c.Body))
			_, final := testTarget(t).Run(t, t.Context(), streamFrom(srv), nil)
			pe, ok := errors.AsType[*agentcore.ProviderError](final.Err)
			require.True(t, ok, "Err = %v", final.Err)
			assert.Equal(t, final.ErrorMessage, pe.Message)
			assert.Equal(t, want, pe.Retryable(), pe.Message)
			if c.Status != 200 {
				assert.Equal(t, c.Status, pe.StatusCode)
			}
			if c.Name == "http-429" {
				assert.Equal(t, 7*time.Second, pe.RetryAfter)
			}
		})
	}
	t.Run("connection refused", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		addr := ln.Addr().String()
		ln.Close()
		_, final := testTarget(t).Run(t, t.Context(), StreamFn(Options{BaseURL: "http://" + addr}), nil)
		assert.ErrorIs(t, final.Err, syscall.ECONNREFUSED)
		assert.True(t, agentcore.IsRetryable(final.Err))
	})
	t.Run("abort has no provider error", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		srv, gone := providertest.HangingServer(t, nil, cancel)
		_, final := testTarget(t).Run(t, ctx, streamFrom(srv), nil)
		assert.Equal(t, agentcore.StopAborted, final.StopReason)
		assert.Nil(t, final.Err)
		providertest.WaitGone(t, gone)
	})
}
