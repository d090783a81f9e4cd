package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestFakeSession runs the offline session and compares it with
// testdata/session.txt.
func TestFakeSession(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, runFake(context.Background(), &out))
	want, err := os.ReadFile(filepath.Join("testdata", "session.txt"))
	require.NoError(t, err)
	assert.Equal(t, string(want), out.String())
}

func TestSystemPromptListsTheTools(t *testing.T) {
	p := systemPrompt(".")
	for _, s := range []string{"- read: Read file contents\n", "- bash: Execute bash commands (ls, grep, find, etc.)\n", "- Use write only for new files or complete rewrites.\n"} {
		assert.Contains(t, p, s)
	}
}

// TestHelp prints the usage and its environment, and exits 0 (flag.ErrHelp).
func TestHelp(t *testing.T) {
	var out bytes.Buffer
	assert.ErrorIs(t, run(context.Background(), []string{"-h"}, nil, &out), flag.ErrHelp)
	assert.Contains(t, out.String(), "CHAT_MODEL")
	assert.Contains(t, out.String(), "-dir")
}
