package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/golden"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), t.TempDir(), &out); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, out.Bytes(), filepath.Join("testdata", "output.golden"))
}

// TestFileRoundTrip checks that the file holds the transcript exactly: what
// was written marshals back to the same JSON after loading, custom
// messages included.
func TestFileRoundTrip(t *testing.T) {
	f := &SessionFile{Path: filepath.Join(t.TempDir(), "s.jsonl")}
	custom, err := agentcore.UnmarshalMessage([]byte(`{"role":"compactionSummary","summary":"earlier work","tokensBefore":1200,"timestamp":5}`))
	if err != nil {
		t.Fatal(err)
	}
	written := []agentcore.Message{
		agentcore.InitialSystemMessage("prompt", []agentcore.ToolDeclaration{noteTool().Declaration()}),
		&agentcore.UserMessage{Content: agentcore.Text("hi"), Timestamp: 1},
		custom,
	}
	if err := f.Append(written...); err != nil {
		t.Fatal(err)
	}
	loaded, err := f.Load()
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(written)
	b, _ := json.Marshal(loaded)
	if !bytes.Equal(a, b) {
		t.Fatalf("round trip:\nwrote  %s\nloaded %s", a, b)
	}
}

// TestUnwritableFileEndsTheRun: when the session cannot be written, the
// next request fails the run instead of going on without persistence.
func TestUnwritableFileEndsTheRun(t *testing.T) {
	dir := t.TempDir()
	f := &SessionFile{Path: filepath.Join(dir, "s.jsonl")}
	agent, err := NewAgent(f, agentcore.Options{Model: agentcore.Model{ID: "m"}, StreamFn: model().Stream, Tools: []agentcore.Tool{noteTool()}})
	if err != nil {
		t.Fatal(err)
	}
	f.Path = filepath.Join(dir, "missing", "s.jsonl") // appends now fail
	err = agent.Prompt(context.Background(), "My name is Ada.")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Prompt returned %v, want the file's error", err)
	}
	if got := agent.State().ErrorMessage; !strings.HasPrefix(got, "session file:") {
		t.Fatalf("error message %q", got)
	}
}
