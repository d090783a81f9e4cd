package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	agentmcp "github.com/pi-go/agentcore/mcp"
)

// TestMain serves the notes when the test binary is started as the
// example's server.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "-serve" {
		main()
		return
	}
	os.Exit(m.Run())
}

// TestExample runs the example against itself as the MCP server, over
// stdio, and compares its log with the golden file.
func TestExample(t *testing.T) {
	self, err := os.Executable()
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, run(t.Context(), &out, agentmcp.Command{Path: self, Args: []string{"-serve"}}))
	golden := filepath.Join("testdata", "output.golden")
	if os.Getenv("UPDATE_GOLDEN") != "" {
		require.NoError(t, os.WriteFile(golden, out.Bytes(), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), out.String())
}
