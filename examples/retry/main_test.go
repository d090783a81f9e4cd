package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
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
	if err := run(context.Background(), &out, fast); err != nil {
		t.Fatal(err)
	}
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
		err := &agentcore.RunError{Message: &agentcore.AssistantMessage{StopReason: agentcore.StopError, ErrorMessage: tt.text}}
		if got := agentcore.IsRetryable(err); got != tt.want {
			t.Errorf("IsRetryable(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
	aborted := &agentcore.RunError{Message: &agentcore.AssistantMessage{StopReason: agentcore.StopAborted, ErrorMessage: "timeout"}}
	if agentcore.IsRetryable(aborted) {
		t.Error("an aborted run is the user's decision, not a retry")
	}
}

func TestDelay(t *testing.T) {
	p := Policy{BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second}
	var got []time.Duration
	for attempt := 1; attempt <= 6; attempt++ {
		got = append(got, p.Delay(attempt))
	}
	want := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond, 800 * time.Millisecond, time.Second, time.Second}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("delays %v, want %v", got, want)
		}
	}
}

func TestGivesUp(t *testing.T) {
	fake := agentcoretest.NewFunc(func(context.Context, agentcoretest.Call) agentcoretest.Response {
		return agentcoretest.ErrorResponse("503 service unavailable")
	})
	var log bytes.Buffer
	s := NewSession(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream}, fast, &log)
	if _, failed := errors.AsType[*agentcore.RunError](s.Prompt(context.Background(), "hi")); !failed {
		t.Fatal("Prompt did not report the failed run")
	}
	if fake.CallCount() != 1+fast.MaxRetries || !strings.Contains(log.String(), "giving up after 3 retries") {
		t.Fatalf("%d requests, log:\n%s", fake.CallCount(), log.String())
	}
	// The last failure stays in the transcript; the retried ones do not.
	if got := roles(s.Agent.Messages()); got != "user assistant!" {
		t.Fatalf("transcript %s", got)
	}
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
