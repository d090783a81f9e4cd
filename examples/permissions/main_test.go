package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-go/agentcore/examples/internal/helpexit"
	"github.com/pi-go/agentcore/hold"
	"github.com/pi-go/agentcore/internal/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestRestarts plays three invocations on one session file: the first
// exits with c2 held, the second approves it and exits with c3 held, the
// third denies c3 and the run finishes.
func TestRestarts(t *testing.T) {
	state := filepath.Join(t.TempDir(), "session.json")
	var out bytes.Buffer
	for _, args := range [][]string{
		{},
		{"-approve", "c2"},
		{"-deny", "c3", "-reason", "Never force-push."},
	} {
		args = append([]string{"-state", state}, args...)
		out.WriteString("$ permissions " + strings.Join(args[2:], " ") + "\n")
		require.NoError(t, run(t.Context(), args, &out), out.String())
	}
	golden.Check(t, out.Bytes(), filepath.Join("testdata", "output.golden"))
	assert.NoFileExists(t, state, "a finished session leaves no file")
}

// TestBadDecision refuses a decision for a call that is not held and
// leaves the session file as it was.
func TestBadDecision(t *testing.T) {
	state := filepath.Join(t.TempDir(), "session.json")
	var out bytes.Buffer
	require.NoError(t, run(t.Context(), []string{"-state", state}, &out))
	before, err := os.ReadFile(state)
	require.NoError(t, err)
	err = run(t.Context(), []string{"-state", state, "-approve", "c9"}, &out)
	assert.ErrorIs(t, err, hold.ErrNotHeld)
	after, err := os.ReadFile(state)
	require.NoError(t, err)
	assert.Equal(t, before, after)

	err = run(t.Context(), []string{"-state", filepath.Join(t.TempDir(), "none.json"), "-approve", "c2"}, &out)
	assert.ErrorContains(t, err, "nothing is waiting")
}

// TestHelpExitsZero: -h prints the usage and exits with status 0.
func TestHelpExitsZero(t *testing.T) {
	helpexit.Check(t, "TestHelpExitsZero", main, "Usage: go run ./examples/permissions")
}
