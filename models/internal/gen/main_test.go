package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCatalogIsCurrent regenerates the catalog from pi-ai's data files,
// when this machine has them, and expects the committed one.
func TestCatalogIsCurrent(t *testing.T) {
	if _, err := os.Stat(defaultData); err != nil {
		t.Skip("pi-ai's data files are not installed:", err)
	}
	out := filepath.Join(t.TempDir(), "catalog.tsv")
	require.NoError(t, run(defaultData, out))
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	want, err := os.ReadFile("../../catalog.tsv")
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "run go generate in models")
}

func TestRunFailsWithoutData(t *testing.T) {
	assert.Error(t, run(t.TempDir(), filepath.Join(t.TempDir(), "out.tsv")))
}
