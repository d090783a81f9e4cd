package main

import (
	"bytes"
	"context"
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
