package main

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/pi-go/agentcore/internal/golden"
	"github.com/stretchr/testify/require"
)

// TestExtract runs the example and compares its output with the golden
// file.
func TestExtract(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out))
	golden.Check(t, out.Bytes(), filepath.Join("testdata", "output.golden"))
}
