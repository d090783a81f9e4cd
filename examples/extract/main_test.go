package main

import (
	"bytes"
	"context"
	"flag"
	"path/filepath"
	"testing"

	"github.com/pi-go/agentcore/examples/internal/helpexit"
	"github.com/pi-go/agentcore/internal/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExtract runs the example and compares its output with the golden
// file.
func TestExtract(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), nil, &out))
	golden.Check(t, out.Bytes(), filepath.Join("testdata", "output.golden"))
}

// TestHelp: -h prints the usage with -model and is flag.ErrHelp, which
// main answers with exit status 0.
func TestHelp(t *testing.T) {
	var out bytes.Buffer
	require.ErrorIs(t, run(context.Background(), []string{"-h"}, &out), flag.ErrHelp)
	assert.Contains(t, out.String(), "Usage: go run ./examples/extract [-model PROVIDER/ID]")
	assert.Contains(t, out.String(), "-model")
	assert.NotContains(t, out.String(), "order:", "nothing ran")
}

// TestModelFlag: -model names the model the run talks to.
func TestModelFlag(t *testing.T) {
	s, err := parse([]string{"-model", "anthropic/claude-sonnet-4-5"}, &bytes.Buffer{})
	require.NoError(t, err)
	assert.Equal(t, "claude-sonnet-4-5", s.model.ID)
	assert.Equal(t, "anthropic-messages", s.model.API)
}

// TestHelpExitsZero: -h prints the usage and exits with status 0.
func TestHelpExitsZero(t *testing.T) {
	helpexit.Check(t, "TestHelpExitsZero", main, "Usage: go run ./examples/extract")
}
