package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/internal/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var fast = Policy{MaxRetries: 3, BaseDelay: time.Millisecond, MaxDelay: 10 * time.Millisecond}

func TestRun(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out, fast))
	golden.Check(t, out.Bytes(), filepath.Join("testdata", "output.golden"))
}

func TestRetryable(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{`529 {"type":"overloaded_error"}`, true},
		{"Rate limit reached for requests", true},
		{"503 Service Unavailable", true},
		{"The service is temporarily unavailable", true},
		{"request timed out", true},
		{"connection reset by peer", true},
		{"agentcore: stream ended without a done or error event", true},
		{"401 invalid x-api-key", false},
		{"429 insufficient_quota: check your plan and billing", false},
		{"400 prompt is too long", false},
		{"request id req_5003", false}, // a number inside a word is no status code
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			err := &agentcore.RunError{Message: &agentcore.AssistantMessage{StopReason: agentcore.StopError, ErrorMessage: tt.text}}
			assert.Equal(t, tt.want, agentcore.IsRetryable(err), "IsRetryable(%q)", tt.text)
		})
	}
	t.Run("aborted", func(t *testing.T) {
		aborted := &agentcore.RunError{Message: &agentcore.AssistantMessage{StopReason: agentcore.StopAborted, ErrorMessage: "timeout"}}
		assert.False(t, agentcore.IsRetryable(aborted), "an aborted run is the user's decision, not a retry")
	})
}

func TestDelay(t *testing.T) {
	p := Policy{BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second}
	var got []time.Duration
	for attempt := 1; attempt <= 6; attempt++ {
		got = append(got, p.Delay(attempt))
	}
	want := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond, 800 * time.Millisecond, time.Second, time.Second}
	assert.Equal(t, want, got, "delays")
}

func TestGivesUp(t *testing.T) {
	fake := agentcoretest.NewFunc(func(context.Context, agentcoretest.Call) agentcoretest.Response {
		return agentcoretest.ErrorResponse("503 service unavailable")
	})
	var log bytes.Buffer
	s := NewSession(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream}, fast, &log)
	_, failed := errors.AsType[*agentcore.RunError](s.Prompt(context.Background(), "hi"))
	assert.True(t, failed, "Prompt did not report the failed run")
	assert.Equal(t, 1+fast.MaxRetries, fake.CallCount(), "requests, log:\n%s", log.String())
	assert.Contains(t, log.String(), "giving up after 3 retries")
	// The last failure stays in the transcript; the retried ones do not.
	assert.Equal(t, "user assistant!", roles(s.Agent.Messages()), "transcript")
}

// TestAbortDuringBackoff aborts a prompt while it waits an hour before
// retrying: in a bubble, once the session is blocked in the backoff.
func TestAbortDuringBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fake := agentcoretest.New(agentcoretest.ErrorResponse("overloaded"))
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		slow := Policy{MaxRetries: 3, BaseDelay: time.Hour, MaxDelay: time.Hour}
		s := NewSession(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream}, slow, io.Discard)
		done := make(chan error, 1)
		go func() { done <- s.Prompt(ctx, "hi") }()
		synctest.Wait()
		require.Equal(t, 1, fake.CallCount(), "requests before the abort")
		cancel()
		require.ErrorIs(t, <-done, context.Canceled)
		assert.Equal(t, 1, fake.CallCount(), "requests after the abort")
	})
}
