package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

// TestRun runs the example end to end on loopback and checks its log.
func TestRun(t *testing.T) {
	defer goleak.VerifyNone(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out bytes.Buffer
	err := run(ctx, &out)
	require.NoError(t, err, "run\n%s", out.String())
	log := out.String()
	for _, want := range []string{
		"user: How many widgets and gadgets do we have?",
		`   streaming lookup arguments: {"item":"widgets"}`,
		`   calls lookup {"item":"gadgets"}`,
		"tool result c1: 42 widgets",
		"tool result c2: 7 gadgets",
		"assistant: You have 42| widgets an|d 7 gadgets| in stock.|",
		"   [stop] 120 tokens in, 30 out",
		"agent end: 5 new messages",
		"wrong token: [error] Proxy error: invalid proxy token",
	} {
		assert.True(t, strings.Contains(log, want), "the log lacks %q", want)
	}
	if t.Failed() {
		t.Logf("log:\n%s", log)
	}
}
