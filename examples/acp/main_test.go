package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore/acp/acptest"
)

// TestOfficialClient runs a prompt of the official TypeScript client
// against the example on the fake model.
func TestOfficialClient(t *testing.T) {
	dir := acptest.Install(t)
	cwd, sessions := t.TempDir(), t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(cwd, "main.go"), []byte("package main\n"), 0o644))
	var stderr strings.Builder
	serve := func(ctx context.Context, rw io.ReadWriter) error {
		return run(ctx, []string{"-sessions", sessions}, func(string) string { return "" }, rw, &stderr)
	}
	r := acptest.Run(t, dir, serve, cwd, "example")
	assert.Empty(t, r["invalid"])
	example := r["example"].(map[string]any)
	assert.Equal(t, "end_turn", example["stop"])
	var text string
	var tools []string
	for _, u := range r["updates"].(map[string]any)[example["session"].(string)].([]any) {
		m := u.(map[string]any)
		switch m["sessionUpdate"] {
		case "agent_message_chunk":
			text += m["content"].(map[string]any)["text"].(string)
		case "tool_call":
			tools = append(tools, m["title"].(string))
		}
	}
	assert.Equal(t, []string{"ls ."}, tools)
	assert.Contains(t, text, "the directory holds 1 entries")
	assert.Empty(t, stderr.String())
	matches, err := filepath.Glob(filepath.Join(sessions, "sessions", "*", "*.jsonl"))
	require.NoError(t, err)
	assert.Len(t, matches, 1, "the session file")
}

func TestHelp(t *testing.T) {
	var out strings.Builder
	err := run(t.Context(), []string{"-h"}, func(string) string { return "" }, nil, &out)
	require.Error(t, err)
	assert.Contains(t, out.String(), "-sessions")
}
