package main

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRun is the example's smoke test: the run finishes on worker B with
// the tool run once more there, the steering message in the transcript and
// the answer streamed live.
func TestRun(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out bytes.Buffer
	require.NoError(t, run(ctx, &out))
	got := out.String()
	for _, want := range []string{
		"tool running on worker A (attempt 1)",
		"worker A killed",
		"tool running on worker B (attempt 2)",
		"  user: Also run the tests.",
		"  tool build: built ./cmd/app",
		"  assistant: Built ./cmd/app, and noted the steering.",
		`streamed live in 4 deltas: ["Built ./cm" "d/app, and" " noted the" " steering."]`,
	} {
		assert.Contains(t, got, want)
	}
}
