package main

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/pi-go/agentcore/examples/internal/helpexit"
	"github.com/pi-go/agentcore/internal/golden"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestRun(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), t.TempDir(), &out))
	golden.Check(t, out.Bytes(), filepath.Join("testdata", "output.golden"))
}

// TestHelpExitsZero: -h prints the usage and exits with status 0.
func TestHelpExitsZero(t *testing.T) {
	helpexit.Check(t, "TestHelpExitsZero", main, "Usage: go run ./examples/persist")
}
