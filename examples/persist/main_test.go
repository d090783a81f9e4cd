package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestRun(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), t.TempDir(), &out))
	golden.Check(t, out.Bytes(), filepath.Join("testdata", "output.golden"))
}

// TestFileRoundTrip checks that the file holds the transcript exactly: what
// was written marshals back to the same JSON after loading, custom
// messages included.
func TestFileRoundTrip(t *testing.T) {
	f := &SessionFile{Path: filepath.Join(t.TempDir(), "s.jsonl")}
	custom, err := agentcore.UnmarshalMessage([]byte(`{"role":"compactionSummary","summary":"earlier work","tokensBefore":1200,"timestamp":5}`))
	require.NoError(t, err)
	written := []agentcore.Message{
		agentcore.InitialSystemMessage("prompt", []agentcore.ToolDeclaration{noteTool().Declaration()}),
		&agentcore.UserMessage{Content: agentcore.Text("hi"), Timestamp: 1},
		custom,
	}
	require.NoError(t, f.Append(written...))
	loaded, err := f.Load()
	require.NoError(t, err)
	a, _ := json.Marshal(written)
	b, _ := json.Marshal(loaded)
	assert.Equal(t, string(a), string(b), "round trip: expected what was written, actual what was loaded")
}

// TestUnwritableFileEndsTheRun: when the session cannot be written, the
// next request fails the run instead of going on without persistence.
func TestUnwritableFileEndsTheRun(t *testing.T) {
	dir := t.TempDir()
	f := &SessionFile{Path: filepath.Join(dir, "s.jsonl")}
	agent, err := NewAgent(f, agentcore.Options{Model: agentcore.Model{ID: "m"}, StreamFn: model().Stream, Tools: []agentcore.Tool{noteTool()}})
	require.NoError(t, err)
	f.Path = filepath.Join(dir, "missing", "s.jsonl") // appends now fail
	err = agent.Prompt(context.Background(), "My name is Ada.")
	assert.ErrorIs(t, err, fs.ErrNotExist, "Prompt: want the file's error")
	got := agent.State().ErrorMessage
	assert.True(t, strings.HasPrefix(got, "session file:"), "error message %q", got)
}
