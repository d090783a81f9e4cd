package anthropic

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestStatusFailure(t *testing.T) {
	tests := []struct {
		name       string
		status     int
		header     http.Header
		body       string
		text       string
		errType    string
		retryable  bool
		retryAfter time.Duration
	}{
		{name: "rate limit with retry-after", status: 429, header: http.Header{"Retry-After": {"7"}},
			body:    `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`,
			text:    `429 {"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`,
			errType: "rate_limit_error", retryable: true, retryAfter: 7 * time.Second},
		{name: "overloaded", status: 529, body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
			text: `529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, errType: "overloaded_error", retryable: true},
		{name: "bad request", status: 400, body: `{"type":"error","error":{"type":"invalid_request_error","message":"no"}}`,
			text: `400 {"type":"error","error":{"type":"invalid_request_error","message":"no"}}`, errType: "invalid_request_error"},
		{name: "top-level message", status: 401, body: `{"message":"bad key"}`, text: "401 bad key"},
		{name: "server says retry", status: 400, header: http.Header{"X-Should-Retry": {"true"}, "Retry-After-Ms": {"250"}},
			body: "nope", text: "400 nope", retryable: true, retryAfter: 250 * time.Millisecond},
		{name: "server says do not retry", status: 503, header: http.Header{"X-Should-Retry": {"false"}}, body: "", text: "503 status code (no body)"},
		{name: "plain text", status: 502, body: "bad gateway\n", text: "502 bad gateway", retryable: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := statusFailure(tt.status, tt.header, []byte(tt.body))
			assert.Equal(t, failure{text: tt.text, status: tt.status, errType: tt.errType, retryable: tt.retryable, retryAfter: tt.retryAfter}, f)
		})
	}
}

func TestStreamAndConnectionFailures(t *testing.T) {
	f := streamFailure([]byte(`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`))
	assert.Equal(t, "overloaded_error", f.errType)
	assert.True(t, f.retryable)
	assert.False(t, streamFailure([]byte(`{"type":"error","error":{"type":"invalid_request_error"}}`)).retryable)

	c := connectionFailure(errors.New("connection reset by peer"))
	assert.Equal(t, "Connection error.: connection reset by peer", c.text)
	assert.True(t, c.retryable)
}
