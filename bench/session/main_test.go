package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pi-go/agentcore/session"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGenOpens checks that a generated file opens whole, with every
// message in the leaf's context, and that the timing runs.
func TestGenOpens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	require.NoError(t, gen(path, 1<<20))
	var bad []error
	s, err := session.Open(path, &session.Options{ReadOnly: true, OnBadLine: func(e *session.LineError) error {
		bad = append(bad, e)
		return nil
	}})
	require.NoError(t, err)
	defer s.Close()
	assert.Empty(t, bad)
	entries := s.Entries()
	assert.Greater(t, len(entries), 100)
	assert.Len(t, s.Context().Messages, len(entries)-1, "every message but the model change")
	require.NoError(t, s.Err())

	stdout := os.Stdout
	os.Stdout, _ = os.Open(os.DevNull)
	defer func() { os.Stdout = stdout }()
	require.NoError(t, timeOpen(path, 1))
}
