package provider

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

func TestFail(t *testing.T) {
	netErr := errors.New("connection refused")
	tests := []struct {
		name    string
		cancel  bool
		failure *Failure
		want    agentcore.StopReason
		typed   bool
	}{
		{"status", false, Status(429, http.Header{"Retry-After": {"3"}}, "429 slow down"), agentcore.StopError, true},
		{"network", false, &Failure{Text: "Connection error.", Err: netErr}, agentcore.StopError, true},
		{"aborted", true, TextFailure("Request was aborted"), agentcore.StopAborted, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			if tt.cancel {
				cancel()
			}
			defer cancel()
			var final *agentcore.AssistantMessage
			stream := agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
				Fail(ctx, w, &agentcore.AssistantMessage{Content: []agentcore.ContentBlock{}}, tt.failure)
			})
			for ev := range stream {
				if e, ok := ev.(*agentcore.ErrorEvent); ok {
					final = e.Message
				}
			}
			require.NotNil(t, final)
			assert.Equal(t, tt.want, final.StopReason)
			assert.Equal(t, tt.failure.Text, final.ErrorMessage)
			pe, typed := errors.AsType[*agentcore.ProviderError](final.Err)
			require.Equal(t, tt.typed, typed)
			if typed {
				assert.Equal(t, tt.failure.Status, pe.StatusCode)
				assert.Equal(t, tt.failure.RetryAfter, pe.RetryAfter)
				assert.Equal(t, tt.failure.Err, pe.Err)
			}
		})
	}
	assert.Equal(t, 3*time.Second, Status(429, http.Header{"Retry-After": {"3"}}, "").RetryAfter)
}
